# Help and man page agree: every option `gpuplan help CMD` lists is in
# the man page's subsections for CMD (its own, `.Ss gpuplan CMD...`, and the
# topics named below), under its long or its short name; and every option
# CMD's own subsections introduce (.Op Fl, .It Fl) is in the help.
MAN=$ROOT/man/gpuplan.1
topics() { # CMD -> title prefixes of the topic subsections its options live in
	case $1 in
	simulate) echo "Preemption|Failures in the simulator|Predicted sharing|Scaled durations|Fractional sharing|Development environments|Traces" ;;
	compare) echo "gpuplan simulate|Preemption|Failures in the simulator|Predicted sharing|Scaled durations|Fractional sharing|Traces" ;;
	place) echo "Policies" ;;
	whatif) echo "What-if specs" ;;
	esac
}
# Subsections whose options live in a usage of their own, not `help CMD`
# (none: a command's help lists its subcommands' options too).
SEPARATE=""
part() { # CMD own|all: the man text of its subsections
	awk -v sep="$SEPARATE" -v cmd="gpuplan $1" -v more="$(if [ "$2" = all ]; then topics "$1"; fi)" '
		BEGIN { n = split(more, w, "|") }
		/^\.S[hs] / { t = $0; sub(/^\.S[hs] /, "", t); on = index(t " ", cmd " ") == 1 && t != sep
			for (i = 1; i <= n; i++) if (index(t, w[i]) == 1) on = 1 }
		on' "$MAN"
}
{
for cmd in $("$GPUPLAN" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
	"$GPUPLAN" help "$cmd" >"$TMP/h"
	part "$cmd" all >"$TMP/all"
	part "$cmd" own | grep -E '^\.(Op|It) Fl ' | grep -oE -- 'Fl \\?-[a-z][a-z0-9-]*' |
		sed -E 's/^Fl \\?-/--/' | LC_ALL=C sort -u >"$TMP/intro"
	grep -oE -- "(^|[^a-z0-9'-])--[a-z][a-z0-9-]*" "$TMP/h" | sed 's/^[^-]*//' | grep -vx -- '--help' |
		LC_ALL=C sort -u >"$TMP/help"
	while read -r o; do
		short=$(grep -oE -- "-[a-zA-Z], $o([ =]|\$)" "$TMP/h" | head -1 | cut -c2)
		o1=${o#-}
		grep -qE -- '(Fl \\?|\\-\\)'"$o1"'([^a-z0-9-]|$)' "$TMP/all" && continue
		[ -n "$short" ] && grep -qE "Fl $short( |\$)" "$TMP/all" && continue
		echo "$cmd: $o is in help, not in the man page"
	done <"$TMP/help"
	comm -13 "$TMP/help" "$TMP/intro" | sed "s/^\(.*\)/$cmd: \1 is in the man page, not in help/"
done
} >"$TMP/diff"
if [ -s "$TMP/diff" ]; then cat "$TMP/diff"; else echo "help and man page agree on the options of every command"; fi
