#!/bin/sh
# N mixed concurrent committers on shared state files: every command that
# commits (place, release, replace, env bind, import --state-out), on an
# existing allocation state, on allocation and environment states that do
# not exist yet (one of them reached through a dangling symbolic link).
# Every success must be in the final files: each placed job holds its GPU,
# each released job is gone, each replaced job left its failed GPU (which
# stays down, booked by nobody) for one GPU elsewhere with one entry per
# node, each bound task is bound; every file loads (no GPU booked twice)
# and no temporary file stays.
#   commit-mixed.sh GPUPLAN [N] [ROUNDS]      (run from the repository root)
# N is split 40% place, 15% release, 15% replace, 10% place on a new file,
# 15% env bind on a new file, 5% import (at least one of each).
set -u
G=${1:?usage: commit-mixed.sh GPUPLAN [N] [ROUNDS]}
N=${2:-20}
ROUNDS=${3:-1}
C=topologies/example-cluster.yaml
EC=tests/data/envs/cluster.yaml
EE=tests/data/envs/envs.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
share() { k=$(($1 * N / 100)); [ "$k" -ge 1 ] || k=1; echo "$k"; }
NP=$(share 40); NR=$(share 15); NX=$(share 15); NN=$(share 10); NE=$(share 15); NI=$(share 5)
[ "$NX" -le 16 ] || NX=16   # two rows of eight A100 nodes hold the replaced jobs
i=0
while [ "$i" -lt "$NP" ]; do
	printf 'name: pl-%d\ntype: single-card\ngpus: 1\ngpu_memory_gib: 1\n' "$i" >"$tmp/pl$i.yaml"
	i=$((i + 1))
done
i=0
while [ "$i" -lt "$NX" ]; do
	printf 'name: rep-%d\ntype: ring-allreduce\ngpus: 2\nmodel: resnet50\nbatch_size: 64\n' "$i" >"$tmp/rep$i.yaml"
	i=$((i + 1))
done
# the state every round starts from: release targets on a100-r2/r3, replace
# targets on two nodes each (a100-r0-K GPU 0 and a100-r1-K GPU 0 or 1)
start_state() {
	echo "allocations:"
	i=0
	while [ "$i" -lt "$NR" ]; do
		echo "  - {job: rel-$i, node: a100-r$((2 + i / 64))-$((i / 8 % 8)), gpus: [$((i % 8))]}"
		i=$((i + 1))
	done
	i=0
	while [ "$i" -lt "$NX" ]; do
		echo "  - {job: rep-$i, node: a100-r0-$((i % 8)), gpus: [$((i / 8))]}"
		echo "  - {job: rep-$i, node: a100-r1-$((i % 8)), gpus: [$((i / 8))]}"
		i=$((i + 1))
	done
}
"$G" import slurm tests/data/slurm/scontrol-show-node-dccn.txt -o "$tmp/expected-cluster.yaml" \
	--state-out "$tmp/expected-import.yaml" >/dev/null 2>&1 || { echo "import fails alone"; exit 1; }
round=0
while [ "$round" -lt "$ROUNDS" ]; do
	round=$((round + 1))
	mkdir -p "$tmp/st" "$tmp/out"
	start_state >"$tmp/st/state.yaml"
	ln -s new-target.yaml "$tmp/st/link.yaml"     # dangling until a commit
	k=0
	for kind in place release replace new env import; do
		case $kind in
		place) n=$NP;; release) n=$NR;; replace) n=$NX;; new) n=$NN;; env) n=$NE;; import) n=$NI;;
		esac
		i=0
		while [ "$i" -lt "$n" ]; do
			o="$tmp/out/$kind-$i"
			case $kind in
			place) set -- place -c "$C" --state "$tmp/st/state.yaml" --commit "$tmp/pl$i.yaml";;
			release) set -- release -c "$C" --state "$tmp/st/state.yaml" --commit --job "rel-$i";;
			replace) set -- replace -c "$C" --state "$tmp/st/state.yaml" \
				--failed "a100-r1-$((i % 8)):$((i / 8))" --commit "$tmp/rep$i.yaml";;
			new) set -- place -c "$C" --state "$tmp/st/link.yaml" --commit "$tmp/pl$i.yaml";;
			env) set -- env bind -c "$EC" --envs "$EE" --state "$tmp/st/envs.yaml" \
				--env alice --task t$i --memory 1GiB --commit;;
			import) set -- import slurm tests/data/slurm/scontrol-show-node-dccn.txt \
				-o "$tmp/st/imported-$i.yaml" --state-out "$tmp/st/imported-state.yaml";;
			esac
			( "$G" "$@" >"$o" 2>&1; echo $? >"$o.rc" ) &
			i=$((i + 1)); k=$((k + 1))
		done
	done
	wait
	bad=0
	S="$tmp/st/state.yaml"
	ok() { [ "$(cat "$tmp/out/$1.rc")" = 0 ]; }
	count() { # kind n: how many exited 0
		c=0; j=0
		while [ "$j" -lt "$2" ]; do ok "$1-$j" && c=$((c + 1)); j=$((j + 1)); done
		echo $c
	}
	fail() { echo "round $round: $*"; bad=1; }
	i=0
	while [ "$i" -lt "$NP" ]; do
		ok "place-$i" || fail "place pl-$i: $(head -2 "$tmp/out/place-$i")"
		ok "place-$i" && ! grep -q "job: \"pl-$i\"" "$S" && fail "placed pl-$i is not in the state"
		ok "new-$i" 2>/dev/null && ! grep -q "job: \"pl-$i\"" "$tmp/st/new-target.yaml" &&
			fail "placed pl-$i is not in the new state"
		i=$((i + 1))
	done
	i=0
	while [ "$i" -lt "$NN" ]; do
		ok "new-$i" || fail "place on a new file pl-$i: $(head -2 "$tmp/out/new-$i")"
		i=$((i + 1))
	done
	i=0
	while [ "$i" -lt "$NR" ]; do
		ok "release-$i" || fail "release rel-$i: $(head -2 "$tmp/out/release-$i")"
		grep -q "job: \"rel-$i\"" "$S" && fail "released rel-$i is still in the state"
		i=$((i + 1))
	done
	i=0
	moved=0
	while [ "$i" -lt "$NX" ]; do
		n=a100-r1-$((i % 8)); g=$((i / 8))
		ok "replace-$i" || fail "replace rep-$i: $(head -2 "$tmp/out/replace-$i")"
		if ok "replace-$i"; then
			grep "job: \"rep-$i\"" "$S" | grep -q "node: \"$n\", gpus: \[$g\]" &&
				fail "replaced rep-$i still holds $n GPU $g"
			gpus=$(grep "job: \"rep-$i\"" "$S" | sed 's/.*gpus: \[\([^]]*\)\].*/\1/' | tr ',' '\n' | grep -c .)
			[ "$gpus" -eq 2 ] || fail "replaced rep-$i holds $gpus GPU(s), not 2"
			dup=$(grep "job: \"rep-$i\"" "$S" | sed 's/.*node: "\([^"]*\)".*/\1/' | sort | uniq -d | wc -l)
			[ "$dup" -eq 0 ] || fail "replaced rep-$i has two entries on one node"
			grep -A200 '^down_gpus:' "$S" | grep -q "node: \"$n\", gpus: \[[0-9, ]*\b$g\b" ||
				fail "the failed GPU $g of $n is not down"
			grep "job: \"rep-$i\"" "$S" | grep -q "node: \"$n\", gpus: \[[0-9, ]*\b$g\b" ||
				[ "$gpus" -ne 2 ] || [ "$dup" -ne 0 ] || moved=$((moved + 1))
		fi
		i=$((i + 1))
	done
	i=0
	while [ "$i" -lt "$NE" ]; do
		ok "env-$i" || fail "env bind t$i: $(head -2 "$tmp/out/env-$i")"
		ok "env-$i" && ! grep -q "task: \"t$i\"" "$tmp/st/envs.yaml" && fail "bound task t$i is not in the state"
		i=$((i + 1))
	done
	i=0
	while [ "$i" -lt "$NI" ]; do
		ok "import-$i" || fail "import $i: $(head -2 "$tmp/out/import-$i")"
		i=$((i + 1))
	done
	for f in state.yaml new-target.yaml; do
		"$G" release -c "$C" --state "$tmp/st/$f" --job no-such-job >/dev/null 2>"$tmp/load.err"
		[ $? -le 1 ] || { fail "the final $f does not load:"; cat "$tmp/load.err"; }
	done
	"$G" env status -c "$EC" --envs "$EE" --state "$tmp/st/envs.yaml" >/dev/null 2>"$tmp/load.err" ||
		{ fail "the final envs.yaml does not load:"; cat "$tmp/load.err"; }
	"$G" release -c "$tmp/st/imported-0.yaml" --state "$tmp/st/imported-state.yaml" --job no-such-job \
		>/dev/null 2>"$tmp/load.err"
	[ $? -le 1 ] || { fail "the imported state does not load:"; cat "$tmp/load.err"; }
	[ -L "$tmp/st/link.yaml" ] || fail "the symbolic link was replaced by a file"
	left=$(ls -A "$tmp/st" | grep -c gptmp)
	[ "$left" -eq 0 ] || { fail "temporary files left:"; ls -A "$tmp/st"; }
	succ=$(( $(count place "$NP") + $(count release "$NR") + $(count replace "$NX") + \
		$(count new "$NN") + $(count env "$NE") + $(count import "$NI") ))
	# what the final files show: jobs placed, jobs gone, jobs moved off their
	# failed GPU, tasks bound; the imports' state is one whole import
	seen=$(( $(grep -c 'job: "pl-' "$S") + NR - $(grep -c 'job: "rel-' "$S") + moved + \
		$(grep -c 'job: "pl-' "$tmp/st/new-target.yaml" 2>/dev/null || echo 0) + \
		$(grep -c 'task: "t' "$tmp/st/envs.yaml" 2>/dev/null || echo 0) ))
	cmp -s "$tmp/st/imported-state.yaml" "$tmp/expected-import.yaml" && seen=$((seen + NI))
	echo "round $round: $k committers, $succ succeeded, $seen found in the final files"
	[ "$succ" -eq "$seen" ] || fail "$succ successes but $seen in the final files"
	[ "$bad" -eq 0 ] || exit 1
	rm -rf "$tmp/st" "$tmp/out"
done
echo "commit-mixed: $ROUNDS round(s) of $N mixed committers: every success is in the final files"
