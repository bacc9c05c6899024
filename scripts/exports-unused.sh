#!/bin/sh
# List functions a library object exports that no other object (library,
# command line, tests, benchmarks) uses: candidates for `static`.
set -eu
cd "$(dirname "$0")/.."
objs=$(find build/src -name '*.o')
tobjs=$(find build/tests -name '*.o' 2>/dev/null || true)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for o in $objs $tobjs; do nm -u "$o" | awk -v o="$o" '{print $2, o}'; done >"$tmp"
for o in $(find build/src -name '*.o' ! -path 'build/src/cmd/*'); do
	for s in $(nm -g --defined-only "$o" | awk '$2 == "T" {print $3}'); do
		if ! grep -q "^$s " "$tmp"; then
			echo "$s ${o#build/}"
		elif ! grep "^$s " "$tmp" | grep -qv " $o\$"; then
			echo "$s ${o#build/}"
		fi
	done
done | LC_ALL=C sort
