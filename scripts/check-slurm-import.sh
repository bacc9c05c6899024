#!/bin/sh
# make check-slurm-import: the bridge against a real Slurm.  Start a
# one-node Slurm whose node has 4 GPUs (gres.conf on fake device files;
# scripts/slurm-local.sh with one more line of configuration), run a job
# holding one GPU, import `scontrol -d show node` and `scontrol show job -d`,
# place a job on top, submit the sbatch line `place --emit slurm` prints,
# and check that Slurm runs it and that a second import sees both jobs.
# Needs root and Debian's slurmctld, slurmd, munge and slurm-client.
set -eu
GPUPLAN=${1:?usage: check-slurm-import.sh /path/to/gpuplan}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-slurm-import.XXXXXX")
GP_SLURM_PORT=${GP_SLURM_PORT:-$((21000 + ($$ % 4000) * 2))}
export GP_SLURM_PORT
fail() {
	echo "check-slurm-import: FAILED: $*" >&2
	exit 1
}
cleanup() {
	sh "$dir/scripts/slurm-local.sh" stop "$dir/state" >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p "$dir/scripts/slurm" "$dir/state"
cp "$root/scripts/slurm-local.sh" "$dir/scripts/"
sed 's|^NodeName=@HOST@ \(.*\) State=UNKNOWN|GresTypes=gpu\nNodeName=@HOST@ \1 Gres=gpu:a100:4 State=UNKNOWN|' \
	"$root/scripts/slurm/slurm.conf.in" >"$dir/scripts/slurm/slurm.conf.in"
for i in 0 1 2 3; do
	mknod "$dir/state/nvidia$i" c 1 3 || fail "mknod (needs root)"
done
printf 'AutoDetect=off\nName=gpu Type=a100 File=%s/state/nvidia[0-3]\n' "$dir" >"$dir/state/gres.conf"
eval "export $(sh "$dir/scripts/slurm-local.sh" start "$dir/state" | tail -n 1)"
cd "$dir"
printf '#!/bin/sh\nsleep 120\n' >busy.sh
sbatch -Q --gres=gpu:a100:1 -c 1 busy.sh >/dev/null || fail "sbatch busy.sh"
wait_running() {
	i=0
	while [ "$(squeue -h -t R -n "$1" | wc -l)" -lt 1 ]; do
		i=$((i + 1))
		[ $i -gt 60 ] && fail "job '$1' did not start: $(squeue -h -n "$1")"
		sleep 0.5
	done
}
wait_running busy.sh
scontrol -d show node >nodes.txt
scontrol show job -d >jobs.txt
"$GPUPLAN" import slurm nodes.txt jobs.txt -o site.yaml --state-out today.yaml -q >/dev/null ||
	fail "import"
grep -q 'gpus: \[0\]' today.yaml || fail "the busy job's GPU is not in the state: $(cat today.yaml)"
printf 'name: planned\ntype: single-card\ngpus: 1\ngpu_memory_gib: 20\n' >job.yaml
"$GPUPLAN" place -c site.yaml --state today.yaml --emit slurm job.yaml >place.txt || fail "place"
line=$(grep '^sbatch ' place.txt) || fail "no sbatch line: $(cat place.txt)"
printf '#!/bin/sh\nsleep 120\n' >job.sh
eval "$line" >/dev/null || fail "Slurm refused: $line"
wait_running planned
scontrol -d show node >nodes2.txt
scontrol show job -d >jobs2.txt
"$GPUPLAN" import slurm nodes2.txt jobs2.txt -o site2.yaml --state-out today2.yaml -q >/dev/null ||
	fail "second import"
[ "$(grep -c 'job: ' today2.yaml)" -eq 2 ] || fail "expected two jobs: $(cat today2.yaml)"
scancel -n busy.sh
scancel -n planned
echo "check-slurm-import: ok (Slurm $(sinfo -V | cut -d' ' -f2): ran '$line')"
