# place: usage errors (exit 2) and bad inputs (exit 3).
C=topologies/example-cluster.yaml
run place
run place -c $C --policy nosuch workloads/jobs/bert-large-ring.yaml
run place -c $C --commit workloads/jobs/bert-large-ring.yaml
run place -c $C --batch workloads/jobs/batch-mixed.yaml workloads/jobs/bert-large-ring.yaml
run place -c $C --seed x workloads/jobs/bert-large-ring.yaml
run place -c $C tests/data/jobs/bad-ps-sum.yaml
run place -c $C --batch tests/data/jobs/list-bad-dup.yaml
run place --policy list
