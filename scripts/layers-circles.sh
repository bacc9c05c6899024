#!/bin/sh
# Circles inside a folder: file A calls a function that file B defines,
# declared in a private header of the folder (src/FOLDER/*.h) that A
# includes, and B (maybe through others) calls one of A's.  Prints one line per circle:
#   src/FOLDER: a.c b.c ...
set -eu
cd "$(dirname "$0")/.."
for dir in $(find src -mindepth 1 -maxdepth 1 -type d | LC_ALL=C sort); do
	hdrs=$(find "$dir" -name '*.h' | LC_ALL=C sort)
	[ -n "$hdrs" ] || continue
	srcs=$(find "$dir" -name '*.c' | LC_ALL=C sort)
	# H name: functions a private header declares (not its inline ones)
	# D file name: functions a file defines (not static)
	# I file header: private headers a file includes
	{
		for h in $hdrs; do
			awk -v h="$(basename "$h")" '
				/^[ \t]/ || /^(#|static|typedef|extern|struct|enum|union|\/|\*|})/ { next }
				match($0, /[a-z_][a-z0-9_]*\(/) { print "H", h, substr($0, RSTART, RLENGTH - 1) }' "$h"
		done
		for c in $srcs; do
			awk -v f="${c#"$dir"/}" '
				/^#include "/ { s = $2; gsub(/"/, "", s); n = split(s, p, "/"); print "I", f, p[n]; next }
				/^[ \t]/ || /^(#|static|typedef|extern|struct|enum|union|\/|\*|})/ || /;[ \t]*$/ { next }
				match($0, /[a-z_][a-z0-9_]*\(/) { print "D", f, substr($0, RSTART, RLENGTH - 1) }' "$c"
			# U file name: names it uses (any word; only declared ones count)
			sed 's|//.*||' "$c" | tr -c 'A-Za-z0-9_' '\n' | grep -E '^[a-z_][a-z0-9_]*$' | LC_ALL=C sort -u |
				sed "s|^|U ${c#"$dir"/} |"
		done
	} | awk -v dir="$dir" '
		$1 == "H" { decl[$2, $3] = 1; hs[$2] = 1; next }
		$1 == "D" { def[$3] = $2; if (!($2 in id)) { id[$2] = ++n; name[n] = $2 } next }
		$1 == "I" { inc[++ni] = $2 SUBSEP $3; if (!($2 in id)) { id[$2] = ++n; name[n] = $2 } next }
		$1 == "U" { use[$2, $3] = 1; next }
		END {
			for (k = 1; k <= ni; k++) {
				split(inc[k], a, SUBSEP)
				if (!(a[2] in hs)) continue
				for (fn in def) if (((a[2], fn) in decl) && def[fn] != a[1] && ((a[1], fn) in use))
					r[id[a[1]], id[def[fn]]] = 1
			}
			for (k = 1; k <= n; k++) for (i = 1; i <= n; i++) if ((i, k) in r)
				for (j = 1; j <= n; j++) if ((k, j) in r) r[i, j] = 1
			for (i = 1; i <= n; i++) {
				if (done[i]) continue
				line = ""; m = 0
				for (j = 1; j <= n; j++)
					if (j == i || (((i, j) in r) && ((j, i) in r))) { done[j] = 1; if (j != i) m++ }
				if (!m) continue
				for (j = 1; j <= n; j++) if (j == i || (((i, j) in r) && ((j, i) in r))) line = line " " name[j]
				print line
			}
		}' | while read -r files; do
		echo "$dir: $(echo $files | tr ' ' '\n' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')"
	done
done
