#!/bin/sh
# Failure benchmarks (numbers only, never pass/fail on time):
#  1. the Philly job table (82,247 jobs) on the Philly-sized cluster (2,816
#     GPUs): no failures, then node failures at the Llama 3 rate (Meta:
#     419 unexpected interruptions in 54 days on 2,048 8-GPU nodes, so a
#     node MTBF of 2,048 x 54 x 24 / 419 = 6,334 hours) with restart and
#     with replace; budget: with failures <= 1.5x the plain replay;
#  2. 1,000,000 synthetic jobs on 16,384 GPUs (bench-sim.sh's generator)
#     with failures at the Llama 3 rate and at 100x it (budget <= 60 s and
#     <= 2 GiB).
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

measure() { # label, command...
	label=$1
	shift
	/usr/bin/time -f "%e %M" -o "$T/time" "$@" >"$T/out"
	set -- $(cat "$T/time")
	printf '%-52s %7s s  %8.1f MiB peak RSS  (load %s)\n' "$label" "$1" "$(echo "$2 / 1024" | bc -l)" \
		"$(cut -d' ' -f1 /proc/loadavg)"
}
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

awk 'BEGIN {
	print "# 16,384 GPUs for bench-failures.sh"
	print "name: bench-16k"
	print "node_types:"
	print "  box:"
	print "    topology: '"$PWD"'/topologies/dgx1-v100-8gpu-4nic-pytorch-ddp-readme.txt"
	print "    gpu_model: V100-SXM2-16GB"
	print "    cpus: 80"
	print "    memory_gib: 512"
	print "fabric:"
	print "  - {name: spine, tech: ib-hdr}"
	for (i = 0; i < 64; i++) print "  - {name: leaf" i ", parent: spine}"
	print "nodes:"
	for (i = 0; i < 64; i++) print "  - {name: r" i "-, type: box, switch: leaf" i ", count: 32}"
}' >"$T/c16k.yaml"
awk 'BEGIN {
	x = 20260421; m = 2147483647
	print "id,submit,gpus,duration"
	t = 0
	for (i = 1; i <= 1000000; i++) {
		x = (16807 * x) % m; u = x / m
		t += -log(1 - u) * 0.55
		x = (16807 * x) % m; u = x / m
		g = u < 0.70 ? 1 : u < 0.80 ? 2 : u < 0.88 ? 4 : u < 0.96 ? 8 : u < 0.99 ? 16 : 32
		x = (16807 * x) % m; u = x / m
		d = int(-log(1 - u) * 3600) + 1
		printf "s%d,%.3f,%d,%d\n", i, t, g, d
	}
}' >"$T/synth.csv"
measure "synthetic 1M jobs / 16,384 GPUs, backfill, no failures" \
	$G simulate -c "$T/c16k.yaml" "$T/synth.csv" --queue backfill --quiet
for rate in $LLAMA 63.34; do
	measure "synthetic 1M jobs, node MTBF $rate h, restart" \
		$G simulate -c "$T/c16k.yaml" "$T/synth.csv" --queue backfill --quiet --mtbf-node $rate \
		--checkpoint-interval 1800 --restart-cost 300
	summary
done
