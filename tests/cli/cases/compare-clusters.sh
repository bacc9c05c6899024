# compare with several clusters (each -c counts; none silently wins), the
# utilization while jobs wait (which, unlike the utilization over the
# makespan, differs between policies and queues), --csv and --svg, and
# --scale-durations: recorded Philly durations read as measured on DGX-1
# V100 servers on InfiniBand EDR, so the A100 and H100 nodes shorten them.
T=workloads/philly-2017-11-29.csv
run compare -c topologies/example-cluster.yaml -c topologies/hetero-cluster.yaml $T --policies bestfit,first-fit --queues fifo,backfill --csv $TMP/c --svg $TMP/s
ls $TMP/c $TMP/s
cut -d, -f1-4,8,14,15 $TMP/c/runs.csv
grep -c '<polyline' $TMP/s/jct-cdf.svg
run compare $T --queues fifo --scale-durations V100-SXM2-16GB:ib-edr | tail -4
run compare -c topologies/example-cluster.yaml -c topologies/hetero-cluster.yaml $T --json | grep -A12 '"clusters"'
run compare $T --scale-model resnet50
# One reference for both clusters: the same work takes days on the older
# GPUs of the heterogeneous cluster.
run compare -c topologies/example-cluster.yaml -c topologies/hetero-cluster.yaml $T --scale-durations dgx-a100 | grep -E '^(scale|JCT mean|makespan)'
