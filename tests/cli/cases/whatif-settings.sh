# A what-if spec sets what simulate's options set (tests/data/whatif/
# settings.yaml: las thresholds and starvation, heartbeat detection of node
# failures, a failure seed, interference with seeded LS classes): the run
# in the database and simulate's summary of the same command line agree.
run whatif tests/data/whatif/settings.yaml -j 1 --db $TMP/s.sqlite --metric goodput
sqlite3 $TMP/s.sqlite 'SELECT round(jct_mean, 3), round(queue_delay_mean, 3), round(gpu_utilization, 6), round(goodput, 6), round(lost_gpu_hours, 3) FROM runs'
$GPUPLAN simulate $ROOT/workloads/philly-2017-11-29.csv --queue las --las-thresholds 1000,5000 \
	--las-starvation 2 --mtbf-node 300 --heartbeat-period 30 --heartbeat-misses 2 \
	--failure-seed 7 --interference --ls-fraction 0.3 --util-error 5 --json - |
	jq -r '[.jct.mean, .queue_delay.mean, .gpu_utilization, .failures.goodput, .failures.lost_gpu_hours] | map(tostring) | join("|")'
# The las thresholds and the heartbeat period change the answer.
sed -e 's/las_thresholds: \[1000, 5000\]/las_thresholds: [3250, 7200]/' -e 's/heartbeat_period: 30/heartbeat_period: 5/' \
	tests/data/whatif/settings.yaml >$TMP/default.yaml
sed -i "s#\.\./\.\./\.\./#$ROOT/#" $TMP/default.yaml
$GPUPLAN whatif $TMP/default.yaml -j 1 --db $TMP/d.sqlite --metric goodput >/dev/null
sqlite3 $TMP/d.sqlite 'SELECT round(jct_mean, 3), round(goodput, 6) FROM runs'
# Spec errors name the key.
printf 'cluster: x.yaml\ntrace: t.csv\nqueue: [fifo, las]\nqos: {tick: 60}\n' >$TMP/bad.yaml
run whatif $TMP/bad.yaml
printf 'cluster: x.yaml\ntrace: t.csv\nlas_thresholds: [500, 100]\n' >$TMP/bad.yaml
run whatif $TMP/bad.yaml
printf 'cluster: x.yaml\ntrace: t.csv\nqos: {tik: 60}\n' >$TMP/bad.yaml
run whatif $TMP/bad.yaml
