# --html FILE: one self-contained page (inline CSS and SVG, no script, no
# network) with the inputs, the answer first, the tables and every chart.
W=workloads/philly-2017-11-29.csv
run simulate $W --limit 200 --queue backfill --quiet --html $TMP/out/sim.html | head -n 2
grep -o '<dt>[a-z]*</dt>' $TMP/out/sim.html | tr '\n' ' '; echo
grep -o '<p class="answer">.*</p>' $TMP/out/sim.html
grep -o '<h2>[^<]*</h2>' $TMP/out/sim.html | tr '\n' ' '; echo
grep -o '<caption>[^<]*</caption>' $TMP/out/sim.html | tr '\n' ' '; echo
# each table's first header names its rows (the run-wide figures are no "cluster")
grep -A2 '<caption>' $TMP/out/sim.html | grep '^<tr><th>' | sed 's/<tr><th>//; s/<\/th>.*//' | tr '\n' '|'; echo
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
# each chart's title and axes as simulate's page words them (time in hours)
grep -o '<text [^>]*font-size="1[36]"[^>]*>[^<]*' $TMP/cmp.html | sed 's/.*>//' | tr '\n' '|'; echo
grep -o '<text [^>]*font-size="1[36]"[^>]*>[^<]*' $TMP/out/sim.html | sed 's/.*>//' | tr '\n' '|'; echo
# whatif: the answer, the frontier with the SLO line and the chosen point
sed 's/counts: 0..32/counts: [0, 8, 16, 24]/' workloads/whatif-remove-a100.yaml >$TMP/w.yaml
sed -i 's|\.\./topologies|'"$ROOT"'/topologies|; s|trace: |trace: '"$ROOT"'/workloads/|' $TMP/w.yaml
run whatif $TMP/w.yaml -j 2 --quiet --html $TMP/w.html | tail -n 2
grep -o '<p class="answer">.*</p>' $TMP/w.html
grep -o '<h2>[^<]*</h2>' $TMP/w.html | tr '\n' ' '; echo
grep -o '>SLO: [^<]*<\|>chosen[^<]*<' $TMP/w.html
# a search runs some of the counts: the page says how many, as the text does
$GPUPLAN whatif $TMP/w.yaml -j 1 --search --quiet --html $TMP/ws.html | grep '^search'
grep -o '<dt>search</dt><dd>[^<]*' $TMP/ws.html
# a bad output path fails before the first run
run whatif $TMP/w.yaml -j 1 --quiet --csv /proc/nope/x.csv
# perf: the sweep as a table and a chart, the job's placements side by side
run perf --collective allreduce --sweep 1MiB:16MiB:4 --on h100-r4-0 --html $TMP/p.html | tail -n 1
grep -o '<p class="answer">.*</p>' $TMP/p.html
echo "charts: $(grep -c '^<svg ' $TMP/p.html)"
run perf -c tests/data/perf/cluster.yaml tests/data/perf/gpt-1b-8.yaml --on a:0-3,c:0-3 --html $TMP/j.html | tail -n 1
grep -o '<p class="answer">.*</p>' $TMP/j.html
# an llm job's page: the answer and, as its report, the text printed (the
# figures are the perf model's, checked in llm-perf; here only that they agree)
$GPUPLAN perf workloads/jobs/llama3-70b-64-pp2.yaml --html $TMP/l.html >$TMP/l.txt 2>/dev/null
echo "exit $?"
grep -o '<p class="answer">Job llama3-70b-64-pp2 iterates in [0-9.]* s on 64 H100-SXM5-80GB GPUs' $TMP/l.html |
	sed 's/in [0-9.]* s/in T s/'
sed -n '/<pre>/,/<\/pre>/p' $TMP/l.html | sed 's/<pre>//; s/<\/pre>//; s/&#39;/'"'"'/g' | sed '/^$/d' >$TMP/l.pre
cmp $TMP/l.txt $TMP/l.pre && echo "report = text"
run perf workloads/jobs/llama3-70b-64-pp2.yaml --html /proc/nope/l.html
