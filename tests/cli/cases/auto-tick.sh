# The automatic --tick follows the run's real span.  1000
# one-GPU jobs of 100 s, all at 0 s, on 8 GPUs: the jobs' best case spans
# 100 s (tick 0.2 s) but the queue makes the run last 12,500 s, which at
# 0.2 s would be 62,500 timeline rows; the rows are merged into 20 s ticks.
S=tests/data/sim/small-cluster.yaml
awk 'BEGIN { print "id,submit,gpus,duration"; for (i = 0; i < 1000; i++) printf "j%d,0,1,100\n", i }' >$TMP/q.csv
run simulate -c $S $TMP/q.csv --quiet --csv $TMP/q --json $TMP/q.json >/dev/null
jq -c '{tick, makespan}' $TMP/q.json
wc -l <$TMP/q/timeline.csv
sed -n '2,3p;$p' $TMP/q/timeline.csv
# An explicit --tick is kept as given.
run simulate -c $S $TMP/q.csv --quiet --tick 100 --csv $TMP/q2 >/dev/null
wc -l <$TMP/q2/timeline.csv
# Iteration-based traces: Gavel (MSR) and Pollux, rows and SVG sizes.
for T in tests/data/traces/gavel-msr-23dbec.trace tests/data/traces/pollux-workload-6.csv; do
	"$GPUPLAN" simulate -c $S $T --quiet --csv $TMP/t --svg $TMP/t --json $TMP/t.json >/dev/null
	echo "$T: $(jq .tick $TMP/t.json) s tick, $(($(wc -l <$TMP/t/timeline.csv) - 1)) rows," \
		"largest SVG under 64 KB: $(find $TMP/t -name '*.svg' -size +64k | wc -l | sed 's/^0$/yes/')"
done
# The last row ends at the last finish, also when a tick fell due after it
# (one job of 150 s, ticks of 100 s): 150 s, 2 of 8 GPUs over 100..150 s,
# not a row at 200 s with half its tick after the run.
printf 'id,submit,gpus,duration\nj1,0,2,150\n' >$TMP/one.csv
run simulate -c $S $TMP/one.csv --tick 100 --quiet --csv $TMP/one >/dev/null
cat $TMP/one/timeline.csv
