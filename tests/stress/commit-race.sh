#!/bin/sh
# N concurrent `place --commit` on one state file (issue 18): every process
# must exit 0 and print "placed", the final state must hold all N jobs, no
# GPU may be booked twice (the state loader rejects double booking, and
# each (node, GPU) pair is checked here too), and no temporary file stays.
#   commit-race.sh GPUPLAN [N] [ROUNDS]     (run from the repository root)
set -u
G=${1:?usage: commit-race.sh GPUPLAN [N] [ROUNDS]}
N=${2:-20}
ROUNDS=${3:-1}
C=topologies/example-cluster.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ "$i" -lt "$N" ]; do
	printf 'name: race-%d\ntype: single-card\ngpus: 1\ngpu_memory_gib: 1\n' "$i" >"$tmp/job$i.yaml"
	i=$((i + 1))
done
printf 'name: probe\ntype: single-card\ngpus: 1\ngpu_memory_gib: 1\n' >"$tmp/probe.yaml"
round=0
while [ "$round" -lt "$ROUNDS" ]; do
	round=$((round + 1))
	mkdir -p "$tmp/st"
	printf 'allocations: []\n' >"$tmp/st/state.yaml"
	i=0
	while [ "$i" -lt "$N" ]; do
		( "$G" place -c "$C" --state "$tmp/st/state.yaml" --commit --lock-timeout 600 \
			"$tmp/job$i.yaml" >"$tmp/out$i" 2>&1; echo $? >"$tmp/rc$i" ) &
		i=$((i + 1))
	done
	wait
	bad=0
	i=0
	while [ "$i" -lt "$N" ]; do
		if [ "$(cat "$tmp/rc$i")" != 0 ] || ! grep -q '^status: placed' "$tmp/out$i"; then
			echo "round $round: committer $i: exit $(cat "$tmp/rc$i")"; head -3 "$tmp/out$i"
			bad=1
		fi
		i=$((i + 1))
	done
	jobs=$(grep -c 'job: "race-' "$tmp/st/state.yaml")
	distinct=$(grep -o 'job: "race-[0-9]*"' "$tmp/st/state.yaml" | sort -u | wc -l)
	# one entry per job, one GPU each: "node, gpus: [g]" pairs must be unique
	pairs=$(sed -n 's/.*node: "\([^"]*\)", gpus: \[\([0-9]*\)\].*/\1 \2/p' "$tmp/st/state.yaml" | sort | uniq -d | wc -l)
	[ "$jobs" -eq "$N" ] && [ "$distinct" -eq "$N" ] || { echo "round $round: $jobs allocation(s), $distinct distinct, expected $N"; bad=1; }
	[ "$pairs" -eq 0 ] || { echo "round $round: $pairs GPU(s) booked twice"; bad=1; }
	"$G" place -c "$C" --state "$tmp/st/state.yaml" "$tmp/probe.yaml" >/dev/null 2>"$tmp/load.err"
	[ $? -le 1 ] || { echo "round $round: the final state does not load:"; cat "$tmp/load.err"; bad=1; }
	left=$(ls -A "$tmp/st" | grep -v '^state.yaml$' | wc -l)
	[ "$left" -eq 0 ] || { echo "round $round: files left beside the state:"; ls -A "$tmp/st"; bad=1; }
	[ "$bad" -eq 0 ] || exit 1
	rm -rf "$tmp/st"
done
echo "commit-race: $ROUNDS round(s) of $N concurrent committers: every allocation kept, no GPU booked twice"
