# gpuplan perf JOB.yaml: iteration-time breakdown on a placement, the best
# and worst placements on the idle cluster, a calibrated-profile job, and
# errors.
C=tests/data/perf/cluster.yaml
run perf -c $C tests/data/perf/gpt-1b-8.yaml --on a:0-3,c:0-3
run perf -c $C tests/data/perf/gpt-1b-8.yaml --policy first-fit --json
run perf -c $C tests/data/perf/resnet50-16.yaml --on a,b
run perf -c $C tests/data/perf/gpt-1b-8.yaml --on a --policy first-fit
run perf -c $C tests/data/perf/gpt-1b-8.yaml --policy nosuch
# a parameter server placed beside its workers is timed on their node
run perf -c topologies/example-cluster.yaml workloads/jobs/resnet50-ps.yaml --policy bestfit
run perf -c $C tests/data/jobs/bad-model.yaml
run perf -c $C
