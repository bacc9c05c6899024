# simulate, compare and whatif read their command lines with the option
# engine: --opt=value, options after the operands, "did you mean", times
# with units; FGD's inflation and the development environments are
# subcommands, and the old spellings (--inflate X, --envs MODE anywhere,
# with or without '=') still run them.
D=tests/data/openb
C=tests/data/sim/small-cluster.yaml
T=tests/data/sim/backfill.csv
echo "== --inflate=1.5 inflates (it used to run a plain replay)"
run simulate -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate=1.5 --seed=1 --json - >$TMP/a.json
run simulate inflate $D/tiny_pods.csv --seed 1 -c $D/tiny_nodes.csv --json=- --inflate 1.5 >$TMP/b.json
cmp $TMP/a.json $TMP/b.json && echo "same JSON, old spelling and subcommand"
head -c 120 $TMP/a.json; echo
run compare inflate -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate=1.2 --policies=fgd --seeds=1-2 | head -3
run simulate inflate -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate 1.5 --sed 1
run simulate inflate -c $D/tiny_nodes.csv $D/tiny_pods.csv
run simulate inflate -c $D/tiny_nodes.csv $D/tiny_pods.csv $D/tiny_pods.csv --inflate 2
run simulate inflate -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate 11
echo "== simulate envs"
run simulate envs -c tests/data/envs/cluster.yaml workloads/adobe-sensei-june-1-2-2021.json
run simulate envs --envs=static --heartbeat-timeout=1m --json=- workloads/adobe-sensei-june-1-2-2021.json >$TMP/e1.json
run simulate --envs static --heartbeat-timeout 60 --json - workloads/adobe-sensei-june-1-2-2021.json >$TMP/e2.json
cmp $TMP/e1.json $TMP/e2.json && echo "same report, --heartbeat-timeout=1m and 60"
echo "== options after the trace, --opt=value, times with units"
run simulate -c $C $T --json=- --tick=2m --seed=3 >$TMP/s1.json
run simulate --json - --tick 120 --seed 3 -c $C $T >$TMP/s2.json
cmp $TMP/s1.json $TMP/s2.json && echo "same summary, --tick=2m after the trace and --tick 120 before"
run simulate -c $C $T --polcy bestfit
run simulate -c $C $T --preempt-cost=1x
run compare -c $C $T --querues fifo
run compare -c $C $T -j0
run whatif workloads/whatif-add-h100.yaml --jsn
run whatif merge a.sqlite --ouput b.sqlite
run simulate -c $C
