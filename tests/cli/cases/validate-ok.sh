# validate: the bundled clusters, a snapshot, and usage errors.
run validate topologies/example-cluster.yaml
run validate topologies/hetero-cluster.yaml
run validate tests/data/cluster/inline-tree.yaml
run validate topologies/k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt
run validate --type snapshot topologies/example-cluster.yaml
run validate
run validate a b
run validate --type bogus x
# job files (format: man gpuplan, "Job YAML")
run validate tests/data/jobs/good-llama-7b.yaml
run validate tests/data/jobs/list-good.yaml
run validate tests/data/jobs/bad-unknown-key.yaml
