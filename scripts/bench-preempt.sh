#!/bin/sh
# Preemption and las benchmarks (numbers only, never pass/fail on time):
#  1. the Philly job table (82,247 jobs) on the Philly-sized cluster
#     (2,816 GPUs) and on the 336-GPU example cluster (where queues form
#     and las preempts), fifo against las (budget: las <= 2x fifo);
#  2. Tiresias' 60-job sample trace on two 4-GPU nodes: mean JCT of fifo,
#     las and las with thresholds 200,800 (1,556.48 s, 715.27 s and
#     848 s when preemption was measured first: schedules must not move);
#  3. N synthetic jobs (default 1,000,000; first argument) on 16,384 GPUs
#     from the Park-Miller generator of scripts/bench/synth.sh (offered load about
#     1.06): fifo, las without preemption and las (budget <= 60 s and
#     <= 2 GiB), with the preemptions counted.
# The machine may be shared: wall and user CPU seconds and the 1-minute
# load average are printed with every number.
set -e
cd "$(dirname "$0")/.."
N=${1:-1000000}
G=./gpuplan
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
PHILLY=tests/data/traces/philly.csv
PC=tests/data/sim/philly-cluster.yaml

MEASURE_WIDTH=48
. scripts/bench/measure.sh
measure_preempt() { # measure, then the engine's preemption count
	measure "$@"
	sed -n 's/^\(preemptions .*\)/    \1/p' "$T/out"
}
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

for c in "$PC" topologies/example-cluster.yaml; do
	for q in fifo las; do
		measure_preempt "philly on $(basename "$c" .yaml), $q" $G simulate -c "$c" $PHILLY --queue $q --quiet
	done
done

TR=tests/data/traces/tiresias-60_job.csv
SC=tests/data/sim/small-cluster.yaml
for q in fifo las "las --las-thresholds 200,800"; do
	# shellcheck disable=SC2086
	printf 'tiresias 60 jobs, %-30s mean JCT %s s\n' "$q" \
		"$($G simulate -c $SC $TR --queue $q --json - | sed -n '/^  "jct": {/,/}/s/.*"mean": \([0-9.]*\).*/\1/p')"
done

. scripts/bench/synth.sh
synth_cluster 2048 "$T/c16k.yaml"
synth_trace "$N" 0.55 "$T/synth.csv"
for q in fifo "las --preempt off" las; do
	# shellcheck disable=SC2086
	measure_preempt "synthetic $N jobs / 16,384 GPUs, $q" $G simulate -c "$T/c16k.yaml" "$T/synth.csv" --queue $q --quiet
done
