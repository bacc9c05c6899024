# Bad allocation-state files: located errors, exit 3.
for f in tests/data/state/bad-*.yaml; do
	run place -c topologies/example-cluster.yaml --state "$f" workloads/jobs/notebook-share.yaml
done
