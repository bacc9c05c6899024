# place --json: the JSON contract (sorted keys), placed and waiting.
C=topologies/example-cluster.yaml
run place -c $C --json --state tests/data/state/good.yaml workloads/jobs/bert-large-ring.yaml
run place -c $C --json tests/data/jobs/good-huge.yaml
