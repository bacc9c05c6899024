# place --batch: jobs in order against one evolving state, then a summary;
# --commit saves the final state, which a second batch then sees.
C=topologies/example-cluster.yaml
run place -c $C --batch workloads/jobs/batch-mixed.yaml
printf 'allocations: []\n' >$TMP/s.yaml
run place -c $C --state $TMP/s.yaml --commit --batch tests/data/jobs/list-good.yaml >/dev/null
cat $TMP/s.yaml
run place -c $C --state $TMP/s.yaml --json --batch workloads/jobs/batch-mixed.yaml | grep -E '"(status|placed|waiting|free_gpus|fragmentation|gpus_used)"'
