#!/bin/sh
# Run each unit-test binary; fail if any fails.  Output only on failure
# unless GP_TEST_VERBOSE is set.
failed=0
for t in "$@"; do
	out=$("$t" 2>&1)
	rc=$?
	if [ $rc -ne 0 ]; then
		printf '%s\n' "$out"
		echo "FAIL: $t (exit $rc)"
		failed=1
	else
		summary=$(printf '%s\n' "$out" | awk '/^ *asserts/ {print $3" asserts"}')
		echo "ok   $t ($summary)"
	fi
done
exit $failed
