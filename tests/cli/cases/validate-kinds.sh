# validate reads a trace as a trace (any dialect simulate
# reads, every row checked) and a node-type file from 'topo import' as a
# node type, instead of misreading them as a cluster.
run validate workloads/philly-2017-11-29.csv
run validate tests/data/traces/gavel-msr-23dbec.trace
run validate tests/data/traces/pollux-workload-6.csv
run validate tests/data/openb/tiny_pods.csv
printf 'id,submit,gpus,duration\na,0,2,60\nb,5,-1,60\n' >$TMP/bad.csv
run validate $TMP/bad.csv
run validate --type trace $TMP/bad.csv
run topo import --gpu-model RTX-4090 -o $TMP/rtx.yaml topologies/rtx4090-8gpu-allsys-2numa-2nic-go-gpuallocator-17.txt
run validate $TMP/rtx.yaml
sed 's/\[X, SYS/[X, SYZ/' $TMP/rtx.yaml >$TMP/badtype.yaml
run validate $TMP/badtype.yaml
# The simulate jobs.csv gains reason, environment and node_list, last.
printf 'id,submit,gpus,duration,iterations,model,environment\nok,0,5,60,,,team-a\nbig,0,16,60,,,team-b\nhuge,0,1,,1000000000000000,resnet50,\n' >$TMP/r.csv
run simulate -c tests/data/sim/small-cluster.yaml $TMP/r.csv --quiet --csv $TMP/out >/dev/null
cat $TMP/out/jobs.csv
# 'validate -' detects the kind from standard input, then reads it again:
# a pipe and a redirect, each kind, and an error still located at '-'.
cat workloads/philly-2017-11-29.csv | run validate -
run validate - <workloads/jobs/bert-large-ring.yaml
cat topologies/a100-pcie-2gpu-2nic-della-princeton.txt | run validate -
(cd topologies && cat example-cluster.yaml | run validate -)
cat $TMP/bad.csv | run validate -
sed 's/^gpus:/gpuz:/' workloads/jobs/bert-large-ring.yaml | run validate -
printf 'id: x\n' | run validate -
run validate - </dev/null
