# Tenants with backfill, --preempt, las and QoS on two 4-GPU nodes
# (tests/data/tenants/queues.*): a and b 4 GPUs of quota, c 8, no cohort.
# By hand, backfill (EASY and Slurm's plan alike): c1 (c, 4) 0-50 fills
# n-0; a1 (a, 2) 0-100 on n-1.  a2 (a, 4) at 1 would take a to 6: its
# quota refuses it, it neither reserves nor blocks.  b2 (b, 4) at 2 gets
# the reservation, n-0 at 50, and holds b's 4 GPUs of quota from then;
# b3 (b, 2) at 3 fits n-1 but would still run at 50 with b at 4 + 2: it
# waits; a3 (a, 2, 20 s) at 4 ends before 50: backfilled 4-24.  b2 50-150,
# a2 100-110 (a1 gone), b3 150-250.
# --preempt priority under fifo: a2 (priority 5) at 1 finds no quota, so
# it may preempt only a's own jobs: a1 (1 s done), whose quota it then
# takes: a2 1-11, a1 11-110; b2 waits for n-0 (50-150) and holds the fifo
# queue; b3 has no quota until b2 ends: 150-250, a3 behind it 150-170.
# No tenant ever holds more than its quota (peak GPUs).
Q="tests/data/tenants/queues.csv --tenants tests/data/tenants/queues.yaml"
for q in "--queue backfill" "--queue backfill --backfill slurm" "--queue fifo --preempt priority" \
	"--queue las --las-thresholds 100"; do
	echo "== $q"
	run simulate -c tests/data/sim/small-cluster.yaml $Q $q --csv "$TMP/q" | tail -5
	cut -d, -f1-4,14 "$TMP/q/jobs.csv"
done
echo "== QoS monitor, one tenant of 6 GPUs: the 8-GPU jobs never start"
printf 'tenants:\n  - {name: all, quota: {gpus: 6}}\n' >"$TMP/six.yaml"
run simulate tests/data/traces/gavel-msr-23dbec.trace -c tests/data/sim/small-cluster.yaml --tick 3600 \
	--policy predicted-share --qos-tick 60 --ls-fraction 0.3 --util-error 20 \
	--tenants "$TMP/six.yaml" --default-tenant all | grep -E '^(all |jobs|tenant|  actions|\[exit)'
echo "== dominant share: at 10 c's 4 idle GPUs go to b1 (b would borrow 2 of the"
echo "== cohort's 8, a 6); fifo-skip gives them to a2, the earlier arrival"
for q in dominant-share fifo-skip; do
	$GPUPLAN simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/share.csv \
		--tenants tests/data/tenants/share.yaml --queue $q --csv "$TMP/s" --quiet >/dev/null
	cut -d, -f1-4 "$TMP/s/jobs.csv"
done
printf 'tenants:\n  - {name: a, quota: {gpus: 2}, cohort: k, weight: 4}\n  - {name: b, quota: {gpus: 2}, cohort: k}\n  - {name: c, quota: {gpus: 4}, cohort: k}\n' >"$TMP/w.yaml"
echo "== a with weight 4: its share 6/8/4 is below b's 2/8: a2 first"
$GPUPLAN simulate -c tests/data/sim/small-cluster.yaml tests/data/tenants/share.csv \
	--tenants "$TMP/w.yaml" --queue dominant-share --csv "$TMP/w" --quiet >/dev/null
cut -d, -f1-4 "$TMP/w/jobs.csv"
echo "== preemption by share: at 10 a2 would take a to 4 GPUs, 2 borrowed of the"
echo "== cohort's 8 (share 0.25); b borrows 4 (0.5) and without b3, its latest,"
echo "== keeps 0.25: b3 is preempted, a2 runs 10-60, b3 (92 s left) 60-152;"
echo "== fifo-skip: a2 waits for b1, 100-150"
printf 'tenants:\n  - {name: a, quota: {gpus: 2}, cohort: k}\n  - {name: b, quota: {gpus: 2}, cohort: k}\n  - {name: c, quota: {gpus: 4}, cohort: k}\n' >"$TMP/p.yaml"
printf 'id,submit,gpus,duration,tenant\nb1,0,2,100,b\nb2,1,2,100,b\nb3,2,2,100,b\na1,3,2,100,a\na2,10,2,50,a\n' >"$TMP/p.csv"
for q in dominant-share fifo-skip; do
	$GPUPLAN simulate -c tests/data/sim/small-cluster.yaml "$TMP/p.csv" --tenants "$TMP/p.yaml" \
		--queue $q --json "$TMP/p.json" --csv "$TMP/p" --quiet | grep '^reclaimed' || echo "(no reclaim)"
	cut -d, -f1-4,14 "$TMP/p/jobs.csv"
	jq -c '[.tenants[] | {name, reclaims, reclaimed, reclaimed_most}]' "$TMP/p.json"
done
echo "== --within-quota takes reclaim or share"
run simulate -c tests/data/sim/small-cluster.yaml "$TMP/p.csv" --tenants "$TMP/p.yaml" \
	--queue dominant-share --within-quota sometimes
