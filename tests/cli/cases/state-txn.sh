# The commit transaction of every command that writes an allocation
# state.  replace --commit of one GPU: the failed GPU leaves the job and
# stays down (down_gpus), the replacement on the same node joins the
# job's entry there; a later place cannot get the failed GPU.
C=tests/data/state/commit-cluster.yaml
cat >$TMP/s.yaml <<'YAML'
allocations:
  - {job: pair, node: n0, gpus: [0]}
  - {job: pair, node: n1, gpus: [0]}
  - {job: busy, node: n1, gpus: [1]}
YAML
printf 'name: pair\ntype: ring-allreduce\ngpus: 2\ngpu_memory_gib: 1\n' >$TMP/pair.yaml
printf 'name: one\ntype: single-card\ngpus: 1\ngpu_memory_gib: 1\n' >$TMP/one.yaml
run replace -c $C --state $TMP/s.yaml --failed n1:0 --commit $TMP/pair.yaml | grep -E '^(status|replacement)'
grep -v '^#' $TMP/s.yaml
echo "the failed GPU is not placed on; nothing else is free:"
run place -c $C --state $TMP/s.yaml $TMP/one.yaml | grep -E 'status|exit'
echo "a dangling symbolic link as --state --commit: its target is created"
ln -s new-state.yaml $TMP/link.yaml
run place -c $C --state $TMP/link.yaml --commit $TMP/one.yaml 2>&1 | sed "s|$TMP|TMP|" | grep -E 'status|creating'
test -L $TMP/link.yaml && grep -c 'job: "one"' $TMP/new-state.yaml
echo "a bad down_gpus entry:"
printf 'down_gpus:\n  - {node: n1, gpus: [4]}\n' >$TMP/bad.yaml
run place -c $C --state $TMP/bad.yaml $TMP/one.yaml 2>&1 | sed "s|$TMP|TMP|"
