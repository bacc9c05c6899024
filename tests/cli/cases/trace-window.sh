# --start and --end that leave no time between them are a usage error
# (exit 2), in either order, instead of a run of no jobs; --end 0 is no
# end, and a window of an hour runs.
W=workloads/philly-2017-11-29.csv
run simulate -c topologies/example-cluster.yaml $W --quiet --start 10 --end 5
run simulate -c topologies/example-cluster.yaml $W --quiet --end 2h --start 2h
run compare -c topologies/example-cluster.yaml $W --quiet --end 1 --start 1d
run simulate -c topologies/example-cluster.yaml $W --quiet --start 10 --end 0 | grep -E '^(trace|\[exit)'
run simulate -c topologies/example-cluster.yaml $W --quiet --start 1h --end 2h | grep -E '^(trace|\[exit)'
