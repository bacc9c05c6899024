#!/bin/sh
# Placement decision time: clusters built from the bundled DGX-A100
# snapshot (leaves of nodes under one IB spine), 50 % of their GPUs
# taken at random (seeded awk), and a mix of jobs (1, 2, 4, 8 GPUs on one
# node, a shared quarter GPU, 16- and 32-GPU rings, an 8-GPU PS-Worker).
# `place --bench N` times N decisions per policy in the table against that
# state (nothing applied), with the shared place cache a simulator keeps.
# Columns: wall-clock median and p99, and the same for the thread's CPU
# time: on a busy shared machine the wall p99 is mostly preemption (one
# ~4 ms scheduler slice per hit), the CPU p99 is what the decision costs.
# Sizes: 32 leaves x 32 nodes (8,192 GPUs) for every policy, then 2,000
# leaves x 50 nodes (800,000 GPUs) for bestfit (BENCH_PLACE_BIG=0 skips it, =all times every
# policy there).  Then bw-max on 256 nodes of a made-up 32-GPU type, which
# has no per-subset ring table (BENCH_PLACE_WIDE=0 skips it,
# BENCH_PLACE_WIDE_POLICY=gpu-pair-score times that policy), with 1- to
# 8-GPU jobs (an 8-GPU set weighs 12,870 sets of a node with 16 free
# GPUs, searched by branch and bound).  Budgets:
# bestfit <= 10 us median on 8,192 GPUs, <= 20 us on 800,000.  Numbers
# only, never pass/fail.
set -e
cd "$(dirname "$0")/.."
[ -x ./gpuplan ] || make -s gpuplan
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp topologies/a100-sxm4-40gb-8gpu-3nic-4socket-fastdeploy.txt "$tmp/a100.txt"
cat >"$tmp/jobs.yaml" <<'JOBS'
jobs:
  - {name: one, type: single-card, gpus: 1, gpu_memory_gib: 10}
  - {name: two, type: single-node, gpus: 2, gpu_memory_gib: 10}
  - {name: four, type: single-node, gpus: 4, gpu_memory_gib: 10}
  - {name: eight, type: single-node, gpus: 8, gpu_memory_gib: 10}
  - {name: quarter, type: single-card, gpus: 1, gpu_share: 250, gpu_memory_gib: 4}
  - {name: ring16, type: ring-allreduce, gpus: 16, gpu_memory_gib: 20}
  - {name: ring32, type: ring-allreduce, gpus: 32, gpu_memory_gib: 20}
  - {name: ps8, type: ps-worker, ps: 2, workers: 6, gpu_memory_gib: 10}
JOBS
n=${BENCH_PLACE_N:-2000}

# cluster TYPE LEAVES PER >FILE: LEAVES leaves x PER nodes of node type t
# (TYPE: its YAML flow mapping) under one IB spine; nodes nL-K.
cluster() {
	awk -v type="$1" -v leaves="$2" -v per="$3" 'BEGIN {
		print "node_types:\n  t: " type
		print "fabric:\n  - {name: spine, tech: ib-hdr}"
		for (l = 0; l < leaves; l++)
			printf "  - {name: leaf%d, parent: spine}\n", l
		print "nodes:"
		for (l = 0; l < leaves; l++)
			printf "  - {name: n%d, type: t, switch: leaf%d, count: %d}\n", l, l, per
	}'
}

# occupancy LEAVES PER GPUS >FILE: each GPU of each node taken with
# probability 1/2 (seeded).  Node names of a count: group are NAME-0 ..
# NAME-49 (here nL-K).
occupancy() {
	awk -v leaves="$1" -v per="$2" -v ngpus="$3" 'BEGIN {
		srand(42)
		print "allocations:"
		for (l = 0; l < leaves; l++)
			for (k = 0; k < per; k++) {
				list = ""
				for (g = 0; g < ngpus; g++)
					if (rand() < 0.5)
						list = list (list == "" ? "" : ", ") g
				if (list != "")
					printf "  - {job: o%d-%d, node: n%d-%d, gpus: [%s]}\n", l, k, l, k, list
			}
	}'
}

# bench LEAVES PER [POLICY]: LEAVES x PER nodes x 8 GPUs at 50 % occupancy.
bench() {
	cluster "{topology: a100.txt, gpu_model: A100-SXM4-40GB, cpus: 160}" "$1" "$2" >"$tmp/big.yaml"
	occupancy "$1" "$2" 8 >"$tmp/occ.yaml"
	gpus=$(($1 * $2 * 8))
	free=$(awk -v all="$gpus" -F'gpus: \\[' 'NF > 1 { n += split($2, a, ",") } END { print all - n }' "$tmp/occ.yaml")
	echo "place: $(($1 * $2)) nodes x 8 GPUs = $gpus GPUs, 50 % random occupancy ($free GPUs free), $n decisions per policy over 8 job shapes (microseconds; load $(cut -d' ' -f1 /proc/loadavg))"
	./gpuplan place -c "$tmp/big.yaml" --state "$tmp/occ.yaml" --batch "$tmp/jobs.yaml" --bench "$n" ${3:+--policy "$3"}
}

# wide: node types over 16 GPUs have no per-subset ring table (bw-max
# asks the perf model for each GPU set it weighs, through a bounded cache):
# 16 leaves x 16 nodes of a made-up 32-GPU type (two 16-GPU NVSwitch
# halves, NV6 inside, SYS across, 4 NICs), 50 % random occupancy, bw-max
# with 1-, 2-, 4- and 8-GPU jobs.
wide() {
	awk 'BEGIN {
		n = 32; nn = 4
		printf "     "
		for (g = 0; g < n; g++) printf "\tGPU%d", g
		for (k = 0; k < nn; k++) printf "\tmlx5_%d", k
		printf "\tCPU Affinity\n"
		for (i = 0; i < n + nn; i++) {
			printf "%s", i < n ? "GPU" i : "mlx5_" (i - n)
			for (j = 0; j < n + nn; j++) {
				hi = i < n ? int(i / 16) : int((i - n) / 2)
				hj = j < n ? int(j / 16) : int((j - n) / 2)
				bi = i < n ? int(i / 8) : i - n
				bj = j < n ? int(j / 8) : j - n
				v = i == j ? "X" : hi != hj ? "SYS" : i < n && j < n ? "NV6" : bi == bj ? "PIX" : "NODE"
				printf "\t%s", v
			}
			if (i < n) printf "\t%s", hi ? "24-47" : "0-23"
			printf "\n"
		}
	}' >"$tmp/wide32.txt"
	cluster "{topology: wide32.txt, gpu_model: V100-SXM2-16GB, cpus: 48}" 16 16 >"$tmp/wide.yaml"
	occupancy 16 16 32 >"$tmp/wocc.yaml"
	cat >"$tmp/wjobs.yaml" <<'WJOBS'
jobs:
  - {name: one, type: single-card, gpus: 1, gpu_memory_gib: 8}
  - {name: two, type: single-node, gpus: 2, gpu_memory_gib: 8}
  - {name: four, type: single-node, gpus: 4, gpu_memory_gib: 8}
  - {name: eight, type: single-node, gpus: 8, gpu_memory_gib: 8}
WJOBS
	echo "place: 256 nodes x 32 GPUs = 8192 GPUs, 50 % random occupancy, ${BENCH_PLACE_WIDE_N:-48} decisions over 1-, 2-, 4- and 8-GPU jobs (microseconds; load $(cut -d' ' -f1 /proc/loadavg))"
	./gpuplan place -c "$tmp/wide.yaml" --state "$tmp/wocc.yaml" --batch "$tmp/wjobs.yaml" \
		--bench "${BENCH_PLACE_WIDE_N:-48}" --policy "${BENCH_PLACE_WIDE_POLICY:-bw-max}"
}

bench 32 32
case ${BENCH_PLACE_BIG:-bestfit} in
0) ;;
all) bench 2000 50 ;;
*) bench 2000 50 "${BENCH_PLACE_BIG:-bestfit}" ;;
esac
[ "${BENCH_PLACE_WIDE:-1}" = 0 ] || wide
