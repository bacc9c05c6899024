#!/bin/sh
# The --html pages in a real browser: each page of simulate, compare,
# whatif and perf is rendered by headless chromium at 1280 pixels wide.
# A page passes when its screenshot is not blank (many times the bytes of
# a blank page's screenshot) and nothing is wider than the window (the
# document's scrollWidth, read by a script added to a copy of the page:
# the page itself has none).  SHOTS=DIR keeps the screenshots to look at.
# usage: sh tests/html/check.sh ./gpuplan
set -eu
G=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
	echo "html-check: chromium not found (sh scripts/install-deps.sh installs it)" >&2
	exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-html.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
W=workloads/philly-2017-11-29.csv

# chromium FLAGS... URL: one fresh profile per call, nothing from the network
browse() {
	prof=$(mktemp -d "$T/prof.XXXXXX")
	timeout 120 "$BROWSER" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		--hide-scrollbars "$@" 2>/dev/null
	rm -rf "$prof"
}

"$G" simulate $W --queue backfill --quiet --mtbf-node 2000 --recovery replace \
	--html "$T/simulate.html" >/dev/null
"$G" compare $W --queues fifo,sjf,backfill --quiet -j 1 --html "$T/compare.html" >/dev/null
for extra in "$ROOT"/tests/html/pages.d/*.sh; do
	[ -f "$extra" ] && . "$extra"
done

printf '<!DOCTYPE html><html><body></body></html>\n' >"$T/blank.html"
browse --window-size=1280,2000 --screenshot="$T/blank.png" "file://$T/blank.html" >/dev/null
blank=$(wc -c <"$T/blank.png")
fail=0
for page in "$T"/*.html; do
	name=$(basename "$page" .html)
	[ "$name" = blank ] && continue
	browse --window-size=1280,2000 --screenshot="$T/$name.png" "file://$page" >/dev/null
	size=$(wc -c <"$T/$name.png")
	if [ "$size" -lt $((blank * 10)) ]; then
		echo "html-check: $name: the screenshot looks blank ($size bytes, a blank page $blank)" >&2
		fail=1
	fi
	sed 's|</body>|<script>document.body.setAttribute("data-width", document.documentElement.scrollWidth)</script></body>|' \
		"$page" >"$T/$name.probe.htm"
	width=$(browse --window-size=1280,800 --dump-dom "file://$T/$name.probe.htm" |
		sed -n 's/.*data-width="\([0-9]*\)".*/\1/p' | head -n 1)
	if [ -z "$width" ] || [ "$width" -gt 1280 ]; then
		echo "html-check: $name: the page is ${width:-?} pixels wide at a 1280-pixel window" >&2
		fail=1
	fi
	if [ -n "${SHOTS:-}" ]; then
		mkdir -p "$SHOTS"
		cp "$T/$name.png" "$SHOTS/"
	fi
done
[ "$fail" = 0 ] && echo "html-check: $(ls "$T"/*.html | grep -vc blank) page(s) rendered"
exit "$fail"
