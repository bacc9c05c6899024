#!/bin/sh
# Worst inputs inside the documented caps: time and peak RSS
# (ratio to the input size) of each loader.  Numbers only, never a verdict.
set -e
cd "$(dirname "$0")/.."
[ -x ./gpuplan ] || make -s gpuplan
G=$(pwd)/gpuplan
# BENCH_DIR=DIR keeps the generated inputs there (for profiling).
if [ -n "$BENCH_DIR" ]; then
	d=$BENCH_DIR
	mkdir -p "$d"
else
	d=$(mktemp -d)
	trap 'rm -rf "$d"' EXIT
fi
cp topologies/a100-sxm4-40gb-8gpu-3nic-4socket-fastdeploy.txt "$d/a100.txt"
T='topology: a100.txt, gpu_model: A100-SXM4-40GB'
# job YAML with 100,000 distinct keys (duplicate-key check)
awk 'BEGIN { print "name: j\ntype: single-card\ngpus: 1"; for (i = 0; i < 100000; i++) printf "k%06d: 1\n", i }' >"$d/job-100k-keys.yaml"
# cluster with 200,000 label keys on one node
awk -v t="$T" 'BEGIN { print "node_types:\n  t: {" t "}\nnodes:\n  - name: n\n    type: t\n    labels:"; for (i = 0; i < 200000; i++) printf "      l%06d: v\n", i }' >"$d/cluster-200k-labels.yaml"
# 99,999 leaf switches under one root, one node on each (switch lookup)
awk -v t="$T" 'BEGIN { print "node_types:\n  t: {" t "}\nfabric:\n  - {name: core, tech: ib-ndr}"; for (i = 0; i < 99999; i++) printf "  - {name: l%d, parent: core}\n", i; print "nodes:"; for (i = 0; i < 99999; i++) printf "  - {name: n%d, type: t, switch: l%d}\n", i, i }' >"$d/cluster-100k-leaves.yaml"
# a 100,000-deep chain of switches (depth ordering)
awk -v t="$T" 'BEGIN { print "node_types:\n  t: {" t "}\nfabric:\n  - {name: s0, tech: ib-ndr}"; for (i = 1; i < 100000; i++) printf "  - {name: s%d, parent: s%d}\n", i, i-1; print "nodes:\n  - {name: n0, type: t, switch: s99999}\n  - {name: n1, type: t, switch: s0}" }' >"$d/cluster-100k-chain.yaml"
# a realistic big cluster: 40,000 nodes in block style with labels under
# 1,000 leaves, 50 aggregation switches and a spine (1,051 switches)
awk -v t="$T" 'BEGIN { print "name: big\nnode_types:\n  t: {" t "}\nfabric:\n  - name: spine\n    tech: ib-ndr";
	for (a = 0; a < 50; a++) printf "  - {name: agg-%d, parent: spine}\n", a;
	for (l = 0; l < 1000; l++) printf "  - {name: leaf-%d, parent: agg-%d}\n", l, l % 50;
	print "nodes:";
	for (i = 0; i < 40000; i++) printf "  - name: gpu-%05d\n    type: t\n    switch: leaf-%d\n    labels: {rack: r%d, zone: z%d}\n", i, int(i / 40), int(i / 40), int(i / 4000) }' >"$d/cluster-40k-nodes.yaml"
# openb: 1,000,000 pods deflated onto one node (random drops)
printf 'sn,cpu_milli,memory_mib,gpu,model\nn0,96000,786432,8,V100M32\n' >"$d/openb-1node.csv"
awk 'BEGIN { print "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"; for (i = 0; i < 1000000; i++) printf "p%d,1000,1024,1,1000,,LS,Running,%d,%d,%d\n", i, i, i+10, i }' >"$d/openb-1m-pods.csv"
# allocation state: 336,000 shares of 1 milli-GPU on the example cluster
awk 'BEGIN { print "allocations:";
	for (j = 0; j < 336000; j++) { g = int(j / 1000); n = int(g / 8); k = g % 8;
		if (n < 32) name = sprintf("a100-r%d-%d", int(n / 8), n % 8);
		else if (n < 40) name = sprintf("h100-r%d-%d", 4 + int((n - 32) / 4), (n - 32) % 4);
		else { q = int((g - 320) / 2); k = (g - 320) % 2; name = sprintf("pcie-r%d-%d", 6 + int(q / 4), q % 4) }
		printf "  - {job: \"j%d\", node: \"%s\", gpus: [%d], share: 1}\n", j, name, k } }' >"$d/state-336k.yaml"
# a gpuplan CSV trace of 500,000 one-line jobs; the largest real snapshot
awk 'BEGIN { print "id,submit,gpus,duration"; for (i = 0; i < 500000; i++) printf "j%d,%d,1,60\n", i, i }' >"$d/trace-500k.csv"
# a Philly job table of 400,000 rows (dates, unordered: sorted on load)
awk 'BEGIN { print "timestamp,duration,num_gpus,gpu_time,cluster"; srand(7);
	for (i = 0; i < 400000; i++) { t = int(rand() * 86400 * 28); g = 2 ^ int(rand() * 4); d = 60 + int(rand() * 9000);
		printf "2017-10-%02d %02d:%02d:%02d,%d.0,%d,%d.0,%06x\n", 1 + int(t / 86400), int(t % 86400 / 3600), int(t % 3600 / 60), t % 60, d, g, d * g, int(rand() * 14) * 1234567 } }' >"$d/philly-400k.csv"
# a job list of 45,000 jobs (the 4 MB cap of a job file)
awk 'BEGIN { print "jobs:"; for (i = 0; i < 45000; i++) printf "  - {name: nb-%d, type: single-card, gpus: 1, gpu_share: 500, gpu_memory_gib: 6}\n", i }' >"$d/jobs-45k.yaml"
printf 'name: probe\ntype: single-card\ngpus: 1\ngpu_share: 1\ngpu_memory_gib: 0.001\n' >"$d/probe.yaml"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# peak RSS of the process on a tiny input: what every run costs anyway
/usr/bin/time -f '%M' -o "$d/time" "$G" validate tests/data/jobs/good-minimal.yaml >/dev/null
base=$(tail -1 "$d/time")
echo "baseline peak RSS: $base KiB (ratio: peak / input; net: (peak - baseline) / input)"
printf '%-44s %9s %8s %10s %6s %6s %s\n' input bytes seconds peak_kib ratio net exit
run() {
	name=$1 input=$2
	shift 2
	size=$(wc -c <"$input")
	/usr/bin/time -f '%e %M' -o "$d/time" "$@" >/dev/null 2>"$d/err" && rc=0 || rc=$?
	set -- $(tail -1 "$d/time")
	awk -v n="$name" -v b="$size" -v s="$1" -v k="$2" -v rc="$rc" -v base="$base" \
		'BEGIN { printf "%-44s %9d %8.2f %10d %6.1f %6.1f %s\n", n, b, s, k, k * 1024 / b, (k - base) * 1024 / b, rc }'
}
run "job YAML, 100k keys (validate)" "$d/job-100k-keys.yaml" "$G" validate "$d/job-100k-keys.yaml"
run "cluster, 200k labels (validate)" "$d/cluster-200k-labels.yaml" "$G" validate "$d/cluster-200k-labels.yaml"
run "cluster, 99,999 leaf switches (validate)" "$d/cluster-100k-leaves.yaml" "$G" validate "$d/cluster-100k-leaves.yaml"
run "cluster, 100k-deep switch chain (validate)" "$d/cluster-100k-chain.yaml" "$G" validate "$d/cluster-100k-chain.yaml"
run "cluster, 40k nodes, 1,051 switches (validate)" "$d/cluster-40k-nodes.yaml" "$G" validate "$d/cluster-40k-nodes.yaml"
run "openb, 1M pods deflated (simulate)" "$d/openb-1m-pods.csv" "$G" simulate -q -c "$d/openb-1node.csv" "$d/openb-1m-pods.csv" --inflate 0.5
run "state, 336k entries (place)" "$d/state-336k.yaml" "$G" place --state "$d/state-336k.yaml" "$d/probe.yaml"
run "trace, 500k gpuplan CSV rows (simulate)" "$d/trace-500k.csv" "$G" simulate -c tests/data/sim/small-cluster.yaml --limit 1 "$d/trace-500k.csv"
run "trace, 400k Philly rows (simulate)" "$d/philly-400k.csv" "$G" simulate -c tests/data/sim/small-cluster.yaml --limit 1 "$d/philly-400k.csv"
run "job list, 45k jobs (validate)" "$d/jobs-45k.yaml" "$G" validate "$d/jobs-45k.yaml"
run "snapshot, H100 12 NICs (validate)" topologies/h100-dell-8gpu-12nic-nv18-cpuset-mooncake-2039.txt "$G" validate topologies/h100-dell-8gpu-12nic-nv18-cpuset-mooncake-2039.txt
