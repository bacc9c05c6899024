# --commit writes the new state atomically; a waiting job or a bad state
# leaves the file untouched.
C=topologies/example-cluster.yaml
cp tests/data/state/good.yaml $TMP/s.yaml
run place -c $C --state $TMP/s.yaml --commit workloads/jobs/notebook-share.yaml >/dev/null
cat $TMP/s.yaml
run place -c $C --state $TMP/s.yaml --commit workloads/jobs/notebook-share.yaml
cp $TMP/s.yaml $TMP/before.yaml
run place -c $C --state $TMP/s.yaml --commit tests/data/jobs/good-huge.yaml >/dev/null
cmp $TMP/s.yaml $TMP/before.yaml && echo unchanged after wait
ls $TMP
# A job name YAML can carry but not print raw (U+0097, DEL) is escaped in
# the state, so the next commit still loads it.
printf 'name: "j\\u0097x\\x7f"\ntype: single-card\ngpus: 1\ngpu_memory_gib: 10\n' >$TMP/c1.yaml
run place -c $C --state $TMP/c1-state.yaml --commit $TMP/c1.yaml 2>/dev/null | tail -1
grep 'job:' $TMP/c1-state.yaml
run place -c $C --state $TMP/c1-state.yaml --commit workloads/jobs/notebook-share.yaml | tail -1
