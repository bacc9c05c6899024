# Chart titles name the trace file, not its path (which
# was clipped at 800 px), simulate and compare draw the queue-delay CDF next
# to the JCT CDF, and a legend with no free corner goes under the plot.
C=tests/data/sim/small-cluster.yaml
L="$TMP/a-folder-with-a-rather-long-name/and-another-one-below-it/and-a-third-level"
mkdir -p "$L"
cp tests/data/sim/backfill.csv "$L/backfill-trace-with-a-long-file-name.csv"
run simulate -c $C "$L/backfill-trace-with-a-long-file-name.csv" --svg "$TMP/s" >/dev/null
ls "$TMP/s"
for f in "$TMP"/s/*.svg; do
	grep -o '<text x="400" y="[0-9]*" text-anchor="middle"[^>]*>[^<]*' "$f"
done
grep -c "$TMP" "$TMP"/s/*.svg
run compare -c $C tests/data/sim/backfill.csv --queues fifo,sjf --svg "$TMP/c" >/dev/null
ls "$TMP/c"
grep -o 'font-size="12" fill="#555">[^<]*' "$TMP/c/queue-delay-cdf.svg"
grep -c '<polyline' "$TMP/c/queue-delay-cdf.svg"
