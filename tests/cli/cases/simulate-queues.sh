# Six jobs on two 4-GPU nodes (tests/data/sim/backfill.csv), by hand:
#   A (4 GPUs, 0-100) fills n-0, B (2, 0-300) half of n-1.  C (8 GPUs, ring)
#   must wait for both to end: it starts at 300 under every discipline.
#   fifo/sjf: D (2) and E (2) wait behind C and start at 350; F is LS, so
#   it goes before the BE jobs and takes a free n-1 GPU at 40.
#   backfill: C's reservation is t=300 on all 8 GPUs.  D (60 s) ends by
#   then and starts at 20 on n-1; E (200 s) fits only after F (LS, head
#   from 40, reservation 80 when D ends) has run 80-90, and 90+200 = 290
#   <= 300, so E backfills at 90.
for q in fifo sjf backfill; do
	echo "== $q"
	run simulate -c tests/data/sim/small-cluster.yaml tests/data/sim/backfill.csv \
		--queue $q --csv "$TMP/$q" --quiet >/dev/null
	cat "$TMP/$q/jobs.csv"
done
echo "== backfill summary"
run simulate -c tests/data/sim/small-cluster.yaml tests/data/sim/backfill.csv --queue backfill
echo "== backfill json"
run simulate -c tests/data/sim/small-cluster.yaml tests/data/sim/backfill.csv --queue backfill \
	--seed 5 --json - --tick 100
echo "== timeline"
cat "$TMP/backfill/timeline.csv"
# GPU utilization while jobs wait: simulate's figure is compare's (one
# definition, one key) for the same run
for q in fifo backfill; do
	a=$($GPUPLAN simulate -c tests/data/sim/small-cluster.yaml tests/data/sim/backfill.csv --queue $q \
		--json - --quiet | jq .gpu_utilization_queued)
	b=$($GPUPLAN compare -c tests/data/sim/small-cluster.yaml tests/data/sim/backfill.csv --queues $q \
		--json --quiet | jq '.runs[0].metrics.gpu_utilization_queued.mean')
	echo "$q simulate $a compare $b"
done
