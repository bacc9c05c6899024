# topo show --node: link and expense matrices, CPU sub-trees, NIC classes,
# subnets; the catalog; errors.
run topo show -c topologies/example-cluster.yaml --node a100-r1-3
run topo show -c topologies/hetero-cluster.yaml --node l40s-1 --json
run topo show -c topologies/hetero-cluster.yaml --models
run topo show -c topologies/example-cluster.yaml --node nosuch
run topo show --bogus
run topo show -c tests/data/cluster-bad/cycle.yaml
