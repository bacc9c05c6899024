#!/bin/sh
# Generate a synthetic notebook fleet as a NotebookOS workload template
# (the dialect of workloads/adobe-sensei-june-1-2-2021.json) and a cluster
# big enough to hold every reservation at once, for scripts/bench-envs.sh.
#
#   gen-envs-fleet.sh ENVS TASKS_PER_ENV SEED OUT.json CLUSTER.yaml
#
# Shapes follow the Adobe trace (workloads/README.md): notebooks reserve
# 1 GPU (55 %), 4 (20 %) or 8 (25 %); lifetimes 6-48 h, started uniformly
# over 30 days; a third of the cells use no GPU, the others use 1 GPU or
# all reserved ones, 1.75 GB of VRAM per GPU on average, utilization
# 1-60 %; cells run back to back with gaps (one at a time per notebook).
# awk's generator is seeded, so the same arguments give the same file.
set -eu
ENVS=${1:?ENVS} PER=${2:?TASKS_PER_ENV} SEED=${3:?SEED} OUT=${4:?OUT.json} CL=${5:?CLUSTER.yaml}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
awk -v envs="$ENVS" -v per="$PER" -v seed="$SEED" 'BEGIN {
	srand(seed)
	H = 43200                       # 30 days of 1-minute ticks
	printf "{\"workload_title\":\"synthetic fleet %d x %d\",\"sessions\":[", envs, per
	for (e = 0; e < envs; e++) {
		r = rand(); q = r < 0.55 ? 1 : (r < 0.75 ? 4 : 8)
		L = 360 + int(rand() * 2520)
		s = int(rand() * (H - L)); stop = s + L
		slot = L / per
		printf "%s{\"id\":\"nb-%d\",\"start_tick\":%d,\"stop_tick\":%d,", e ? "," : "", e, s, stop
		printf "\"num_training_events\":%d,\"max_resource_request\":{\"gpus\":%d,\"vram\":%.2f},\"trainings\":[", per, q, q * 5.0
		for (k = 0; k < per; k++) {
			lo = s + int(k * slot); d = 1 + int(rand() * slot * 0.5)
			if (d < 1) d = 1
			st = lo + int(rand() * (slot - d)); if (st < lo) st = lo
			g = rand() < 0.34 ? 0 : (rand() < 0.6 ? 1 : q)
			u = 1 + rand() * 59
			printf "%s{\"start_tick\":%d,\"duration_in_ticks\":%d,\"end_tick\":%d,\"gpus\":%d,\"vram\":%.2f,\"gpu_utilizations\":[", k ? "," : "", st, d, st + d, g, g * (0.1 + rand() * 3.3)
			for (i = 0; i < g; i++)
				printf "%s{\"utilization\":%.1f}", i ? "," : "", u
			printf "]}"
		}
		printf "]}"
	}
	printf "]}\n"
}' >"$OUT"
# 2,500 x 8 A100 (20,000 GPUs): the fleet reserves about 12,000-13,000 at
# its peak.
cat >"$CL" <<YAML
node_types:
  dgx-a100:
    topology: $ROOT/topologies/a100-sxm4-40gb-8gpu-3nic-4socket-fastdeploy.txt
    gpu_model: A100-SXM4-40GB
    cpus: 160
    memory_gib: 1024
nodes:
  - {name: a, type: dgx-a100, count: 2500}
YAML
