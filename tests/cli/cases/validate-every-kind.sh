# validate recognises every file kind gpuplan reads, and --type names each;
# a state, environments or failure list is checked against -c (default the
# bundled cluster, said on standard error).
run validate tests/data/state/good.yaml
run validate --type state -c topologies/example-cluster.yaml tests/data/state/good.yaml
run validate -c tests/data/envs/cluster.yaml tests/data/envs/envs.yaml
run validate -c topologies/example-cluster.yaml tests/data/failures/example-cluster.csv
run failures fit tests/data/titan/gc_summary_loc.csv --batch old -o $TMP/titan.yaml >/dev/null
run validate $TMP/titan.yaml
run validate workloads/whatif-add-h100.yaml
run validate --type whatif workloads/whatif-remove-a100.yaml
run validate tests/data/whatif/grid.yaml
# errors are located in the file of that kind
run validate -c topologies/example-cluster.yaml tests/data/state/bad-unknown-node.yaml
printf 'cluster: ../topologies/example-cluster.yaml\ntrace: philly-2017-11-29.csv\naxes:\n  remove_nodes: {type: nope, counts: [1]}\n' >$TMP/w.yaml
cp workloads/philly-2017-11-29.csv $TMP/
sed -i "s|\.\./topologies|$ROOT/topologies|" $TMP/w.yaml
run validate $TMP/w.yaml 2>&1 | sed "s#$ROOT#\$ROOT#g"
# a trace past the 16 MiB any cluster file may be is still a trace: each
# kind has its own limit (blank lines make the size cheaply)
{ head -n 3 tests/data/sim/backfill.csv; head -c 17000000 /dev/zero | tr '\0' '\n'; } >$TMP/big.csv
run validate $TMP/big.csv
# tenants files, job histories and fabrics, read by their own readers
# (simulate --tenants, import sacct, import --fabric), errors located
run validate tests/data/tenants/two-teams.yaml
run validate tests/data/whatif/tenants.yaml
printf 'tenants:\n  - {name: a, quota: 8}\n' >$TMP/t.yaml
run validate $TMP/t.yaml
run validate tests/data/sacct/rules.json
run validate tests/data/sacct/rules.P.txt
run validate - <tests/data/sacct/scontrol-show-job.txt
printf 'JobID|JobName|Partition|AllocTRES\n1|a|gpu|gres/gpu=8\n' >$TMP/sacct.txt
run validate $TMP/sacct.txt
run validate tests/data/fabric/slurm-man-tree.conf
run validate tests/data/fabric/messy.conf
run validate tests/data/fabric/ibnetdiscover-rails.txt
printf '# fabric\nSwitchName=s1 Nodes=n[1-4\n' >$TMP/topology.conf
run validate $TMP/topology.conf
run validate --type topology tests/data/sacct/rules.json
run validate --type sacct tests/data/fabric/slurm-man-tree.conf
run validate --type tenant $TMP/t.yaml
