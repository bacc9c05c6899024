#!/bin/sh
# Check the perf model against the published measurements of
# tests/data/perf-validation/cases.tsv: each case's modelled value and
# error, then the median and largest absolute error per class, for the
# cases a fitted constant may have seen (split "fit") and for the held-out
# ones (split "held") apart, and the targets (busbw median 5 %, every
# healthy large message within 20 %, small-message median 15 %, iteration
# median 15 % and max 40 %).  The same figures over the healthy cases only
# (column health: a case whose source reports the figure as abnormal is
# "abnormal"; see the README) are printed beside those of all cases.
# Prints numbers; exits 0 unless a case cannot be run.
# Usage: validate-perf.sh [GPUPLAN [CASES]] (CASES: another cases file whose
# clusters and jobs are those of tests/data/perf-validation).
set -e
CASES=${2:+$(cd "$(dirname "$2")" && pwd)/$(basename "$2")}
cd "$(dirname "$0")/.."
GPUPLAN=${1:-./gpuplan}
DIR=tests/data/perf-validation
CASES=${CASES:-$DIR/cases.tsv}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# NAME-A..B[:GPUS] -> NAME-A[:GPUS],...,NAME-B[:GPUS]; other specs as they are.
expand_on() {
	case $1 in
	*..*)
		base=${1%%..*}; rest=${1#*..}
		name=${base%-*}; lo=${base##*-}
		hi=${rest%%:*}; gpus=
		case $rest in *:*) gpus=":${rest#*:}" ;; esac
		seq "$lo" "$hi" | awk -v n="$name" -v g="$gpus" '{ printf "%s%s-%s%s", (NR > 1 ? "," : ""), n, $1, g }'
		;;
	*) printf '%s' "$1" ;;
	esac
}

# The number after "key": in JSON text on stdin (first one after the
# line matching $2 when given).
json_num() {
	awk -v k="\"$1\":" -v after="$2" '
		after != "" && !seen { if (index($0, after)) seen = 1; else next }
		index($0, k) { sub(/.*": */, ""); sub(/,$/, ""); print; exit }'
}

out=$tmp/rows
: >"$out"
grep -v '^#' "$CASES" | while IFS='	' read -r id class split cluster what algo size on gpp metric measured source health; do
	[ -n "$id" ] || continue
	case $health in
	healthy | abnormal) ;;
	*) echo "validate-perf: case $id: column health is \"$health\", not healthy or abnormal" >&2; exit 1 ;;
	esac
	spec=$(expand_on "$on")
	cl=$DIR/clusters/$cluster.yaml
	if [ "$metric" = iter_s ]; then
		"$GPUPLAN" perf -c "$cl" "$DIR/$what" --on "$spec" --json >"$tmp/o" 2>"$tmp/e" || {
			echo "validate-perf: case $id failed:" >&2; cat "$tmp/e" >&2; exit 1; }
		model=$(json_num iteration_s '"placement"' <"$tmp/o")
		bytes=0
	else
		set -- --collective "$what" --size "$size" --on "$spec"
		[ "$algo" = auto ] || set -- "$@" --algo "$algo"
		[ "$gpp" = 1 ] || set -- "$@" --gpus-per-process "$gpp"
		"$GPUPLAN" perf -c "$cl" "$@" --json >"$tmp/o" 2>"$tmp/e" || {
			echo "validate-perf: case $id failed:" >&2; cat "$tmp/e" >&2; exit 1; }
		bytes=$(json_num bytes <"$tmp/o")
		if [ "$metric" = busbw ]; then
			model=$(json_num busbw_gbps <"$tmp/o")
		else
			model=$(json_num time_s <"$tmp/o")
			model=$(awk -v t="$model" 'BEGIN { printf "%.6g", t * 1e6 }')
		fi
		alg=$(awk -F'"' '/"algorithm"/ { print $4; exit }' "$tmp/o")
		proto=$(awk -F'"' '/"protocol"/ { print $4; exit }' "$tmp/o")
	fi
	[ "$metric" = iter_s ] && alg=- && proto=-
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$class" "$split" "$metric" \
		"$bytes" "$measured" "$model" "$alg/$proto" "$source" "$health" >>"$out"
done

awk -F'\t' '
function abs(x) { return x < 0 ? -x : x }
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function add(key, e) { n[key]++; v[key, n[key]] = e; if (e > mx[key]) mx[key] = e }
function med(key,   i, a) {
	if (!n[key]) return 0
	for (i = 1; i <= n[key]; i++) a[i] = v[key, i]
	return median(a, n[key])
}
# The target figures of one case, under keys prefixed with pre ("" for
# all cases, "h" for the healthy ones).
function target(pre, sp, metric, bytes, a) {
	if (metric == "busbw") { add(pre "busbw" SUBSEP sp, a); add(pre "busbw" SUBSEP "all", a)
		if (bytes >= 67108864) { add(pre "large" SUBSEP sp, a); add(pre "large" SUBSEP "all", a) } }
	if (metric == "time_us") { add(pre "smalltime" SUBSEP sp, a); add(pre "smalltime" SUBSEP "all", a) }
	if (metric == "iter_s") { add(pre "itertime" SUBSEP sp, a); add(pre "itertime" SUBSEP "all", a) }
}
function stat(key,   i, a) {
	if (!n[key]) return "      -        -     0"
	for (i = 1; i <= n[key]; i++) a[i] = v[key, i]
	return sprintf("%6.1f %% %6.1f %% %4d", median(a, n[key]), mx[key], n[key])
}
BEGIN {
	printf "%-24s %-6s %-4s %-7s %12s %12s %8s  %-15s %s\n", "case", "class", "split", "metric", "measured", "model", "error", "algo/proto", "source"
}
{
	e = ($7 - $6) / $6 * 100
	printf "%-24s %-6s %-4s %-7s %12.4g %12.4g %+7.1f%%  %-15s %s%s\n", $1, $2, $3, $4, $6, $7, e, $8, $9, \
		($10 == "abnormal" ? "  [reported abnormal]" : "")
	a = abs(e)
	add($2 SUBSEP $3, a); add($2 SUBSEP "all", a)
	target("", $3, $4, $5, a)
	if ($10 == "healthy") target("h", $3, $4, $5, a); else abnormal++
	total++
}
END {
	printf "\n%-12s %-24s %-24s %s\n", "class", "fit: median   max    n", "held-out: median max n", "all: median   max    n"
	split("nvlink pcie ib roce small nonar iter", cls, " ")
	for (i = 1; i <= 7; i++)
		printf "%-12s %s   %s   %s\n", cls[i], stat(cls[i] SUBSEP "fit"), stat(cls[i] SUBSEP "held"), stat(cls[i] SUBSEP "all")
	printf "\ntargets (absolute error)\n"
	printf "%-34s %s   held-out %s\n", "busbw, all bandwidth cases", stat("busbw" SUBSEP "all"), stat("busbw" SUBSEP "held")
	printf "%-34s %s   held-out %s\n", "large messages (>= 64 MiB)", stat("large" SUBSEP "all"), stat("large" SUBSEP "held")
	printf "%-34s %s   held-out %s\n", "small-message time", stat("smalltime" SUBSEP "all"), stat("smalltime" SUBSEP "held")
	printf "%-34s %s   held-out %s\n", "iteration time", stat("itertime" SUBSEP "all"), stat("itertime" SUBSEP "held")
	printf "\nhealthy cases only (%d reported abnormal by their sources left out)\n", abnormal
	printf "%-34s %s   held-out %s\n", "busbw, all bandwidth cases", stat("hbusbw" SUBSEP "all"), stat("hbusbw" SUBSEP "held")
	printf "%-34s %s   held-out %s\n", "large messages (>= 64 MiB)", stat("hlarge" SUBSEP "all"), stat("hlarge" SUBSEP "held")
	printf "%-34s %s   held-out %s\n", "small-message time", stat("hsmalltime" SUBSEP "all"), stat("hsmalltime" SUBSEP "held")
	printf "%-34s %s   held-out %s\n", "iteration time", stat("hitertime" SUBSEP "all"), stat("hitertime" SUBSEP "held")
	m1 = mx["large" SUBSEP "all"]; hm1 = mx["hlarge" SUBSEP "all"]; im = mx["itertime" SUBSEP "all"]
	b = med("busbw" SUBSEP "all"); sm = med("smalltime" SUBSEP "all"); it = med("itertime" SUBSEP "all")
	hb = med("hbusbw" SUBSEP "all"); hsm = med("hsmalltime" SUBSEP "all")
	printf "\ntargets: busbw median <= 5 %%: %s (%.1f %%; healthy %.1f %%); every healthy large-message case within 20 %%: %s (worst healthy %.1f %%, worst of all %.1f %%);\n", \
		(b <= 5 ? "met" : "missed"), b, hb, (hm1 <= 20 ? "met" : "missed"), hm1, m1
	printf "         small-message median <= 15 %%: %s (%.1f %%; healthy %.1f %%); iteration median <= 15 %%: %s (%.1f %%), max <= 40 %%: %s (%.1f %%)\n", \
		(sm <= 15 ? "met" : "missed"), sm, hsm, (it <= 15 ? "met" : "missed"), it, (im <= 40 ? "met" : "missed"), im
	printf "%d cases, %d healthy\n", total, total - abnormal
}' "$out"
