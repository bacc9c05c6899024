# fifo, sjf and backfill side by side on the hand-made trace (schedules in
# simulate-queues.sh): backfill cuts the mean queue delay from 940/6 s to
# 390/6 s and the makespan from 550 s to 350 s.
C=tests/data/sim/small-cluster.yaml
run compare -c $C tests/data/sim/backfill.csv --queues fifo,sjf,backfill --seeds 1-3
run compare -c $C tests/data/sim/backfill.csv --queues backfill --seeds 4,7 --json
run compare -c $C tests/data/sim/backfill.csv --policies first-fit,nosuch
run compare -c $C tests/data/sim/backfill.csv --seeds 3-1
run compare -c $C tests/data/sim/backfill.csv --queues lifo
# the bundled cluster has the same name in the JSON as in the table, the
# CSV and simulate's JSON
$GPUPLAN compare tests/data/sim/backfill.csv --json -j 1 --quiet 2>/dev/null | jq -c .cluster
# the page's answer names every configuration that shares the lead: here
# first-fit and bestfit place the same way, so each lead is a tie
$GPUPLAN compare -c $C tests/data/sim/backfill.csv --queues fifo,backfill --policies bestfit,first-fit \
	-j 1 --quiet --html $TMP/tie.html >/dev/null
grep -o '<p class="answer">.*</p>' $TMP/tie.html
# on the bundled cluster's 336 GPUs no job of the trace waits: utilization
# while jobs wait has no wait to measure, and says so as simulate does
# (the JSON keeps 0)
$GPUPLAN compare tests/data/sim/backfill.csv --queues fifo,backfill --seeds 1-2 -j 1 --quiet 2>/dev/null |
	grep -E '^metric|^queue delay mean|^GPU util'
$GPUPLAN simulate tests/data/sim/backfill.csv --quiet 2>/dev/null | grep '^GPU utilization'
