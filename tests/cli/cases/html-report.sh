# --html FILE: one self-contained page (inline CSS and SVG, no script, no
# network) with the inputs, the answer first, the tables and every chart.
W=workloads/philly-2017-11-29.csv
run simulate $W --limit 200 --queue backfill --quiet --html $TMP/out/sim.html | head -n 2
grep -o '<dt>[a-z]*</dt>' $TMP/out/sim.html | tr '\n' ' '; echo
grep -o '<p class="answer">.*</p>' $TMP/out/sim.html
grep -o '<h2>[^<]*</h2>' $TMP/out/sim.html | tr '\n' ' '; echo
grep -o '<caption>[^<]*</caption>' $TMP/out/sim.html | tr '\n' ' '; echo
echo "charts: $(grep -c '^<svg ' $TMP/out/sim.html)"
echo "scripts, fetched files, XML declarations: $(grep -Eci '<script|src=|href=|@import|url\(http|<\?xml' $TMP/out/sim.html)"
# every chart clips to an id of its own
grep -o 'id="plot[0-9]*"' $TMP/out/sim.html | sort | uniq -d | wc -l
# same inputs, same bytes
$GPUPLAN simulate $W --limit 200 --queue backfill --quiet --html $TMP/sim2.html >/dev/null
cmp $TMP/out/sim.html $TMP/sim2.html && echo "same bytes"
# a page that cannot be written is found before the run, and nothing is left
run simulate $W --limit 200 --quiet --html /proc/nope/x.html
run simulate $TMP/missing.csv --quiet --html $TMP/none.html
ls $TMP/none.html 2>&1 | sed 's/.*: //'
# compare: the configurations side by side, which leads, the four charts
run compare $W --limit 200 --queues fifo,backfill --quiet -j 1 --html $TMP/cmp.html | tail -n 1
grep -o '<p class="answer">.*</p>' $TMP/cmp.html
grep -o '<th>[^<]*</th>' $TMP/cmp.html | head -n 3 | tr '\n' ' '; echo
echo "charts: $(grep -c '^<svg ' $TMP/cmp.html)"
