#!/bin/sh
# List functions a library object exports that no other object (library,
# command line, unit tests) uses: candidates for `static`.  Fuzz harnesses
# and benchmark programs are not built by `make gpuplan unit`, so a name
# their sources use counts as used.  Run after `make gpuplan unit`.
set -eu
cd "$(dirname "$0")/.."
[ -d build/src ] || { echo "exports-unused: build first (make gpuplan unit)" >&2; exit 2; }
objs=$(find build/src -name '*.o')
tobjs=$(find build/tests -name '*.o' 2>/dev/null || true)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for o in $objs $tobjs; do nm -u "$o" | awk -v o="$o" '{print $2, o}'; done >"$tmp"
for o in $(find build/src -name '*.o' ! -path 'build/src/cmd/*'); do
	for s in $(nm -g --defined-only "$o" | awk '$2 == "T" {print $3}'); do
		if grep "^$s " "$tmp" | grep -qv " $o\$"; then
			continue
		fi
		if grep -qw "$s" tests/fuzz/*.c scripts/*.c 2>/dev/null; then
			continue
		fi
		echo "$s ${o#build/}"
	done
done | LC_ALL=C sort
