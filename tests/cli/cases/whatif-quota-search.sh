# The smallest quota for team a that keeps a's p90 queue delay at most
# 150 s (tests/data/whatif/quota-search.yaml, worked out by hand in
# tests/unit/test_whatif_quota.c): bisection over quota.a 0..8 runs 4 of
# the 9 values with one worker and with two, answers 4 and shows 3 failing.
run whatif tests/data/whatif/quota-search.yaml --search -j 1 --db $TMP/s.sqlite --csv $TMP/s.csv
"$GPUPLAN" whatif tests/data/whatif/quota-search.yaml --search -j 2 --json | jq -c '.sweep.search, .sweep.search_check, .sweep.runs_now, .best.axes'
# the searched axis by name in the database and the CSV: only the probed values
sqlite3 $TMP/s.sqlite 'SELECT "quota.a", "tenant.a.queue_delay_p90" FROM runs ORDER BY 1'
cut -d, -f9 $TMP/s.csv
# the grid answers by its own rule (equal costs: the most headroom), and
# shows why a bound on every tenant is refused: b's p90 rises from 80 s to
# 100 s once a holds 6 GPUs
"$GPUPLAN" whatif tests/data/whatif/quota-search.yaml -j 1 --json | jq -c '[.runs[] | [.axes."quota.a", .tenants.b.queue_delay.p90]], .best.axes'
sed -e "s#: \.\./#: $ROOT/tests/data/#" -e 's/{a: 150s}/90s/' tests/data/whatif/quota-search.yaml >$TMP/every.yaml
run whatif $TMP/every.yaml --search -j 1
sed -e "s#: \.\./#: $ROOT/tests/data/#" -e 's/{a: 150s}/{b: 150s}/' tests/data/whatif/quota-search.yaml >$TMP/b.yaml
run whatif $TMP/b.yaml --search -j 1
sed -e "s#: \.\./#: $ROOT/tests/data/#" -e 's/^  tenant_p90_wait.*/  metric: queue_delay.p90\n  max: 1h/' tests/data/whatif/quota-search.yaml >$TMP/m.yaml
run whatif $TMP/m.yaml --search -j 1
