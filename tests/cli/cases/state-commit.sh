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
