# Settings whose cost grows without limit are refused before the run,
# judged from the run itself (exit 2): a failure rate at which a job
# would fail more than 1e5 times before it finishes, more than 1e6
# checkpoints of one job, more than 1e6 QoS monitor rounds over the
# trace's span.  Settings just inside the bounds run.
C=topologies/example-cluster.yaml
W=workloads/philly-2017-11-29.csv
run simulate -c $C $W --quiet --mtbf-node 0.02
run simulate -c $C $W --quiet --mtbf-node 2 --mtbf-gpu 5
run simulate -c $C $W --quiet --mtbf-node 100 --checkpoint-interval 1e-9
run simulate -c $C $W --quiet --mtbf-node 100 --checkpoint-interval 1.4 | grep -E "^(failures|makespan)"
run compare -c $C $W --quiet --policies bestfit --checkpoint-interval 1e-9 --preempt priority
T=tests/data/traces/gavel-msr-23dbec.trace
run simulate $T -c tests/data/sim/small-cluster.yaml --policy predicted-share --qos-tick 0.001 --ls-fraction 0.3 --quiet
printf 'cluster: %s\ntrace: %s\nseeds: 1\naxes:\n  mtbf_node: [0.02]\n' "$ROOT/$C" "$ROOT/$W" >$TMP/w.yaml
run whatif $TMP/w.yaml --quiet 2>&1 | sed "s|$ROOT/||g"
