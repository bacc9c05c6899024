# place --emit: the placement as environment, numactl, Slurm and
# Kubernetes text; a two-node ring shares one hostlist line per kind.
C=topologies/example-cluster.yaml
run place -c $C --emit env --emit numactl,slurm,k8s workloads/jobs/bert-large-ring.yaml | sed -n '/^emit/,$p'
run place -c $C --json --emit slurm workloads/jobs/bert-large-ring.yaml | grep -A3 '"emit"'
run place -c $C --emit mpi workloads/jobs/bert-large-ring.yaml
