# Queue delay is all the time a job waited: before its first start and
# after every preemption until it ran again.  Under las, jobs preempted
# many times used to show a queue delay of 0 (only the first wait
# counted); first-start delay is that first wait, a row of its own.
C=tests/data/sim/small-cluster.yaml
T=tests/data/traces/tiresias-60_job.csv
run simulate -c $C $T --queue las --las-thresholds 200,800 --quiet | sed -n '/^completed jobs/,/^JCT /p; /^waited again/p; /^preemptions/p'
run simulate -c $C $T --queue las --las-thresholds 200,800 --quiet --json - | grep -A2 '"first_start_delay"\|^  "queue_delay"' | grep -v p50
# A preempted job's queue_delay in jobs.csv counts its second wait too (start - submit
# is the first, its own column first_start_delay): A ran 0..10, waited 10..110
# while B ran, then 110..1130.
printf 'id,submit,gpus,duration,type,class\nA,0,8,1000,ring-allreduce,BE\nB,10,4,100,single-node,LS\n' >$TMP/ls-be.csv
run simulate -c $C $TMP/ls-be.csv --preempt class --preempt-cost 20 --csv $TMP/o --quiet | grep -E '^(queue delay|first-start|waited)'
cut -d, -f1-4,9,10,15 $TMP/o/jobs.csv
# Goodput against lost GPU-hours: the loss is a small share of what was
# allocated, and a restarted job waiting for GPUs holds none.
run simulate -c $C $T --mtbf-node 2 --recovery restart --failure-seed 3 --restart-cost 60 --quiet | grep -A2 '^  lost'
