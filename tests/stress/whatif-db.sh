#!/bin/sh
# N concurrent what-if sweeps of one grid into one SQLite database, while
# another client holds the database's write lock for 12 s (longer than one
# wait for the lock): every sweep must exit 0, the database must hold every
# run of the grid once, and a last call must find nothing left to run.
#   whatif-db.sh GPUPLAN [N] [ROUNDS]     (run from the repository root)
set -u
G=${1:?usage: whatif-db.sh GPUPLAN [N] [ROUNDS]}
N=${2:-8}
ROUNDS=${3:-1}
SPEC=tests/data/whatif/grid.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
total=24   # the grid's 12 configurations x 2 seeds
round=0
while [ "$round" -lt "$ROUNDS" ]; do
	round=$((round + 1))
	rm -f "$tmp/db.sqlite"
	"$G" whatif "$SPEC" --db "$tmp/db.sqlite" --max-runs 1 >/dev/null 2>&1
	( echo "BEGIN IMMEDIATE;"; sleep 12; echo "COMMIT;" ) | sqlite3 "$tmp/db.sqlite" &
	sleep 0.5
	i=1
	while [ "$i" -le "$N" ]; do
		( "$G" whatif "$SPEC" -j 1 --quiet --db "$tmp/db.sqlite" \
			>"$tmp/out$i" 2>&1; echo $? >"$tmp/rc$i" ) &
		i=$((i + 1))
	done
	wait
	bad=0
	i=1
	while [ "$i" -le "$N" ]; do
		if [ "$(cat "$tmp/rc$i")" != 0 ]; then
			echo "round $round: sweep $i: exit $(cat "$tmp/rc$i")"; grep gpuplan: "$tmp/out$i" | head -3
			bad=1
		fi
		i=$((i + 1))
	done
	rows=$(sqlite3 "$tmp/db.sqlite" 'SELECT count(*) FROM runs')
	echo "round $round: $N concurrent sweeps, $rows of $total runs stored"
	[ "$rows" = "$total" ] || bad=1
	"$G" whatif "$SPEC" --db "$tmp/db.sqlite" >"$tmp/last" 2>&1
	grep -q " 0 run now, $total from the database" "$tmp/last" || { echo "round $round: a last call still had runs to do:"; sed -n 1,6p "$tmp/last"; bad=1; }
	[ "$bad" -eq 0 ] || exit 1
done
echo "whatif-db: $ROUNDS round(s) of $N concurrent sweeps into one database: every run stored once"
