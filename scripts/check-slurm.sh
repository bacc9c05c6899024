#!/bin/sh
# make check-slurm: start a real one-node Slurm (scripts/slurm-local.sh),
# run a what-if sweep as an sbatch job array of 4 slices, merge the slices'
# databases, and check that the merged answer equals the answer of one
# `gpuplan whatif -j 2` run.  Needs root and Debian's slurmctld, slurmd,
# munge and slurm-client.  Fails loudly when Slurm cannot start.
set -eu
GPUPLAN=${1:?usage: check-slurm.sh /path/to/gpuplan}
root=$(cd "$(dirname "$0")/.." && pwd)
spec=$root/tests/data/whatif/grid.yaml
dir=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-slurm.XXXXXX")
# A port of our own, so that parallel checks do not collide.
GP_SLURM_PORT=${GP_SLURM_PORT:-$((20000 + ($$ % 5000) * 2))}
export GP_SLURM_PORT

fail() {
	echo "check-slurm: FAILED: $*" >&2
	exit 1
}
cleanup() {
	sh "$root/scripts/slurm-local.sh" stop "$dir/slurm" >/dev/null 2>&1 || true
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

sh "$root/scripts/slurm-local.sh" start "$dir/slurm" >/dev/null || fail "Slurm did not start (see above)"
SLURM_CONF=$dir/slurm/slurm.conf
export SLURM_CONF

"$GPUPLAN" whatif "$spec" --slurm "$dir/array" --slices 4 >/dev/null
# --wait returns when every array task has ended, with the worst exit code.
timeout 300 sbatch --wait --quiet "$dir/array/whatif.sbatch" ||
	{ cat "$dir"/array/slice-*.log >&2 2>/dev/null || true; fail "the job array failed"; }
for i in 1 2 3 4; do
	[ -s "$dir/array/part-$i.sqlite" ] || fail "array task $i wrote no part-$i.sqlite"
	grep -q "^slice $i/4: " "$dir/array/slice-$i.log" || fail "array task $i: unexpected log"
done
"$GPUPLAN" whatif merge "$dir"/array/part-*.sqlite -o "$dir/all.sqlite" >/dev/null
# The answers must agree, except for where the runs came from.
"$GPUPLAN" whatif "$spec" --db "$dir/all.sqlite" --json | grep -v '"runs_' >"$dir/merged.json" || true
"$GPUPLAN" whatif "$spec" -j 2 --json | grep -v '"runs_' >"$dir/local.json" || true
[ -s "$dir/merged.json" ] || fail "no answer from the merged database"
diff -u "$dir/local.json" "$dir/merged.json" >&2 || fail "merged answer differs from the -j 2 answer"
n=$(grep -c '"seed"' "$dir/merged.json")
echo "check-slurm: a 4-task Slurm job array ran $n runs; merged answer = -j 2 answer"
