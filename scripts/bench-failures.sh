#!/bin/sh
# Failure benchmarks (numbers only, never pass/fail on time):
#  1. the Philly job table (82,247 jobs) on the Philly-sized cluster (2,816
#     GPUs): no failures, then node failures at the Llama 3 rate (Meta:
#     419 unexpected interruptions in 54 days on 2,048 8-GPU nodes, so a
#     node MTBF of 2,048 x 54 x 24 / 419 = 6,334 hours) with restart and
#     with replace; budget: with failures <= 1.5x the plain replay;
#  2. 1,000,000 synthetic jobs on 16,384 GPUs (scripts/bench/synth.sh, as in
#     bench-sim.sh) with failures at the Llama 3 rate and at 100x it (budget
#     <= 60 s and <= 2 GiB).
# The machine may be shared: the 1-minute load average is printed with
# every number.
set -e
cd "$(dirname "$0")/.."
G=./gpuplan
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PHILLY=tests/data/traces/philly.csv
PC=tests/data/sim/philly-cluster.yaml
LLAMA=6334

MEASURE_WIDTH=52
. scripts/bench/measure.sh
summary() {
	sed -n 's/^\(failures .*\)/    \1/p; s/^\(  lost .*\)/    \1/p; s/^\(  recovery .*\)/    \1/p' "$T/out"
}
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

measure "philly, no failures" $G simulate -c $PC $PHILLY --queue backfill --seed 7 --quiet
measure "philly, Llama 3 rate (node MTBF $LLAMA h), restart" \
	$G simulate -c $PC $PHILLY --queue backfill --seed 7 --quiet --mtbf-node $LLAMA \
	--recovery restart --checkpoint-interval 3600 --checkpoint-cost 60 --restart-cost 600
summary
measure "philly, Llama 3 rate, replace" \
	$G simulate -c $PC $PHILLY --queue backfill --seed 7 --quiet --mtbf-node $LLAMA \
	--recovery replace --checkpoint-interval 3600 --checkpoint-cost 60 --restart-cost 600
summary
measure "philly, 100x the Llama 3 rate, replace" \
	$G simulate -c $PC $PHILLY --queue backfill --seed 7 --quiet --mtbf-node 63.34 \
	--recovery replace --checkpoint-interval 3600 --checkpoint-cost 60 --restart-cost 600
summary

# the generators bench-sim.sh uses: 2,048 x 8 GPUs, 1M jobs, load ~1.06
. scripts/bench/synth.sh
synth_cluster 2048 "$T/c16k.yaml"
synth_trace 1000000 0.55 "$T/synth.csv"
measure "synthetic 1M jobs / 16,384 GPUs, backfill, no failures" \
	$G simulate -c "$T/c16k.yaml" "$T/synth.csv" --queue backfill --quiet
for rate in $LLAMA 63.34; do
	measure "synthetic 1M jobs, node MTBF $rate h, restart" \
		$G simulate -c "$T/c16k.yaml" "$T/synth.csv" --queue backfill --quiet --mtbf-node $rate \
		--checkpoint-interval 1800 --restart-cost 300
	summary
done
