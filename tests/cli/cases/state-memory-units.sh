# An allocation asking more host memory than its node has left is
# refused in the unit the state file gives it (GiB), not in MiB.
printf 'allocations:\n  - {job: a, node: h100-r4-0, gpus: [0], memory_gib: 99999}\n' >$TMP/s.yaml
run validate -c topologies/example-cluster.yaml $TMP/s.yaml
printf 'allocations:\n  - {job: a, node: h100-r4-0, gpus: [0], memory_gib: 1500.5}\n  - {job: b, node: h100-r4-0, gpus: [1], memory_gib: 600}\n' >$TMP/s.yaml
run validate -c topologies/example-cluster.yaml $TMP/s.yaml
