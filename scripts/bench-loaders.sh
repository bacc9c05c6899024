#!/bin/sh
# Every kind of file gpuplan reads, generated at N, 10N and 100N entries:
# user CPU seconds and peak RSS (ratio to the input size) of the command
# that loads it.  A linear loader costs about 10x per step (the last
# column, CPU at this size over CPU at the size before; small inputs are
# dominated by start-up).  Numbers only, never a verdict.
# BENCH_LOADERS=KIND,... runs some kinds; BENCH_DIR=DIR keeps the inputs.
set -e
cd "$(dirname "$0")/.."
[ -x ./gpuplan ] || make -s gpuplan
G=$(pwd)/gpuplan
if [ -n "$BENCH_DIR" ]; then
	d=$BENCH_DIR
	mkdir -p "$d"
else
	d=$(mktemp -d)
	trap 'rm -rf "$d"' EXIT
fi
C=topologies/example-cluster.yaml
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f '%M' -o "$d/time" "$G" validate tests/data/jobs/good-minimal.yaml >/dev/null
echo "baseline peak RSS: $(tail -1 "$d/time") KiB (a tiny input)"
printf '%-22s %8s %10s %7s %9s %6s %6s %s\n' kind entries bytes cpu_s peak_kib ratio x_cpu exit

# gen KIND N FILE: the input of KIND with N entries
gen() {
	case $1 in
	cluster) awk -v n="$2" 'BEGIN { print "node_types:\n  t: {topology: a100.txt, gpu_model: A100-SXM4-40GB}\nfabric:\n  - {name: spine, tech: ib-ndr}";
		for (l = 0; l < int(n / 32) + 1; l++) printf "  - {name: leaf%d, parent: spine}\n", l;
		print "nodes:"; for (i = 0; i < n; i++) printf "  - {name: n%d, type: t, switch: leaf%d, labels: {rack: r%d}}\n", i, int(i / 32), int(i / 32) }' ;;
	jobs) awk -v n="$2" 'BEGIN { print "jobs:"; for (i = 0; i < n; i++) printf "  - {name: j%d, type: single-card, gpus: 1, gpu_share: 500, gpu_memory_gib: 6}\n", i }' ;;
	state) awk -v n="$2" 'BEGIN { print "allocations:"; for (j = 0; j < n; j++) { g = j % 256; nd = int(g / 8);
		printf "  - {job: \"j%d\", node: \"a100-r%d-%d\", gpus: [%d], share: 1}\n", j, int(nd / 8), nd % 8, g % 8 } }' ;;
	envs) awk -v n="$2" 'BEGIN { print "environments:"; for (i = 0; i < n; i++) printf "  - {name: env%d, gpus: 8, gpu_memory_gib: 320}\n", i }' ;;
	envstate) awk -v n="$2" 'BEGIN { e = 1000; print "heartbeats:"; for (i = 0; i < e; i++) printf "  - {env: \"env%d\", at: %d}\n", i, i;
		print "tasks:"; for (i = 0; i < n; i++) { en = i % e; g = en % 256; nd = int(g / 8);
		printf "  - {env: \"env%d\", task: \"t%d\", memory_mib: 10, at: %d, gpus: [{node: \"a100-r%d-%d\", gpu: %d}]}\n", en, i, i, int(nd / 8), nd % 8, g % 8 } }' ;;
	trace) awk -v n="$2" 'BEGIN { print "id,submit,gpus,duration"; for (i = 0; i < n; i++) printf "j%d,%d,1,60\n", i, i }' ;;
	philly) awk -v n="$2" 'BEGIN { print "timestamp,duration,num_gpus,gpu_time,cluster"; srand(7);
		for (i = 0; i < n; i++) { t = int(rand() * 86400 * 28); g = 2 ^ int(rand() * 4); d = 60 + int(rand() * 9000);
		printf "2017-10-%02d %02d:%02d:%02d,%d.0,%d,%d.0,%06x\n", 1 + int(t / 86400), int(t % 86400 / 3600), int(t % 3600 / 60), t % 60, d, g, d * g, 1234567 } }' ;;
	sacct) awk -v n="$2" 'BEGIN { print "JobID|JobIDRaw|Partition|Account|User|QOS|Submit|Eligible|Start|End|ElapsedRaw|TimelimitRaw|State|NNodes|AllocTRES|ReqTRES|NodeList";
		for (i = 0; i < n; i++) { s = 1714564800 + i; printf "%d|%d|gpu|ml|u%d|normal|%s|%s|%s|%s|3600|120|COMPLETED|1|cpu=8,gres/gpu=4,mem=64G,node=1|cpu=8,gres/gpu=4,mem=64G,node=1|gpu%03d\n",
		i + 1, i + 1, i % 50, strftime("%Y-%m-%dT%H:%M:%S", s, 1), strftime("%Y-%m-%dT%H:%M:%S", s, 1), strftime("%Y-%m-%dT%H:%M:%S", s + 10, 1), strftime("%Y-%m-%dT%H:%M:%S", s + 3610, 1), i % 100 } }' ;;
	scontrol) awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "NodeName=n%06d Arch=x86_64 CoresPerSocket=16\n   CPUAlloc=8 CPUTot=64 CPULoad=1.00\n   Gres=gpu:a100:8(S:0-1)\n   GresUsed=gpu:a100:2(IDX:0-1)\n   RealMemory=512000 AllocMem=1024 Sockets=2 ThreadsPerCore=2\n   State=MIXED Partitions=gpu\n\n", i }' ;;
	k8s) awk -v n="$2" 'BEGIN { print "{\"kind\": \"NodeList\", \"items\": ["; for (i = 0; i < n; i++)
		printf "%s{\"kind\": \"Node\", \"metadata\": {\"name\": \"k%06d\", \"labels\": {\"nvidia.com/gpu.product\": \"NVIDIA-A100-SXM4-40GB\", \"nvidia.com/gpu.memory\": \"40960\"}}, \"status\": {\"capacity\": {\"cpu\": \"64\", \"memory\": \"512Gi\", \"nvidia.com/gpu\": \"8\"}, \"allocatable\": {\"cpu\": \"64\", \"memory\": \"512Gi\", \"nvidia.com/gpu\": \"8\"}}}\n", i ? "," : "", i;
		print "]}" }' ;;
	topoconf) awk -v n="$2" 'BEGIN { l = int(n / 8) + 1; for (s = 0; s < l; s++) printf "SwitchName=leaf%d Nodes=n%06d\n", s, s;
		printf "SwitchName=spine Switches=leaf[0-%d]\n", l - 1 }' ;;
	ibnet) awk -v n="$2" 'BEGIN { for (s = 0; s < n; s++) { printf "vendid=0x2c9\ndevid=0xd2f0\nswitchguid=0x%016x(%016x)\nSwitch\t64 \"S-%016x\"\t\t# \"leaf%d\" enhanced port 0 lid %d lmc 0\n", s + 4096, s + 4096, s + 4096, s, s + 1;
		printf "[1]\t\"H-%016x\"[1](%016x) \t\t# \"n%06d mlx5_0\" lid %d 4xNDR\n\n", s + 1048576, s + 1048576, s, s + 100000;
		printf "vendid=0x2c9\ndevid=0x1021\ncaguid=0x%016x\nCa\t1 \"H-%016x\"\t\t# \"n%06d mlx5_0\"\n[1](%016x) \t\"S-%016x\"[1]\t\t# lid %d lmc 0 \"leaf%d\" lid %d 4xNDR\n\n", s + 1048576, s + 1048576, s, s + 1048576, s + 4096, s + 100000, s, s + 1 } }' ;;
	failures) awk -v n="$2" 'BEGIN { print "time_s,node,gpu,kind,repair_s"; for (i = 0; i < n; i++) { g = i % 256; nd = int(g / 8);
		printf "%d,a100-r%d-%d,%d,gpu,600\n", i * 10, int(nd / 8), nd % 8, g % 8 } }' ;;
	openb) awk -v n="$2" 'BEGIN { print "sn,cpu_milli,memory_mib,gpu,model"; for (i = 0; i < n; i++) printf "openb-node-%06d,96000,786432,8,V100M32\n", i }' ;;
	esac >"$3"
}

# args KIND FILE: the arguments of the gpuplan command that loads it
args() {
	case $1 in
	cluster|jobs|openb) echo "validate $2" ;;
	state|envs|failures) echo "validate -c $C $2" ;;
	envstate) echo "env status -c $C --envs $d/envs-for-state.yaml --state $2" ;;
	trace|philly) echo "validate --type trace $2" ;;
	sacct) echo "import sacct $2 -o $d/out.csv" ;;
	scontrol) echo "import slurm $2 -o $d/out.yaml -q" ;;
	k8s) echo "import k8s $2 -o $d/out.yaml -q" ;;
	topoconf|ibnet) echo "import slurm $d/nodes-1.txt --fabric $2 -o $d/out.yaml -q" ;;
	esac
}

gen envs 1000 "$d/envs-for-state.yaml"
cp topologies/a100-sxm4-40gb-8gpu-3nic-4socket-fastdeploy.txt "$d/a100.txt"
gen scontrol 1 "$d/nodes-1.txt"
# KIND:N, N the entries of the smallest input (then 10N and 100N)
for kn in cluster:400 jobs:450 state:2000 envs:1000 envstate:1000 trace:5000 philly:4000 \
	sacct:1000 scontrol:200 k8s:200 topoconf:1000 ibnet:200 failures:3000 openb:1000; do
	kind=${kn%:*} n=${kn#*:}
	case ",${BENCH_LOADERS:-$kind}," in *",$kind,"*) ;; *) continue ;; esac
	prev=
	for m in 1 10 100; do
		f="$d/$kind-$((n * m))"
		gen "$kind" $((n * m)) "$f"
		rc=0
		# shellcheck disable=SC2046
		/usr/bin/time -f '%U %M' -o "$d/time" "$G" $(args "$kind" "$f") >/dev/null 2>"$d/err" || rc=$?
		set -- $(tail -1 "$d/time")
		awk -v k="$kind" -v n=$((n * m)) -v b="$(wc -c <"$f")" -v s="$1" -v kib="$2" -v rc="$rc" -v p="$prev" \
			'BEGIN { x = p != "" && p > 0 ? sprintf("%.1f", s / p) : "-";
				printf "%-22s %8d %10d %7.2f %9d %6.1f %6s %s\n", k, n, b, s, kib, kib * 1024 / b, x, rc }'
		[ "$rc" -eq 0 ] || sed 's/^/    /' "$d/err" | head -3
		prev=$1
		rm -f "$f"
	done
done
