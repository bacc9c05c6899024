# gpuplan env: bind by the quota-binding rule against a state file, release,
# heartbeats and reclaim exactly at the timeout, status.
C=tests/data/envs/cluster.yaml
S="-c $C --envs tests/data/envs/envs.yaml --state $TMP/st.yaml"
run env bind $S --env alice --task t1 --memory 10GiB --at 100 --commit
run env bind $S --env alice --task t2 --memory 10GiB --at 101 --commit
run env bind $S --env alice --task t3 --memory 5GiB --json --commit
run env bind $S --env alice --task t4 --memory 10GiB --commit
run env bind $S --env alice --task t4 --memory 10GiB --json
run env bind $S --env dora --task d1 --gpus 2 --memory 2GiB --commit
run env bind $S --env bob --task b1 --memory 4GiB --task-threshold 2
run env bind $S --env bob --task b1 --gpus 2
cat $TMP/st.yaml
run env status $S
run env heartbeat $S --env dora --at 200 --commit
run env reclaim $S --now 105.999
run env reclaim $S --now 106 --json --commit
run env release $S --task d1
run env release $S --task d1 --commit
run env release $S --task nope
run env status $S --json
echo "bind without --commit leaves no file:"
run env bind -c $C --envs tests/data/envs/envs.yaml --state $TMP/none.yaml --env alice --task x
ls $TMP
echo "8 concurrent committers (flock, as place --commit): every binding kept"
for i in 1 2 3 4 5 6 7 8; do
	"$GPUPLAN" env bind $S --env dora --task c$i --memory 1GiB --commit >/dev/null &
done
wait
grep -c 'task: "c' $TMP/st.yaml
run env status $S | head -3
