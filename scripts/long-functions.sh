#!/bin/sh
# Files over 800 lines and functions over 120 lines (a function runs from
# its definition at column 0 to the closing brace at column 0).
cd "$(dirname "$0")/.."
echo "files over 800 lines:"
find src -name '*.[ch]' -exec wc -l {} + | awk '$2 != "total" && $1 > 800 {print "  " $1, $2}' | sort -rn
echo "functions over ${1:-120} lines:"
for f in $(find src -name '*.c' | LC_ALL=C sort); do
	awk -v f="$f" -v max="${1:-120}" '
		/^[a-zA-Z].*\(/ && !/;[ \t]*$/ { name = $0; start = NR }
		/^\{/ { if (name != "") open = NR }
		/^\}/ { if (open) { n = NR - start + 1; if (n > max) { sub(/\(.*/, "", name); print "  " n, f ": " name } } open = 0; name = "" }
	' "$f"
done | sort -rn
