# las with Tiresias' rules on its 60-job sample (thresholds 200,800, two
# 4-GPU nodes).  Tiresias' simulator with its demotion check computed from
# GPU-seconds gives a mean JCT of 839.07 s and 50 preemptions; gpuplan's
# own rules give 847.77 s (37), --las-tiresias 837.62 s (50).  The
# hand-computed schedules of each rule are in tests/unit/test_preempt.c.
for o in "" "--las-preempted first" "--las-demoted yield" "--las-tiresias"; do
	echo "== ${o:-defaults}"
	run simulate -c tests/data/sim/small-cluster.yaml tests/data/traces/tiresias-60_job.csv \
		--queue las --las-thresholds 200,800 $o | grep -E '^(JCT  |preemptions|\[exit)'
done
echo "== usage errors"
run simulate tests/data/sim/ls-be.csv --queue las --las-preempted last
run simulate tests/data/sim/ls-be.csv --queue las --las-demoted drop
