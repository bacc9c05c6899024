# Reclaim, with the tenants in the cluster file (tests/data/tenants/):
# a and b hold 4 GPUs of quota each in one cohort on two 4-GPU nodes.  By
# hand, queue fifo-skip: b1 (b, 4 GPUs, 100 s) at 0 fills n-0; b2 (b, 4,
# 100 s) at 1 borrows a's idle quota and fills n-1; a1 (a, 2, 50 s) at 10
# is within a's quota and finds no GPU: it preempts b2 (b borrows; b2
# started last), takes 2 of its GPUs and runs 10-60; b2 (91 s of work
# left) waits for them and pays the 5 s restore cost: 60-156.  b borrowed
# 4 GPUs for 9 s and again for 40 s (196 GPU-s = 0.054 h).  --reclaim off:
# a1 waits for b1: 100-150, b2 runs 1-101.  b held more than its fair
# share (8 GPUs x 1/2 by weight) 1-10 and 60-100: 49 of 156 s (0.314).
run simulate -c tests/data/tenants/reclaim-cluster.yaml tests/data/tenants/reclaim.csv \
	--queue fifo-skip --preempt-cost 5 --csv "$TMP/r" --quiet | tail -4
cat "$TMP/r/tenants.csv"
cut -d, -f1-4,14 "$TMP/r/jobs.csv"
run simulate -c tests/data/tenants/reclaim-cluster.yaml tests/data/tenants/reclaim.csv \
	--queue fifo-skip --reclaim off --csv "$TMP/o" --quiet >/dev/null
cut -d, -f1-4,14 "$TMP/o/jobs.csv"
echo "== fairshare: b used 800 GPU-s before a1 and b3 queue; a1 goes first"
printf 'id,submit,gpus,duration,tenant\nb1,0,8,100,b\nb3,50,8,10,b\na1,60,8,10,a\n' >"$TMP/fs.csv"
run simulate -c tests/data/tenants/reclaim-cluster.yaml "$TMP/fs.csv" --queue fairshare \
	--priority-interval 10 --csv "$TMP/f" --quiet >/dev/null
cut -d, -f1-4 "$TMP/f/jobs.csv"
echo "== errors"
run simulate -c tests/data/tenants/reclaim-cluster.yaml tests/data/tenants/reclaim.csv --reclaim maybe
run simulate -c tests/data/tenants/reclaim-cluster.yaml tests/data/tenants/reclaim.csv --queue fairshare \
	--priority-weights age=1,size=2
run simulate -c tests/data/tenants/reclaim-cluster.yaml tests/data/tenants/reclaim.csv --tenant-column user
echo "== backfill (EASY): b1 and b2 (b, 4 GPUs) fill both nodes at 0 and 1, b"
echo "== borrowing a's 4; b3 (b, 2) at 5 finds no quota and neither reserves nor"
echo "== blocks; a1 (a, 2) at 6, within a's quota, stands for the head: it"
echo "== reclaims (b2 started last), 6-56; b3 then borrows the 2 GPUs left, 6-16;"
echo "== b2 (95 s left) waits for a's quota back, 56-151"
printf 'id,submit,gpus,duration,tenant\nb1,0,4,100,b\nb2,1,4,100,b\nb3,5,2,10,b\na1,6,2,50,a\n' >"$TMP/h.csv"
run simulate -c tests/data/tenants/reclaim-cluster.yaml "$TMP/h.csv" --queue backfill --csv "$TMP/h" \
	--quiet >/dev/null
cut -d, -f1-4,14 "$TMP/h/jobs.csv"
