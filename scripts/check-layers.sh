#!/bin/sh
# Layering check: a file may include public headers of its own folder and
# of lower layers only, never of a higher one; every public header
# compiles on its own.  Layers, lowest first (one folder each):
LAYERS="util model io perf predict place sim fgd envs report run whatif cmd"
# sim, fgd and envs are siblings: none of them includes another.
set -eu
cd "$(dirname "$0")/.."
CC=${CC:-cc}
CFLAGS_H=${CFLAGS_H:-}

rank() {
	case $1 in
	util) echo 0 ;; model) echo 1 ;; io) echo 2 ;; perf) echo 3 ;;
	predict) echo 4 ;; place) echo 5 ;; sim | fgd | envs) echo 6 ;;
	report) echo 7 ;; run) echo 8 ;; whatif) echo 9 ;; cmd) echo 10 ;; *) echo 99 ;;
	esac
}

bad=0
for f in $(find src include -name '*.[ch]' | LC_ALL=C sort); do
	case $f in
	src/*) layer=$(echo "$f" | cut -d/ -f2) ;;
	include/gpuplan/*) layer=$(echo "$f" | cut -d/ -f3) ;;
	esac
	[ "$(rank "$layer")" = 99 ] && { echo "check-layers: $f: folder '$layer' is not a known layer" >&2; bad=1; continue; }
	me=$(rank "$layer")
	for inc in $(sed -n 's/^#include "gpuplan\/\([a-z]*\)\/.*/\1/p' "$f" | sort -u); do
		it=$(rank "$inc")
		if [ "$it" -gt "$me" ] || { [ "$it" = "$me" ] && [ "$inc" != "$layer" ]; }; then
			echo "check-layers: $f ($layer) includes a gpuplan/$inc/ header" >&2
			bad=1
		fi
	done
done

# Each public header on its own.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for h in $(find include -name '*.h' | LC_ALL=C sort); do
	printf '#include "%s"\n' "${h#include/}" >"$tmp/t.c"
	if ! $CC -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iinclude $CFLAGS_H \
		-fsyntax-only "$tmp/t.c" 2>"$tmp/err"; then
		echo "check-layers: $h does not compile on its own:" >&2
		head -5 "$tmp/err" >&2
		bad=1
	fi
done
# No circle inside a folder, but for those listed with a reason.
sh scripts/layers-circles.sh >"$tmp/circles"
grep -v '^#' scripts/layers-circles.txt | sed 's/ *#.*//' >"$tmp/kept"
while IFS= read -r c; do
	grep -qxF "$c" "$tmp/kept" || { echo "check-layers: circle of private headers: $c (break it, or list it with why in scripts/layers-circles.txt)" >&2; bad=1; }
done <"$tmp/circles"
while IFS= read -r c; do
	grep -qxF "$c" "$tmp/circles" || { echo "check-layers: scripts/layers-circles.txt: '$c' is no longer a circle: drop the line" >&2; bad=1; }
done <"$tmp/kept"
[ $bad = 0 ] && echo "check-layers: layering, self-contained headers and $(wc -l <"$tmp/circles") listed circles inside folders ok"
exit $bad
