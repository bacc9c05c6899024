# shellcheck shell=sh
# measure LABEL COMMAND...: runs COMMAND with its standard output in $T/out
# and prints one line: wall time, CPU time (user + system), peak RSS and the
# load average, which the benchmarks report next to every timing.  Sourced by
# the bench-*.sh scripts (from the repository root); $T is their scratch
# directory, MEASURE_WIDTH the width of the label column.
measure() {
	label=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$T/time" "$@" >"$T/out"
	# shellcheck disable=SC2046
	set -- $(cat "$T/time")
	printf "%-${MEASURE_WIDTH:-52}s %7s s wall %7.2f s CPU %8.1f MiB peak RSS  (load %s)\n" \
		"$label" "$1" "$(echo "$2 + $3" | bc -l)" "$(echo "$4 / 1024" | bc -l)" \
		"$(cut -d' ' -f1 /proc/loadavg)"
}
