#!/bin/sh
# compare with --seeds 1-10: every seed simulated, as before (the test
# switch GPUPLAN_TEST_EVERY_SEED=1), against the default, where a
# configuration whose first run draws nothing from its seeded generators
# gives that run's results to its other seeds.  Wall time and
# runs simulated, over the bundled openb pod list (bestfit under fifo
# and backfill) and the Philly slice (bestfit and random under four queue
# disciplines: random draws, so its seeds all run).  Prints numbers only.
set -eu
cd "$(dirname "$0")/.."
G=${GPUPLAN:-./gpuplan}
[ -x "$G" ] || make -s gpuplan
D=tests/data/openb
now() { date +%s.%N; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), CPUs: $(getconf _NPROCESSORS_ONLN)"
# one line: what, every-seed wall time and runs, default wall time and runs
one() {
	what=$1
	shift
	for every in 1 0; do
		t0=$(now)
		GPUPLAN_TEST_EVERY_SEED=$every "$G" compare "$@" --progress 2>"$tmp" >/dev/null
		t1=$(now)
		line=$(tr '\r' '\n' <"$tmp" | grep 'runs done' | tail -n 1)
		runs=$(echo "$line" | sed -n 's/.* of \([0-9]*\) runs done.*/\1/p')
		sim=$(echo "$line" | sed -n 's/.*(\([0-9]*\) simulated.*/\1/p')
		eval "w$every=\$(awk \"BEGIN { printf \\\"%.2f\\\", $t1 - $t0 }\")"
		eval "s$every=\${sim:-\$runs}"
	done
	printf '%-40s every seed %6s s %4s runs | reuse %6s s %4s runs (%s x)\n' "$what" "$w1" "$s1" \
		"$w0" "$s0" "$(awk "BEGIN { printf \"%.1f\", $w1 / ($w0 > 0 ? $w0 : 0.01) }")"
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
one "openb, bestfit x fifo,backfill, -j 1" -c $D/openb_node_list_gpu_node.csv \
	$D/openb_pod_list_default.csv --policies bestfit --queues fifo,backfill --seeds 1-10 -j 1
one "openb, bestfit x fifo,backfill, -j 2" -c $D/openb_node_list_gpu_node.csv \
	$D/openb_pod_list_default.csv --policies bestfit --queues fifo,backfill --seeds 1-10 -j 2
one "philly, bestfit,random x 4 queues, -j 1" workloads/philly-2017-11-29.csv \
	--policies bestfit,random --queues fifo,sjf,backfill,las --seeds 1-10 -j 1
one "philly, bestfit,random x 4 queues, -j 2" workloads/philly-2017-11-29.csv \
	--policies bestfit,random --queues fifo,sjf,backfill,las --seeds 1-10 -j 2
