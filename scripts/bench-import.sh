#!/bin/sh
# gpuplan import at scale: scontrol -o output of 20,000 and 40,000 8-GPU
# nodes (synthetic, every GPU index pattern), plus the job list of one job
# per node, and kubectl nodes/pods of 10,000 nodes.  Time and peak RSS
# (ratio to the input size).  Numbers only, never a verdict.
set -e
cd "$(dirname "$0")/.."
[ -x ./gpuplan ] || make -s gpuplan
G=$(pwd)/gpuplan
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
nodes() {
	awk -v n="$1" 'BEGIN { srand(1); for (i = 0; i < n; i++) { u = int(rand() * 9); idx = "";
		for (g = 0; g < u; g++) idx = idx (g ? "," : "") g; if (!u) idx = "N/A";
		printf "NodeName=gpu-%05d Arch=x86_64 CoresPerSocket=32 CPUAlloc=%d CPUTot=128 CPULoad=1.00 AvailableFeatures=(null) ActiveFeatures=(null) Gres=gpu:h100:8(S:0-1) GresUsed=gpu:h100:%d(IDX:%s) NodeAddr=gpu-%05d Version=23.11.6 OS=Linux 5.14.0 #1 SMP RealMemory=2000000 AllocMem=%d Sockets=2 Boards=1 State=%s ThreadsPerCore=2 Partitions=gpu CfgTRES=cpu=128,mem=2000000M,gres/gpu=8 AllocTRES=cpu=%d,gres/gpu=%d\n", i, u * 8, u, idx, i, u * 100000, u ? "MIXED" : "IDLE", u * 8, u } }'
}
jobs() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "JobId=%d JobName=j%d\n   JobState=RUNNING Reason=None\n   NodeList=gpu-%05d\n     Nodes=gpu-%05d CPU_IDs=0-7 Mem=1024 GRES=gpu:h100:1(IDX:0)\n", i + 1, i, i, i }'
}
k8s() {
	awk -v n="$1" 'BEGIN { print "{\"kind\": \"List\", \"items\": ["; for (i = 0; i < n; i++)
		printf "%s{\"kind\": \"Node\", \"metadata\": {\"name\": \"k%05d\", \"labels\": {\"nvidia.com/gpu.product\": \"NVIDIA-H100-80GB-HBM3\", \"nvidia.com/gpu.count\": \"8\"}}, \"status\": {\"capacity\": {\"cpu\": \"128\", \"memory\": \"2Ti\", \"nvidia.com/gpu\": \"8\"}}}\n", i ? "," : "", i; print "]}" }' >"$d/k8s-nodes.json"
	awk -v n="$1" 'BEGIN { print "{\"kind\": \"List\", \"items\": ["; for (i = 0; i < n; i++)
		printf "%s{\"kind\": \"Pod\", \"metadata\": {\"name\": \"p%05d\", \"namespace\": \"ml\"}, \"spec\": {\"nodeName\": \"k%05d\", \"containers\": [{\"name\": \"c\", \"resources\": {\"limits\": {\"nvidia.com/gpu\": \"4\"}}}]}, \"status\": {\"phase\": \"Running\"}}\n", i ? "," : "", i, i; print "]}" }' >"$d/k8s-pods.json"
}
nodes 20000 >"$d/n20k.txt"
nodes 40000 >"$d/n40k.txt"
jobs 20000 >"$d/j20k.txt"
cat "$d/n20k.txt" "$d/j20k.txt" >"$d/nj20k.txt"
k8s 10000
cat "$d/k8s-nodes.json" "$d/k8s-pods.json" >"$d/k8s-all.size"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-44s %9s %8s %10s %8s %s\n' input bytes seconds peak_kib ratio exit
run() {
	name=$1 input=$2
	shift 2
	size=$(wc -c <"$input")
	/usr/bin/time -f '%e %M' -o "$d/time" "$@" >/dev/null 2>"$d/err" && rc=0 || rc=$?
	set -- $(tail -1 "$d/time")
	awk -v n="$name" -v b="$size" -v s="$1" -v k="$2" -v rc="$rc" \
		'BEGIN { printf "%-44s %9d %8.2f %10d %8.1f %s\n", n, b, s, k, k * 1024 / b, rc }'
}
run "scontrol -o, 20k nodes" "$d/n20k.txt" "$G" import slurm -q "$d/n20k.txt" -o "$d/c.yaml" --state-out "$d/s.yaml"
run "scontrol -o, 40k nodes" "$d/n40k.txt" "$G" import slurm -q "$d/n40k.txt" -o "$d/c.yaml" --state-out "$d/s.yaml"
run "scontrol -o + job -d, 20k nodes and jobs" "$d/nj20k.txt" "$G" import slurm -q "$d/n20k.txt" "$d/j20k.txt" -o "$d/c.yaml" --state-out "$d/s.yaml"
run "kubectl nodes + pods, 10k each (JSON)" "$d/k8s-all.size" "$G" import k8s -q "$d/k8s-nodes.json" "$d/k8s-pods.json" -o "$d/c.yaml" --state-out "$d/s.yaml"
