# 'topology:' in a cluster file names a node-type file
# written by 'topo import' (CPU lists written compactly), not only a raw
# snapshot; its gpu_model is used unless the node type gives one; errors
# are located in that file.
S=$ROOT/topologies/rtx4090-8gpu-allsys-2numa-2nic-go-gpuallocator-17.txt
run topo import --gpu-model RTX-4090 -o $TMP/rtx.yaml $S
grep -E 'cpus' $TMP/rtx.yaml | head -2
printf 'node_types:\n  box: {topology: rtx.yaml}\nnodes:\n  - {name: a, type: box}\n  - {name: b, type: box}\n' >$TMP/c.yaml
run validate $TMP/c.yaml
run topo show -c $TMP/c.yaml | head -9
printf 'name: pair\nps: 1\nworkers: 1\ngpus: 2\ngpu_memory_gib: 8\n' >$TMP/job.yaml
run place -c $TMP/c.yaml $TMP/job.yaml | head -3
# The node type's own gpu_model wins over the file's.
printf 'node_types:\n  box: {topology: rtx.yaml, gpu_model: L40S}\nnodes:\n  - {name: a, type: box}\n' >$TMP/c2.yaml
run validate $TMP/c2.yaml
# The same file as a snapshot gives the same node type.
printf 'node_types:\n  box: {topology: %s, gpu_model: RTX-4090}\nnodes:\n  - {name: a, type: box}\n  - {name: b, type: box}\n' "$S" >$TMP/c3.yaml
# (all but the source file named)
"$GPUPLAN" topo show -c $TMP/c.yaml --node a | grep -v '^topology' >$TMP/show1
"$GPUPLAN" topo show -c $TMP/c3.yaml --node a | grep -v '^topology' >$TMP/show3
cmp -s $TMP/show1 $TMP/show3 && echo "same node type as from the snapshot" || diff $TMP/show1 $TMP/show3 | head -5
# Errors point into the node-type file.
sed 's/\[X, SYS/[X, SYZ/' $TMP/rtx.yaml >$TMP/bad.yaml
printf 'node_types:\n  box: {topology: bad.yaml}\nnodes:\n  - {name: a, type: box}\n' >$TMP/c4.yaml
run validate $TMP/c4.yaml
sed 's/gpu_model: "RTX-4090"/gpu_model: "RTX-4091"/' $TMP/rtx.yaml >$TMP/bad2.yaml
printf 'node_types:\n  box: {topology: bad2.yaml}\nnodes:\n  - {name: a, type: box}\n' >$TMP/c5.yaml
run validate $TMP/c5.yaml
printf 'gpus: 3\n' >$TMP/bad3.yaml
printf 'node_types:\n  box: {topology: bad3.yaml}\nnodes:\n  - {name: a, type: box}\n' >$TMP/c6.yaml
run validate $TMP/c6.yaml
