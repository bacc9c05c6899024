# Every command reads its command line with the option engine: help for
# a subcommand is its own, -h is help only where a command takes no -h,
# options in any order, --opt=value, "did you mean" everywhere.
S=tests/data/sacct
echo "== import sacct --help: the job history's usage, not import's"
run import sacct --help | head -2
run help simulate inflate | head -1
echo "== predict train -h 0.1 is --holdout (it printed the usage)"
run predict train tests/data/predict/time.csv -h 0.5 --target=time -H 4 -e 2 -o $TMP/t.json --json >$TMP/t.out
# half of the 403 rows held out (the default 0.2 holds out 81)
grep '"n"' $TMP/t.out
run predict train -h 2 tests/data/predict/time.csv --target time -o $TMP/t.json
echo "== options after operands and --opt=value"
run import sacct $S/rules.P.txt -q --output=$TMP/a.csv >/dev/null
run import sacct -o $TMP/b.csv $S/rules.P.txt -q >/dev/null
cmp $TMP/a.csv $TMP/b.csv && echo "same trace"
run topo import topologies/k80-4gpu-pix-soc-1nic-nimbix-oldlegend-UNRESOLVED-REPO.txt --name=k80 --json | head -c 60; echo
run validate tests/data/sim/small-cluster.yaml --type=cluster
run perf --collective=allreduce --size=1MiB --on=h100-r4-0 | head -n 1
echo "== did you mean"
run topo show --jsn
echo "== a swap of two neighbours is one edit"
run topo show --jsno
run validate --tpye cluster tests/data/sim/small-cluster.yaml
run topo sho
run validate --typr cluster tests/data/sim/small-cluster.yaml
run import slurm x --outptu y
run import sacct x --al-jobs
run perf --colective allreduce
run predict eval --jsn m.json d.csv
run completion bsh
run completion
