#!/bin/sh
# Fuzz harnesses (tests/fuzz/fuzz_*.c) over their seed corpora (seeds).
#   run.sh replay DIR        replay seeds + regress/NAME through DIR/replay_NAME
#   run.sh fuzz DIR SECONDS  libFuzzer DIR/fuzz_NAME for SECONDS each over
#                            build-fuzz/corpus/NAME (grown in place); crashes
#                            land in build-fuzz/findings/NAME
# FUZZ_ONLY=NAME limits either mode to one harness.  In fuzz mode
# FUZZ_RUNS=N stops each harness after N executions (-runs=N; SECONDS still
# caps the time) and FUZZ_FLAGS adds libFuzzer flags after the defaults (a
# repeated flag takes its last value: FUZZ_FLAGS=-max_len=8192).  The log
# of each harness is build-fuzz/fuzz_NAME.log.  Run from the root.
set -e
mode=${1:?usage: run.sh replay|fuzz DIR [SECONDS]}
dir=${2:?bin dir}
secs=${3:-60}
failed=0
grep -v '^#' tests/fuzz/seeds | while read -r name globs; do
	[ -n "$name" ] || continue
	[ -z "$FUZZ_ONLY" ] || [ "$FUZZ_ONLY" = "$name" ] || continue
	# shellcheck disable=SC2086
	files=
	[ -z "$globs" ] || files=$(ls -d $globs 2>/dev/null || true)
	[ -d "tests/fuzz/regress/$name" ] && files="$files tests/fuzz/regress/$name"
	if [ "$mode" = replay ]; then
		# shellcheck disable=SC2086
		if ! "$dir/replay_$name" $files 2>"$dir/replay_$name.log"; then
			cat "$dir/replay_$name.log"
			echo "FAIL: fuzz replay $name"
			exit 1
		fi
		echo "ok   fuzz replay $name ($(sed -n 's/.*: \([0-9]*\) input.*/\1/p' "$dir/replay_$name.log") inputs)"
	else
		corpus=build-fuzz/corpus/$name
		mkdir -p "$corpus" "build-fuzz/findings/$name"
		# shellcheck disable=SC2086
		cp $files "$corpus/" 2>/dev/null || true
		# shellcheck disable=SC2086
		"$dir/fuzz_$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
			-max_len=65536 -print_final_stats=1 ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} \
			$FUZZ_FLAGS -artifact_prefix="build-fuzz/findings/$name/" "$corpus" \
			2>"build-fuzz/fuzz_$name.log" || { tail -30 "build-fuzz/fuzz_$name.log"; exit 1; }
		runs=$(grep -a 'stat::number_of_executed_units' "build-fuzz/fuzz_$name.log" | awk '{print $2}')
		rate=$(grep -a 'stat::average_exec_per_sec' "build-fuzz/fuzz_$name.log" | awk '{print $2}')
		note=
		[ "${rate:-0}" -gt 0 ] && rate="at $rate/s" || rate="in under a second"
		[ -z "$FUZZ_RUNS" ] || [ "${runs:-0}" -ge "$FUZZ_RUNS" ] ||
			note=" (stopped by the ${secs} s cap before $FUZZ_RUNS)"
		echo "fuzz $name: $runs executions $rate$note, no finding"
	fi
done
