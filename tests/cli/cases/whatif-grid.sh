# A what-if grid (tests/data/whatif/grid.yaml): 3 added-node counts x 2
# fabrics x 2 queues x 2 seeds on the Philly slice; the cheapest
# configuration meeting queue_delay.p90 <= 1h in both seeds (EASY backfill
# on the cluster as it is).  The fabric changes nothing with recorded
# durations; with --scale-durations (scaled.yaml) eth-10 is slower.  Then
# the answer as JSON (best only), and the CSV's header and row count.
run whatif tests/data/whatif/grid.yaml -j 2
run whatif tests/data/whatif/scaled.yaml -j 2 | sed -n '4p;9,13p'
run whatif tests/data/whatif/grid.yaml -j 1 --json --csv $TMP/runs.csv >$TMP/out.json
sed -n '/"best"/,/^  "runs"/p' $TMP/out.json | head -20
grep -c '"seed"' $TMP/out.json
head -1 $TMP/runs.csv
wc -l <$TMP/runs.csv
