# topo show for whole clusters: summary, fabric tree, grouped weights.
run topo show -c topologies/example-cluster.yaml
run topo show -c topologies/hetero-cluster.yaml
run topo show -c tests/data/cluster/inline-tree.yaml --json
