# Class preemption on two 4-GPU nodes (tests/data/sim/ls-be.csv), by hand:
#   off: A (BE, 8 GPUs, 0-1000) holds both nodes; LS B waits to 1000-1100,
#   C (BE) follows at 1000.
#   class, --preempt-cost 30: B takes A's GPUs at 10 (10-110); A goes back
#   to the BE queue with 990 s left and, as the BE head, keeps C behind it
#   (fifo); it restarts at 110, restores for 30 s: 110 + 30 + 990 = 1130;
#   C runs 1130-1430.  8 GPUs x 30 s = 240 GPU-s = 0.067 GPU-hours lost.
#   --checkpoint-interval 4: A loses the 2 s since its checkpoint at 8:
#   110 + 992 = 1102.
for p in off class; do
	echo "== $p"
	run simulate -c tests/data/sim/small-cluster.yaml tests/data/sim/ls-be.csv \
		--preempt $p --preempt-cost 30 --csv "$TMP/$p" --quiet | tail -3
	cat "$TMP/$p/jobs.csv"
done
echo "== checkpoints"
run simulate -c tests/data/sim/small-cluster.yaml tests/data/sim/ls-be.csv \
	--preempt class --checkpoint-interval 4 --json - | grep -E '"(preempt|preemptions|preempted_gpu_hours_lost|last_finish)"'
echo "== las on the Tiresias sample trace"
run compare -c tests/data/sim/small-cluster.yaml tests/data/traces/tiresias-60_job.csv \
	--queues fifo,las --las-thresholds 200,800 --quiet | grep -E '^(metric|JCT|makespan|preemptions|\[exit)' 
echo "== usage errors"
run simulate tests/data/sim/ls-be.csv --preempt always
run simulate tests/data/sim/ls-be.csv --queue las --las-thresholds 800,200
run simulate tests/data/sim/ls-be.csv --preempt-cost -1
