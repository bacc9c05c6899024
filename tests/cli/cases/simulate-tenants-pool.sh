# A cohort's pool is what its tenants lend, on two 4-GPU nodes (8 GPUs,
# 4 of them outside every quota): a has no quota, b 4 GPUs, one cohort.
# By hand, queue fifo-skip: a1 (a, 4 GPUs, 100 s) at 0 borrows b's idle
# 4, all the cohort lends.  b1 (b, 4, 50 s) at 10 is within b's quota and
# 4 GPUs are free, but with it the cohort would draw 8 of its 4: it does
# not fit as it is, and reclaims a1 (a borrows): a1 is preempted with 90 s
# left, b1 runs 10-60, a1 waits for b's quota back: 60-150.  The cohort
# never runs more than 4 GPUs.  a borrowed 4 GPUs for 10 s and 90 s (400
# GPU-s = 0.111 h), all lent by b.  --reclaim off: b1 waits for a1's end,
# 100-150.
printf 'tenants:\n  - {name: a, quota: {gpus: 0}, cohort: c}\n  - {name: b, quota: {gpus: 4}, cohort: c}\n' \
	>"$TMP/pool.yaml"
printf 'id,submit,gpus,duration,tenant\na1,0,4,100,a\nb1,10,4,50,b\n' >"$TMP/pool.csv"
run simulate -c tests/data/sim/small-cluster.yaml "$TMP/pool.csv" --tenants "$TMP/pool.yaml" \
	--queue fifo-skip --csv "$TMP/r" --quiet | tail -4
cut -d, -f1,4,5,10,11,12,14,15,16 "$TMP/r/tenants.csv"
cut -d, -f1-4,14 "$TMP/r/jobs.csv"
run simulate -c tests/data/sim/small-cluster.yaml "$TMP/pool.csv" --tenants "$TMP/pool.yaml" \
	--queue fifo-skip --reclaim off --csv "$TMP/o" --quiet >/dev/null
cut -d, -f1-4,14 "$TMP/o/jobs.csv"
echo "== b lends 2 of its 4 and keeps 2: b1 (b, 2) at 10 starts in b's own 2"
echo "== beside a1 (a, 2, the cohort's 2); b2 (b, 2) at 20 reclaims a1: 20-70;"
echo "== a1 (80 s left) starts again when b1 ends, 60-140"
printf 'tenants:\n  - {name: a, quota: {gpus: 0}, cohort: c}\n  - {name: b, quota: {gpus: 4}, cohort: c, lending_limit: 2}\n' \
	>"$TMP/lend.yaml"
printf 'id,submit,gpus,duration,tenant\na1,0,2,100,a\nb1,10,2,50,b\nb2,20,2,50,b\n' >"$TMP/lend.csv"
run simulate -c tests/data/sim/small-cluster.yaml "$TMP/lend.csv" --tenants "$TMP/lend.yaml" \
	--queue fifo-skip --csv "$TMP/l" --quiet >/dev/null
cut -d, -f1-4,14 "$TMP/l/jobs.csv"
