#!/bin/sh
# kill -9 committers at random points (issue 18): after each kill the state
# file is the old one or the old one plus the new job, byte for byte what a
# complete commit writes, and it loads; temporaries of killed writers are
# removed by the next commit.
#   commit-kill.sh GPUPLAN [KILLS] [SEED]    (run from the repository root)
set -u
G=${1:?usage: commit-kill.sh GPUPLAN [KILLS] [SEED]}
K=${2:-10}
SEED=${3:-1}
C=topologies/example-cluster.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/st"
S=$tmp/st/state.yaml
# A state with many entries makes the write window wider.
awk 'BEGIN { print "allocations:"; for (n = 0; n < 16; n++) for (g = 0; g < 8; g++)
	printf "  - {job: \"base-%d-%d\", node: \"a100-r%d-%d\", gpus: [%d], share: 100}\n", n, g, int(n / 8), n % 8, g }' >"$S"
printf 'name: probe\ntype: single-card\ngpus: 1\ngpu_share: 100\ngpu_memory_gib: 1\n' >"$tmp/probe.yaml"
"$G" place -c "$C" --state "$S" "$tmp/probe.yaml" >/dev/null 2>&1 ||
	{ echo "commit-kill: the base state does not load"; exit 1; }
old=0; new=0; midwrite=0; k=0
while [ "$k" -lt "$K" ]; do
	printf 'name: kill-%d\ntype: single-card\ngpus: 1\ngpu_share: 100\ngpu_memory_gib: 1\n' "$k" >"$tmp/job.yaml"
	cp "$S" "$tmp/before.yaml"
	# what a complete commit of this job writes, on a copy
	cp "$S" "$tmp/want.yaml"
	"$G" place -c "$C" --state "$tmp/want.yaml" --commit "$tmp/job.yaml" >/dev/null 2>&1
	delay=$(awk -v s="$SEED" -v k="$k" 'BEGIN { srand(s * 100003 + k); printf "%.4f", rand() * 0.015 }')
	"$G" place -c "$C" --state "$S" --commit "$tmp/job.yaml" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	ls -A "$tmp/st" | grep -q gptmp && midwrite=$((midwrite + 1))
	if cmp -s "$S" "$tmp/before.yaml"; then
		old=$((old + 1))
	elif cmp -s "$S" "$tmp/want.yaml"; then
		new=$((new + 1))
	else
		echo "commit-kill: kill $k (after ${delay}s) left a state that is neither old nor new:"
		diff "$tmp/before.yaml" "$S" | head -5
		exit 1
	fi
	"$G" place -c "$C" --state "$S" "$tmp/probe.yaml" >/dev/null 2>&1
	[ $? -le 1 ] || { echo "commit-kill: kill $k: the state does not load"; exit 1; }
	k=$((k + 1))
done
# the next complete commit removes what killed writers left
printf 'name: kill-final\ntype: single-card\ngpus: 1\ngpu_share: 100\ngpu_memory_gib: 1\n' >"$tmp/job.yaml"
"$G" place -c "$C" --state "$S" --commit "$tmp/job.yaml" >/dev/null 2>&1 || { echo "commit-kill: final commit failed"; exit 1; }
left=$(ls -A "$tmp/st" | grep -v '^state.yaml$' | wc -l)
[ "$left" -eq 0 ] || { echo "commit-kill: files left beside the state:"; ls -A "$tmp/st"; exit 1; }
echo "commit-kill: $K kill(s): $old left the old state, $new the new one, none torn ($midwrite killed while writing); no temporary left"
