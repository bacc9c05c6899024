#!/bin/sh
# What-if sweep throughput: 1,000 runs of the Philly slice on the example
# cluster (50 added-H100 counts x 4 queues x 5 seeds) with -j 1 and -j 2,
# against 1,000 x one `gpuplan simulate` of the same trace; and the cost of
# the SQLite store (-j 2 with and without --db).  Prints numbers only.
set -eu
cd "$(dirname "$0")/.."
G=${GPUPLAN:-./gpuplan}
[ -x "$G" ] || make -s gpuplan
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/sweep.yaml" <<EOS
cluster: $PWD/topologies/example-cluster.yaml
trace: $PWD/workloads/philly-2017-11-29.csv
queue: [fifo, sjf, backfill, priority]
seeds: 5
axes:
  add_nodes: {type: hgx-h100, switch: ib-leaf-h0, counts: 0..49}
slo: {metric: queue_delay.p90, max: 1h}
EOS
sed 's/^queue:/limit: 1\nqueue:/' "$tmp/sweep.yaml" >"$tmp/tiny.yaml"
now() { date +%s.%N; }
el() { awk "BEGIN { print $2 - $1 }"; }
calc() { awk "BEGIN { print $1 }"; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), CPUs: $(getconf _NPROCESSORS_ONLN)"
t0=$(now)
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$G" simulate workloads/philly-2017-11-29.csv --quiet >/dev/null
done
t1=$(now)
one=$(calc "($t1 - $t0) / 10")
printf 'one simulate run (process, load, replay):  %.4f s\n' "$one"
t0=$(now); "$G" whatif "$tmp/sweep.yaml" -j 1 --quiet >/dev/null || true; t1=$(now)
j1=$(el "$t0" "$t1")
t0=$(now); "$G" whatif "$tmp/sweep.yaml" -j 2 --quiet >/dev/null || true; t1=$(now)
j2=$(el "$t0" "$t1")
t0=$(now); "$G" whatif "$tmp/sweep.yaml" -j 2 --quiet --db "$tmp/s.sqlite" >/dev/null || true; t1=$(now)
j2db=$(el "$t0" "$t1")
t0=$(now); "$G" whatif "$tmp/sweep.yaml" -j 2 --quiet --db "$tmp/s.sqlite" >/dev/null || true; t1=$(now)
rep=$(el "$t0" "$t1")
# The store alone: 1,000 runs of a 1-job trace, with and without --db.
t0=$(now); "$G" whatif "$tmp/tiny.yaml" -j 1 --quiet >/dev/null || true; t1=$(now)
tiny=$(el "$t0" "$t1")
t0=$(now); "$G" whatif "$tmp/tiny.yaml" -j 1 --quiet --db "$tmp/t.sqlite" >/dev/null || true; t1=$(now)
tinydb=$(el "$t0" "$t1")
printf '1,000 runs, -j 1:                          %.2f s (%.4f s per run)\n' "$j1" "$(calc "$j1 / 1000")"
printf '1,000 runs, -j 2:                          %.2f s\n' "$j2"
printf '1,000 runs, -j 2 --db:                     %.2f s (store: %+.1f %%)\n' "$j2db" \
	"$(calc "($j2db - $j2) * 100 / $j2")"
printf 'the same from the database (no runs):      %.2f s\n' "$rep"
printf 'SQLite per stored run (1-job sweep):       %.3f ms (%.2f s without, %.2f s with --db)\n' \
	"$(calc "($tinydb - $tiny)")" "$tiny" "$tinydb"
printf 'ratio -j 2 / (1,000 x one run / 2):        %.2f (1.00 = the target)\n' \
	"$(calc "$j2 / (1000 * $one / 2)")"
printf 'speed-up -j 2 over -j 1:                   %.2f\n' "$(calc "$j1 / $j2")"
# CPU time (user + sys of the whole process tree) tells the cost per run
# apart from waiting for a CPU on a loaded machine.
if [ -x /usr/bin/time ]; then
	for j in 1 2; do
		/usr/bin/time -f "%U %S %e" -o "$tmp/t$j" "$G" whatif "$tmp/sweep.yaml" -j $j --quiet \
			>/dev/null || true
		read -r u sy w <"$tmp/t$j"
		printf 'CPU, -j %d:                                 %.2f s user+sys for 1,000 runs (%.2f ms per run), %.2f s wall\n' \
			"$j" "$(calc "$u + $sy")" "$(calc "($u + $sy)")" "$w"
	done
fi
