#!/bin/sh
# Tenants benchmark (numbers only, never pass/fail on time): N synthetic
# jobs (default 1,000,000; first argument) on 16,384 GPUs from the
# Park-Miller generator of scripts/bench/synth.sh (offered load about
# 1.06), spread over 50 tenants (by job number) in 10 cohorts of 5, each
# with a quota of 16,384 / 50 GPUs (327, the last 16,384 - 49 x 327),
# borrowing within its cohort, half of them with a lending limit of 100
# GPUs.  fifo-skip with and without the tenants file, and the tenants file
# with reclaim off, with queue fairshare, dominant-share and backfill (budget: under 60 s and 2 GiB,
# at most 1.5x the run without tenants).  Reclaim is on whenever tenants
# have a cohort.
set -e
cd "$(dirname "$0")/.."
N=${1:-1000000}
G=./gpuplan
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

MEASURE_WIDTH=52
. scripts/bench/measure.sh
. scripts/bench/synth.sh
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

synth_cluster 2048 "$T/c16k.yaml"
synth_trace "$N" 0.55 "$T/synth.csv"
awk -F, 'NR == 1 { print $0 ",tenant"; next } { print $0 ",t" (NR - 2) % 50 }' "$T/synth.csv" >"$T/tenants.csv"
awk 'BEGIN {
	print "tenants:"
	for (i = 0; i < 50; i++)
		printf "  - {name: t%d, quota: {gpus: %d}, cohort: c%d%s}\n", i,
		       i < 49 ? 327 : 16384 - 49 * 327, i % 10, i % 2 ? ", lending_limit: 100" : ""
}' >"$T/tenants.yaml"
measure "synthetic $N jobs / 16,384 GPUs, fifo-skip" \
	$G simulate -c "$T/c16k.yaml" "$T/tenants.csv" --queue fifo-skip --quiet
sed -n 's/^\(JCT  .*\)/    \1/p' "$T/out"
measure "the same, 50 tenants in 10 cohorts" \
	$G simulate -c "$T/c16k.yaml" "$T/tenants.csv" --queue fifo-skip --tenants "$T/tenants.yaml" --quiet
sed -n 's/^\(JCT  .*\)/    \1/p' "$T/out"
measure "the same, reclaim off" \
	$G simulate -c "$T/c16k.yaml" "$T/tenants.csv" --queue fifo-skip --tenants "$T/tenants.yaml" --reclaim off --quiet
measure "the same, reclaim on, fairshare" \
	$G simulate -c "$T/c16k.yaml" "$T/tenants.csv" --queue fairshare --tenants "$T/tenants.yaml" --quiet
sed -n 's/^\(JCT  .*\)/    \1/p' "$T/out"
measure "the same, reclaim on, dominant-share" \
	$G simulate -c "$T/c16k.yaml" "$T/tenants.csv" --queue dominant-share --tenants "$T/tenants.yaml" --quiet
sed -n 's/^\(JCT  .*\)/    \1/p' "$T/out"
measure "the same, reclaim on, backfill" \
	$G simulate -c "$T/c16k.yaml" "$T/tenants.csv" --queue backfill --tenants "$T/tenants.yaml" --quiet
measure "without tenants, backfill" \
	$G simulate -c "$T/c16k.yaml" "$T/tenants.csv" --queue backfill --quiet
measure "without tenants, fairshare" \
	$G simulate -c "$T/c16k.yaml" "$T/tenants.csv" --queue fairshare --quiet
