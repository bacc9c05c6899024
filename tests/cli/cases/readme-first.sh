# The README opens with the command that writes the demo's HTML report
# (make demo), then the page's own command: both write demo-report.html,
# and the printed command runs as printed (from a copy of the checkout's
# workloads, gpuplan for ./gpuplan).
sed -n '/^```sh/{n;p;q}' README.md
grep -c 'html demo-report.html' scripts/demo.sh
cmd=$(grep -m1 '^\./gpuplan compare .*--html demo-report.html$' README.md)
echo "$cmd"
mkdir -p $TMP/r/workloads && cp workloads/philly-2017-11-29.csv $TMP/r/workloads/
(cd $TMP/r && eval "$(echo "$cmd" | sed "s#^\./gpuplan#$GPUPLAN#") --quiet" >/dev/null 2>&1; echo "exit $?")
grep -o '<p class="answer">.*</p>' $TMP/r/demo-report.html
echo "charts: $(grep -c '^<svg ' $TMP/r/demo-report.html)"
