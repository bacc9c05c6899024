# The bundled example: two busy days of Philly jobs on the example cluster, and
# the same bytes again for the same seed.
run simulate -c topologies/example-cluster.yaml workloads/philly-2017-11-29.csv --queue backfill --seed 3 --json "$TMP/a.json" \
	--csv "$TMP/a" --svg "$TMP/a"
run simulate -c topologies/example-cluster.yaml workloads/philly-2017-11-29.csv --queue backfill --seed 3 --json "$TMP/b.json" \
	--csv "$TMP/b" --svg "$TMP/b" >/dev/null
cmp "$TMP/a.json" "$TMP/b.json" && echo same json
for f in jobs.csv timeline.csv utilization.svg queue.svg jct-cdf.svg queue-delay-cdf.svg; do
	cmp "$TMP/a/$f" "$TMP/b/$f" && echo "same $f"
done
head -4 "$TMP/a/jobs.csv"
