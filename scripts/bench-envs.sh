#!/bin/sh
# Development-environment benchmarks (numbers only, never
# pass/fail on time):
#  1. the 48-hour Adobe notebook template in all three modes (budget 1 s);
#  2. a synthetic fleet of 100,000 notebooks and 10,000,000 cells
#     (scripts/bench/gen-envs-fleet.sh, about 1.3 GB of JSON) on 20,000
#     GPUs, bind-at-start (static runs too: it is the reference of
#     gpus_saved), then all three modes (budget 60 s and 2 GiB).
# Wall and user CPU time, peak RSS and the 1-minute load average of a
# shared machine are printed with every number.  ENVS_BENCH_ENVS and
# ENVS_BENCH_PER change the fleet's size.
set -e
cd "$(dirname "$0")/.."
G=./gpuplan
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
NE=${ENVS_BENCH_ENVS:-100000}
PER=${ENVS_BENCH_PER:-100}

MEASURE_WIDTH=58
. scripts/bench/measure.sh
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
A=workloads/adobe-sensei-june-1-2-2021.json
measure "Adobe template (790 cells), static,bind-at-start,idle:30" \
	$G simulate --envs static,bind-at-start,idle-timeout:30 --json "$T/a.json" $A
measure "  same, 10 runs in a row" sh -c "for i in 1 2 3 4 5 6 7 8 9 10; do $G simulate --envs static,bind-at-start,idle-timeout:30 $A; done"

measure "generate $NE notebooks x $PER cells (awk)" \
	sh scripts/bench/gen-envs-fleet.sh "$NE" "$PER" 1 "$T/fleet.json" "$T/fleet.yaml"
printf '%-58s %s bytes\n' "  template size" "$(wc -c <"$T/fleet.json")"
measure "fleet, bind-at-start (+ static reference)" \
	$G simulate -c "$T/fleet.yaml" --envs bind-at-start --json "$T/b.json" "$T/fleet.json"
jq -r '.environments | "  \(.tasks) tasks, \(.gpu_tasks) on GPUs; peak \(.peak_gpus) GPUs bound, static \(.static_peak_gpus); wait p99 \(.task_wait_s.p99) s"' "$T/b.json"
measure "fleet, static,bind-at-start,idle-timeout:30" \
	$G simulate -c "$T/fleet.yaml" --envs static,bind-at-start,idle-timeout:30 --json "$T/all.json" "$T/fleet.json"
jq -r '.environments_by_mode[] | "  \(.mode): peak \(.peak_gpus), bound \(.bound_gpu_minutes) GPU-min, rebinds \(.rebinds)"' "$T/all.json"
