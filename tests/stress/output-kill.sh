#!/bin/sh
# kill -9 during the commit of an output set (simulate --json, --csv,
# --svg and --html into four folders): afterwards, once a later gpuplan
# has written into one of those folders, the set is all old or all new,
# never part of each.
#   1. the run kills itself at each step of the commit in turn
#      (GPUPLAN_TEST_KILL_AT=K: journals made, files renamed, journals
#      removed), until a run gets through;
#   2. RANDOM real kill -9 at random delays into runs.
#   output-kill.sh GPUPLAN [RANDOM]    (run from the repository root)
set -u
G=${1:?usage: output-kill.sh GPUPLAN [RANDOM]}
R=${2:-20}
C=tests/data/sim/small-cluster.yaml
OLD=tests/data/sim/backfill.csv
NEW=tests/data/sim/whole-nodes.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
o=$tmp/out
dirs="a b/csv c/svg d"

outputs() { # TRACE: the set into $o
	(exec_outputs "$@") >/dev/null 2>&1
}
exec_outputs() {
	exec "$G" simulate -c "$C" "$1" --json "$o/a/summary.json" --csv "$o/b/csv" \
		--svg "$o/c/svg" --html "$o/d/report.html"
}
# the set's files (journals and temporary files are hidden, their names
# start with a dot)
listing() { (cd "$1" && find . -type f ! -name '.*' | sort); }

mkdir -p "$o" && outputs "$NEW" && cp -R "$o" "$tmp/new" && rm -rf "$o"
mkdir -p "$o" && outputs "$OLD" && cp -R "$o" "$tmp/old"
listing "$tmp/old" >"$tmp/files"
listing "$tmp/new" | cmp -s - "$tmp/files" || { echo "output-kill: the two sets name other files"; exit 1; }
nfiles=$(wc -l <"$tmp/files")
while read -r f; do
	cmp -s "$tmp/old/$f" "$tmp/new/$f" && { echo "output-kill: $f is the same in both sets"; exit 1; }
done <"$tmp/files"

# old, new or mixed: which files of $o are the old and which the new ones
state() {
	nold=0 nnew=0
	while read -r f; do
		if cmp -s "$o/$f" "$tmp/old/$f"; then nold=$((nold + 1))
		elif cmp -s "$o/$f" "$tmp/new/$f"; then nnew=$((nnew + 1))
		fi
	done <"$tmp/files"
	if [ "$nold" -eq "$nfiles" ]; then echo old
	elif [ "$nnew" -eq "$nfiles" ]; then echo new
	else echo "mixed ($nold old, $nnew new, $((nfiles - nold - nnew)) neither)"
	fi
}
# a later gpuplan writing one file into folder $1 of the set
later() {
	"$G" simulate -c "$C" "$OLD" --json "$o/$1/later.json" >/dev/null 2>&1 ||
		echo "output-kill: the later run into $1 failed"
	rm -f "$o/$1/later.json"
}
reset() { rm -rf "$o" && cp -R "$tmp/old" "$o"; }

fail=0 k=0 mixed=0 killed=0
while :; do
	reset
	rc=$( (GPUPLAN_TEST_KILL_AT=$k && export GPUPLAN_TEST_KILL_AT && exec_outputs "$NEW") \
		>/dev/null 2>&1; echo $?) 2>/dev/null
	if [ "$rc" -eq 0 ]; then
		s=$(state)
		[ "$s" = new ] || { echo "output-kill: a run that got through left $s"; fail=1; }
		break
	fi
	[ "$rc" -eq 137 ] || { echo "output-kill: step $k: exit $rc, want 137 (killed)"; fail=1; break; }
	killed=$((killed + 1))
	case $(state) in mixed*) mixed=$((mixed + 1)) ;; esac
	set -- $dirs
	shift $((k % 4))
	later "$1"
	s=$(state)
	case $s in
	old | new) ;;
	*) echo "output-kill: killed at step $k, after a later run into $1: $s"; fail=1 ;;
	esac
	# nothing of the killed run is left in the folder written since
	left=$(find "$o/$1" -maxdepth 1 -name '.*' -type f | head -3)
	[ -z "$left" ] || { echo "output-kill: killed at step $k, left in $1: $left"; fail=1; }
	k=$((k + 1))
	[ "$k" -lt 100 ] || { echo "output-kill: no run got through 100 steps"; fail=1; break; }
done
[ "$killed" -gt 0 ] || { echo "output-kill: GPUPLAN_TEST_KILL_AT killed no run"; fail=1; }

# real kill -9 at random delays (0-120 ms) into runs
i=0 rmixed=0 rold=0 rnew=0
while [ "$i" -lt "$R" ]; do
	reset
	(exec_outputs "$NEW" >/dev/null 2>&1) &
	pid=$!
	sleep "0.$(awk -v s="$i$$" 'BEGIN { srand(s); printf "%03d", int(rand() * 120) }')"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	case $(state) in mixed*) rmixed=$((rmixed + 1)) ;; esac
	set -- $dirs
	shift $((i % 4))
	later "$1"
	s=$(state)
	case $s in
	old) rold=$((rold + 1)) ;;
	new) rnew=$((rnew + 1)) ;;
	*) echo "output-kill: killed at random, after a later run into $1: $s"; fail=1 ;;
	esac
	i=$((i + 1))
done
[ "$fail" -eq 0 ] && echo "output-kill: killed at each of $killed commit steps ($mixed left a" \
	"mixed set until a later run) and $R times at random ($rold old, $rnew new," \
	"$rmixed mixed until a later run): every set whole afterwards ($nfiles files, 4 folders)"
exit "$fail"
