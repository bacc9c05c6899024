# Scenario axes and runs without randomness (tests/data/whatif/robust.yaml).
# Node MTBF is a scenario: a recovery policy is chosen only when it meets
# goodput >= 95 % at 0, 2000 and 500 hours.  restart misses at 2000 h
# (94.9 %, one seed of two under), replace meets everywhere (worst 97.4 %
# at 500 h), so the answer is replace, where without the scenario it was
# "mtbf_node=0, restart" (the case without failures).  Runs without
# failures draw no random number: they run seed 1 only (10 runs, not 12).
run whatif tests/data/whatif/robust.yaml -j 2 --csv $TMP/r.csv
# one row per run: the four runs at MTBF 0 once, the others per seed;
# choice_meets_slo is the verdict of the row's recovery over every MTBF
cut -d, -f7-9,60- $TMP/r.csv
$GPUPLAN whatif tests/data/whatif/robust.yaml -j 1 --json 2>/dev/null |
	jq -c '[.scenario, .best.axes, .best.worst_scenario.axes, .best.worst_scenario.metrics.goodput, .sweep.runs_total, .sweep.configurations_random]'
# Why one seed suffices: without failures two seeds replay identically
# (the JSON differs in its "seed" key only).
C=topologies/example-cluster.yaml
P=workloads/philly-2017-11-29.csv
$GPUPLAN simulate -c $C $P --seed 1 --json - --quiet | jq 'del(.seed)' >$TMP/s1.json
$GPUPLAN simulate -c $C $P --seed 2 --json - --quiet | jq 'del(.seed)' >$TMP/s2.json
cmp $TMP/s1.json $TMP/s2.json && echo "seeds 1 and 2 identical without failures"
# A seeded policy (random) is random: every seed runs.
printf 'cluster: %s/topologies/example-cluster.yaml\ntrace: %s/%s\nlimit: 40\nseeds: 3\npolicy: [bestfit, random]\n' \
	"$ROOT" "$ROOT" "$P" >$TMP/pol.yaml
$GPUPLAN whatif $TMP/pol.yaml -j 1 --json | jq -c '[.sweep.runs_total, .sweep.configurations_random, [.runs[] | [.axes.policy, .seed]]]'
# Mistakes in 'scenario' are located.
B="cluster: $ROOT/topologies/example-cluster.yaml
trace: $ROOT/$P
axes:
  add_nodes: {type: dgx-a100, counts: [0, 4]}
  queue: [fifo, sjf]"
printf '%s\nscenario: [add_nodes]\n' "$B" >$TMP/s1.yaml
run whatif $TMP/s1.yaml
printf '%s\nscenario: [mtbf]\n' "$B" >$TMP/s2.yaml
run whatif $TMP/s2.yaml
printf '%s\nscenario: [queue, policy]\n' "$B" >$TMP/s3.yaml
run whatif $TMP/s3.yaml
printf '%s\nscenario: [queue, queue]\n' "$B" >$TMP/s4.yaml
run whatif $TMP/s4.yaml
