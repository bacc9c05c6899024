# Round trip: import a Slurm cluster and today's use from pasted scontrol
# output, place a job on top (printing its sbatch line), release it, and
# get the imported state back byte for byte.
S=tests/data/slurm
run import slurm $S/scontrol-show-node-dccn.txt -o $TMP/c.yaml --state-out $TMP/s.yaml -q
cp $TMP/s.yaml $TMP/imported.yaml
cat >$TMP/job.yaml <<'JOB'
name: finetune
type: single-node
gpus: 3
gpu_memory_gib: 30
JOB
run place -c $TMP/c.yaml --state $TMP/s.yaml --commit --emit slurm,env,numactl $TMP/job.yaml
cat $TMP/s.yaml
run release -c $TMP/c.yaml --state $TMP/s.yaml --job finetune --commit
cmp $TMP/s.yaml $TMP/imported.yaml && echo "state back as imported"
run release -c $TMP/c.yaml --state $TMP/s.yaml --job finetune
echo "== wait (busy now) and never (impossible here)"
cat >$TMP/five.yaml <<'JOB'
name: five
type: single-node
gpus: 4
gpu_memory_gib: 10
JOB
run place -c $TMP/c.yaml --state $TMP/s.yaml --commit $TMP/five.yaml >/dev/null
sed 's/five/four-more/' $TMP/five.yaml >$TMP/four.yaml
run place -c $TMP/c.yaml --state $TMP/s.yaml --json $TMP/four.yaml | grep -E '"status"|"reason"|exit'
sed 's/gpus: 4/gpus: 8/; s/five/eight/' $TMP/five.yaml >$TMP/eight.yaml
run place -c $TMP/c.yaml --state $TMP/s.yaml $TMP/eight.yaml | grep -E 'status|exit'
sed 's/gpu_memory_gib: 10/gpu_memory_gib: 60/; s/five/big/' $TMP/five.yaml >$TMP/big.yaml
run place -c $TMP/c.yaml --state $TMP/s.yaml $TMP/big.yaml | grep -E 'status|exit'
printf 'name: h\ntype: single-card\ngpus: 1\ngpu_memory_gib: 8\ngpu_model: H100-SXM5-80GB\n' >$TMP/h100.yaml
run place -c $TMP/c.yaml $TMP/h100.yaml | grep -E 'status|exit'
echo "== --commit creates a missing state file"
run place -c $TMP/c.yaml --state $TMP/new-state.yaml --commit $TMP/job.yaml >/dev/null
cat $TMP/new-state.yaml
run place -c $TMP/c.yaml --state $TMP/absent.yaml $TMP/job.yaml
echo "== release --commit takes the state's lock (held here by flock(1))"
flock $TMP/s.yaml "$GPUPLAN" release -c $TMP/c.yaml --state $TMP/s.yaml --job five --commit \
	--lock-timeout 0.2
echo "[exit $?]"
run release -c $TMP/c.yaml --state $TMP/s.yaml --job five --commit --lock-timeout 5
