# Answers that were wrong or unclear before.
C=topologies/example-cluster.yaml
S=tests/data/sim/small-cluster.yaml
sim() { "$GPUPLAN" simulate "$@" >"$TMP/o" 2>&1; echo "[exit $?]"; grep -E '^(all|makespan|gpuplan)' "$TMP/o"; }
echo "== an iteration-based trace needs no --tick (auto tick from the perf model)"
printf 'id,submit,gpus,iterations,model\nj1,0,1,100000000,resnet50\n' >"$TMP/iter.csv"
sim -c $S "$TMP/iter.csv"
echo "== iterations x iteration time above 10^10 s: the job fails"
printf 'id,submit,gpus,iterations,model\nj1,0,1,1000000000000000,resnet50\nj2,0,1,1000,resnet50\n' >"$TMP/huge.csv"
sim -c $S "$TMP/huge.csv"
echo "== Philly dates after 2286 pass the 10^10 s cap"
printf 'timestamp,duration,num_gpus\n2017-10-03 10:00:00,60,1\n9999-12-31 23:59:59,60,1\n' >"$TMP/philly.csv"
run simulate -c $S "$TMP/philly.csv"
echo "== a node whose snapshot lists no NIC: the assumption is stated"
run place -c tests/data/reliability/no-nic-cluster.yaml tests/data/reliability/ring8.yaml | grep -E 'assumed|exit'
echo "== the decision is printed only after the commit (here the commit fails)"
cp tests/data/state/good.yaml "$TMP/s.yaml"
(trap "" XFSZ; ulimit -f 0; run place -c $C --state "$TMP/s.yaml" --commit workloads/jobs/notebook-share.yaml) 2>&1 | cat
cmp -s "$TMP/s.yaml" tests/data/state/good.yaml && echo "state unchanged"
echo "== options after the job file"
run place workloads/jobs/notebook-share.yaml --json -c $C | grep -E '"status"|exit'
echo "== trace rows obey the job YAML's rules"
printf 'id,submit,gpus,duration,type,ps,workers\na,0,2,60,ps-worker,5,5\n' >"$TMP/ps.csv"
run simulate -c $S "$TMP/ps.csv"
printf 'id,submit,gpus,duration,type,ps,workers\nb,0,4,60,ring-allreduce,1,3\n' >"$TMP/ps2.csv"
run simulate -c $S "$TMP/ps2.csv"
echo "== a misspelt gpu_model"
printf 'name: x\ntype: single-card\ngpus: 1\ngpu_memory_gib: 8\ngpu_model: A100-SXM-40GB\n' >"$TMP/mis.yaml"
run validate "$TMP/mis.yaml"
run place -c $C "$TMP/mis.yaml"
printf 'id,submit,gpus,duration,gpu_models\nj1,0,1,60,h100-sxm5-80gb\nj2,5,1,60,H100-SXM-80GB\n' >"$TMP/mis.csv"
run simulate -c $C "$TMP/mis.csv"
echo "== whole-file errors are located"
: >"$TMP/empty.yaml"
run place -c $C "$TMP/empty.yaml"
run place -c $C --batch "$TMP/empty.yaml"
: >"$TMP/empty.csv"
run simulate -c $S "$TMP/empty.csv"
run simulate -c $S --format philly "$TMP/empty.csv"
printf 'sn,cpu_milli,memory_mib,gpu,model\nn0,8000,32768,0,\n' >"$TMP/nogpu.csv"
run simulate -c "$TMP/nogpu.csv" tests/data/openb/tiny_pods.csv --inflate 1.2
printf 'name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,1000,1024,0,0\np1,2000,1024,0,0\n' >"$TMP/cpuonly.csv"
run simulate -c tests/data/openb/tiny_nodes.csv "$TMP/cpuonly.csv" --inflate 1.2
echo "== at most 64 virtual functions per NIC in a state file"
awk 'BEGIN { print "allocations:"; for (i = 0; i < 65; i++) printf "  - {job: v%d, node: a100-r0-0, gpus: [0], share: 10, nic: mlx5_0}\n", i }' >"$TMP/vfs.yaml"
run place -c $C --state "$TMP/vfs.yaml" workloads/jobs/notebook-share.yaml
echo "== topology: only regular files"
printf 'node_types:\n  t: {topology: /dev/null}\nnodes:\n  - {name: a, type: t}\n' >"$TMP/dev.yaml"
run validate "$TMP/dev.yaml"
