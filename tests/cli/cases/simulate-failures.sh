# simulate with failures: a hand-written failure list on the example
# cluster (node, GPU, link failures; one node never back) with restart and
# with replace (worker replacement); the generator with shrink; the Titan-fitted
# model; jobs.csv columns; the JSON failures object; errors.
C=topologies/example-cluster.yaml
W=workloads/philly-2017-11-29.csv
F=tests/data/failures/example-cluster.csv
run simulate -c $C $W --queue backfill --quiet --failures $F --checkpoint-interval 1800 \
	--restart-cost 300 --events $TMP/ev.csv --csv $TMP/csv | tail -4
cat $TMP/ev.csv
grep -E '^(job|757|795|503|22),' $TMP/csv/jobs.csv
run simulate -c $C $W --queue backfill --quiet --failures $F --checkpoint-interval 1800 \
	--restart-cost 300 --recovery replace --events $TMP/ev.csv --json - | sed -n '/^  "failures": {/,/^  },/p'
cat $TMP/ev.csv
run simulate -c $C $W --quiet --mtbf-node 300 --failure-seed 3 --recovery shrink --repair 2 | tail -4
run failures fit tests/data/titan/gc_summary_loc.csv --batch old -o $TMP/titan.yaml >/dev/null
run simulate -c $C $W --quiet --failure-model $TMP/titan.yaml --recovery fail | tail -4
run simulate -c $C $W --quiet --failures tests/data/failures/bad-node.csv
run simulate -c $C $W --quiet --recovery nope --mtbf-node 10
run simulate -c $C $W --quiet --events $TMP/x.csv
run simulate -c $C $W --quiet --weibull-shape 0 --mtbf-gpu 100
test -e $TMP/x.csv && echo "x.csv left behind"
