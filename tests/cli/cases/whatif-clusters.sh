# A list of clusters is an axis (tests/data/whatif/clusters.yaml): the
# hand-made backfill trace on two nodes of 4 A100s and on three.  On three
# (fifo), C (8 GPUs) starts when A ends at 100 on the first and third
# nodes; F (LS, 1 GPU) ran 40-50 on the second, D (2) starts there at
# 100, E (2) when C ends at 150: delays 90 + 80 + 120 = 290 s, a mean of
# 48.3 s, the makespan E's 150 + 200 = 350 s.  On two nodes (fifo) the
# mean is 940/6 s (simulate-queues.sh).  The cheapest cluster meeting a
# 60 s mean is three nodes with fifo (cost 3).  The CSV and JSON name the
# cluster; a database resumes the runs (a column 'cluster' names it),
# and an edited cluster file (a fourth node) makes every run of the sweep
# run again.
run whatif tests/data/whatif/clusters.yaml -j 2
run whatif tests/data/whatif/clusters.yaml -j 1 --json --csv $TMP/c.csv | sed -n '/"best"/,/"cost"/p'
cut -d, -f1,5,9-12,18 $TMP/c.csv
run whatif tests/data/whatif/clusters.yaml -j 2 --db $TMP/w.sqlite | grep '^runs'
run whatif tests/data/whatif/clusters.yaml -j 2 --db $TMP/w.sqlite | grep '^runs'
sqlite3 $TMP/w.sqlite 'SELECT cluster, queue, round(queue_delay_mean, 3) FROM runs ORDER BY cluster, queue'
mkdir $TMP/d
sed 's|\.\./sim/|'"$ROOT"'/tests/data/sim/|; s|small-3.yaml|'"$TMP"'/d/small-3.yaml|' tests/data/whatif/clusters.yaml >$TMP/d/s.yaml
sed 's|\.\./\.\./\.\./topologies|'"$ROOT"'/topologies|' tests/data/whatif/small-3.yaml >$TMP/d/small-3.yaml
run whatif $TMP/d/s.yaml -j 1 --db $TMP/d/w.sqlite | grep '^runs'
sed -i 's/count: 3}/count: 4}/' $TMP/d/small-3.yaml
run whatif $TMP/d/s.yaml -j 1 --db $TMP/d/w.sqlite | grep -E '^(runs|best)'
# The node and fabric axes must fit every cluster; a cluster is never a
# scenario.
printf 'cluster: [%s, %s]\ntrace: %s\naxes:\n  add_nodes: {type: dgx-a100, counts: [0, 1]}\n' \
	"$ROOT/tests/data/sim/small-cluster.yaml" "$ROOT/topologies/example-cluster.yaml" \
	"$ROOT/tests/data/sim/backfill.csv" >$TMP/bad.yaml
run whatif $TMP/bad.yaml 2>&1 | sed "s#$ROOT/##"
printf 'cluster: [%s, %s]\ntrace: %s\nscenario: cluster\n' \
	"$ROOT/tests/data/sim/small-cluster.yaml" "$ROOT/tests/data/whatif/small-3.yaml" \
	"$ROOT/tests/data/sim/backfill.csv" >$TMP/sc.yaml
run whatif $TMP/sc.yaml
