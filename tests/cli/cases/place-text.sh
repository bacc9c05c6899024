# place: text output, placed and waiting, on the bundled example cluster.
C=topologies/example-cluster.yaml
run place -c $C workloads/jobs/bert-large-ring.yaml
run place -c $C workloads/jobs/llama2-7b-node.yaml
run place -c $C --state tests/data/state/good.yaml workloads/jobs/notebook-share.yaml
run place -c $C tests/data/jobs/good-huge.yaml
run place -c $C --policy first-fit workloads/jobs/resnet50-ps.yaml
