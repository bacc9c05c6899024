#!/bin/sh
# The --html pages in a real browser: each page of simulate, compare,
# whatif and perf is rendered by headless chromium at 1280 pixels wide.
# A page passes when its screenshot is not blank (at least three times
# the bytes of a blank page's screenshot: a uniform image compresses to
# almost nothing) and nothing is wider than the window (the document's
# scrollWidth, read by a script added to a copy of the page: the page
# itself has none), and no table is wider than the page (a table scrolls
# in its own box, hiding its last columns).  SHOTS=DIR keeps the
# screenshots to look at.
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
"$G" compare $W --queues fifo,sjf,backfill,las --policies bestfit,first-fit --quiet -j 2 \
	--html "$T/compare.html" >/dev/null
"$G" simulate $W --tenants tests/data/tenants/philly-vcs-example.yaml --queue fifo-skip --quiet \
	--html "$T/simulate-tenants.html" >/dev/null 2>&1
"$G" whatif workloads/whatif-remove-a100.yaml --quiet -j 2 --html "$T/whatif.html" >/dev/null
"$G" whatif tests/data/whatif/robust.yaml --quiet -j 2 --html "$T/whatif-robust.html" >/dev/null 2>&1
"$G" perf --collective allreduce --sweep 8B:8GiB --on h100-r4-0,h100-r4-1 \
	--html "$T/perf-sweep.html" >/dev/null
"$G" perf -c tests/data/perf/cluster.yaml tests/data/perf/gpt-1b-8.yaml --on a:0-3,c:0-3 \
	--html "$T/perf-job.html" >/dev/null

printf '<!DOCTYPE html><html><body></body></html>\n' >"$T/blank.html"
browse --window-size=1280,2000 --screenshot="$T/blank.png" "file://$T/blank.html" >/dev/null
blank=$(wc -c <"$T/blank.png")
fail=0
for page in "$T"/*.html; do
	name=$(basename "$page" .html)
	[ "$name" = blank ] && continue
	browse --window-size=1280,2000 --screenshot="$T/$name.png" "file://$page" >/dev/null
	size=$(wc -c <"$T/$name.png")
	if [ "$size" -lt $((blank * 3)) ]; then
		echo "html-check: $name: the screenshot looks blank ($size bytes, a blank page $blank)" >&2
		fail=1
	fi
	sed 's|</body>|<script>document.body.setAttribute("data-width", document.documentElement.scrollWidth); document.body.setAttribute("data-hidden", Array.from(document.querySelectorAll(".scroll")).filter(e => e.scrollWidth > e.clientWidth + 1).length)</script></body>|' \
		"$page" >"$T/$name.probe.htm"
	dom=$(browse --window-size=1280,800 --dump-dom "file://$T/$name.probe.htm")
	width=$(printf '%s\n' "$dom" | sed -n 's/.*data-width="\([0-9]*\)".*/\1/p' | head -n 1)
	hidden=$(printf '%s\n' "$dom" | sed -n 's/.*data-hidden="\([0-9]*\)".*/\1/p' | head -n 1)
	if [ -z "$width" ] || [ "$width" -gt 1280 ]; then
		echo "html-check: $name: the page is ${width:-?} pixels wide at a 1280-pixel window" >&2
		fail=1
	fi
	# a table wider than the page scrolls in its own box: its right-hand
	# columns are out of sight until the reader finds the scroll bar
	if [ "${hidden:-?}" != 0 ]; then
		echo "html-check: $name: ${hidden:-?} table(s) wider than the page at a 1280-pixel window" >&2
		fail=1
	fi
	if [ -n "${SHOTS:-}" ]; then
		mkdir -p "$SHOTS"
		cp "$T/$name.png" "$SHOTS/"
	fi
done
[ "$fail" = 0 ] && echo "html-check: $(ls "$T"/*.html | grep -vc blank) page(s) rendered"
exit "$fail"
