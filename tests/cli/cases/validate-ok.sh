# validate: the bundled clusters, a snapshot, and usage errors.
run validate topologies/example-cluster.yaml
run validate topologies/hetero-cluster.yaml
run validate tests/data/cluster/inline-tree.yaml
run validate topologies/k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt
run validate --type snapshot topologies/example-cluster.yaml
run validate
run validate a b
run validate --type bogus x
