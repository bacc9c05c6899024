#!/bin/sh
# Golden CLI tests: each tests/cli/cases/NAME.sh prints (stdout and stderr
# merged) what tests/cli/cases/NAME.out holds.  UPDATE=1 rewrites the .out
# files; review the diff before committing.
GPUPLAN=${1:?usage: run.sh /path/to/gpuplan}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export GPUPLAN ROOT LC_ALL=C
failed=0
n=0
for case in "$ROOT"/tests/cli/cases/*.sh; do
	[ -e "$case" ] || continue
	name=$(basename "$case" .sh)
	TMP=$(mktemp -d)
	export TMP
	actual=$(sh -c ". '$ROOT/tests/cli/lib.sh'; . '$case'" 2>&1 | sed "s#$TMP#\$TMP#g")
	rm -rf "$TMP"
	n=$((n + 1))
	expected_file="${case%.sh}.out"
	if [ -n "$UPDATE" ]; then
		printf '%s\n' "$actual" >"$expected_file"
		continue
	fi
	if [ ! -f "$expected_file" ]; then
		echo "FAIL: $name (no $expected_file)"
		failed=1
	elif ! printf '%s\n' "$actual" | diff -u "$expected_file" - >/dev/null; then
		echo "FAIL: $name"
		printf '%s\n' "$actual" | diff -u "$expected_file" - | head -40
		failed=1
	fi
done
[ -n "$UPDATE" ] && { echo "golden: rewrote $n case(s)"; exit 0; }
[ $failed -eq 0 ] && echo "golden: $n case(s) passed ($(basename "$GPUPLAN"))"
exit $failed
