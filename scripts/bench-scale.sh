#!/bin/sh
# Growth of the simulator's cost with the cluster and the trace (numbers
# only, never pass/fail on time): CPU seconds, events and placement
# decisions per second and peak RSS of `simulate` on synthetic clusters of
# NODES 8-GPU nodes (64 leaf switches under one spine) replaying JOBS
# synthetic jobs (scripts/bench/synth.sh: 70 % one GPU ... 1 % 32 GPUs,
# exponential run times of mean 1 h, arrivals scaled to the cluster for an
# offered load of about 1.06, so queues build up), for each policy and
# queue discipline.
#
# The default matrix stays within a few minutes on 2 cores; the full one
# is there through the environment:
#   BENCH_NODES="1000 10000 100000"  BENCH_JOBS="10000 100000 1000000"
#   BENCH_POLICIES=all (every policy) or a list   BENCH_QUEUES=all or a list
#   BENCH_BIG=1        the full matrix (the three sizes of each, all queues,
#                      bestfit and first-fit)
#   BENCH_TIMEOUT=S    stop a cell after S seconds of wall time (default 120)
# Events = arrivals + finishes + metrics ticks + preemption events;
# decisions = policy calls (`simulate --engine-stats`).  The machine may be
# shared: the 1-minute load average is printed with every number.
set -e
cd "$(dirname "$0")/.."
G=./gpuplan
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
if [ -n "$BENCH_BIG" ]; then
	: "${BENCH_NODES:=1000 10000 100000}" "${BENCH_JOBS:=10000 100000 1000000}"
	: "${BENCH_QUEUES:=all}" "${BENCH_POLICIES:=bestfit first-fit}"
fi
NODES=${BENCH_NODES:-1000 10000}
JOBS=${BENCH_JOBS:-10000 100000}
POLICIES=${BENCH_POLICIES:-bestfit first-fit}
QUEUES=${BENCH_QUEUES:-fifo backfill}
TIMEOUT=${BENCH_TIMEOUT:-120}
[ "$POLICIES" = all ] && POLICIES=$($G place --policy list | awk '{ print $1 }' | tr '\n' ' ')
[ "$QUEUES" = all ] && QUEUES="fifo sjf backfill priority las"
[ -n "$POLICIES" ] || POLICIES="bestfit first-fit"

. scripts/bench/synth.sh

echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-8s %-15s %-9s %9s %11s %11s %9s %s\n' nodes jobs policy queue "CPU s" "events/s" \
	"decisions/s" "RSS MiB" "(load)"
for n in $NODES; do
	synth_cluster "$n" "$T/c.yaml"
	for j in $JOBS; do
		synth_trace "$j" "$(echo "9576 / (1.06 * $n * 8)" | bc -l)" "$T/t.csv"
		for p in $POLICIES; do
			for q in $QUEUES; do
				load=$(cut -d' ' -f1 /proc/loadavg)
				if ! timeout "$TIMEOUT" /usr/bin/time -f "%U %S %M" -o "$T/time" \
					$G simulate -c "$T/c.yaml" "$T/t.csv" --policy "$p" --queue "$q" --quiet \
					--engine-stats >/dev/null 2>"$T/err"; then
					printf '%-8s %-8s %-15s %-9s  stopped after %s s (or failed: %s)  (load %s)\n' \
						"$n" "$j" "$p" "$q" "$TIMEOUT" "$(grep -v '^engine:' "$T/err" | head -1)" "$load"
					continue
				fi
				set -- $(cat "$T/time")
				cpu=$(echo "$1 + $2" | bc -l)
				rss=$(echo "$3 / 1024" | bc -l)
				set -- $(sed -n 's/^engine: \([0-9]*\) events, [0-9]* batches, \([0-9]*\) policy calls.*/\1 \2/p' "$T/err")
				awk -v n="$n" -v j="$j" -v p="$p" -v q="$q" -v cpu="$cpu" -v ev="$1" -v pc="$2" \
					-v rss="$rss" -v load="$load" 'BEGIN {
					c = cpu > 0.005 ? cpu : 0.005
					printf "%-8s %-8s %-15s %-9s %9.2f %11.0f %11.0f %9.1f (load %s)\n",
						n, j, p, q, cpu, ev / c, pc / c, rss, load }'
			done
		done
	done
done
