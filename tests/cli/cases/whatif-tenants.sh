# A what-if spec sets the tenants file (tests/data/whatif/tenants.yaml).
# fifo, by hand: a3 (no quota at 15) heads the queue and holds b1 behind
# it until a2 ends at 60: a3 60-100, b1 60-90; delays 0, 0, 45, 40 (mean
# 21.25 s).  fifo-skip passes a3 over: b1 runs 20-50 (mean 11.25 s).
run whatif tests/data/whatif/tenants.yaml -j 1 --db $TMP/t.sqlite | tail -3
sqlite3 $TMP/t.sqlite 'SELECT round(queue_delay_mean, 3) FROM runs ORDER BY 1'
echo "== within_quota: share is a configuration of its own (two runs stored); a bad value is refused"
for w in reclaim share maybe; do
	printf 'cluster: %s\ntrace: %s\ntenants: %s\nqueue: dominant-share\nwithin_quota: %s\n' \
		"$ROOT/tests/data/sim/small-cluster.yaml" "$ROOT/tests/data/tenants/share.csv" \
		"$ROOT/tests/data/tenants/share.yaml" $w >"$TMP/wq-$w.yaml"
done
$GPUPLAN whatif "$TMP/wq-reclaim.yaml" -j 1 --db "$TMP/wq.sqlite" >/dev/null
$GPUPLAN whatif "$TMP/wq-share.yaml" -j 1 --db "$TMP/wq.sqlite" >/dev/null
sqlite3 "$TMP/wq.sqlite" 'SELECT count(*) FROM runs'
run whatif "$TMP/wq-maybe.yaml" -j 1 --db "$TMP/wq.sqlite"
