# Spec errors name FILE:LINE:COL; bad options are usage errors (exit 2).
hide() { sed "s#$ROOT#\$ROOT#g"; }
printf 'cluster: %s/topologies/example-cluster.yaml\ntrace: %s/workloads/philly-2017-11-29.csv\naxes:\n  add_nodes: {type: hgx-h200, counts: [0, 1]}\n' "$ROOT" "$ROOT" >$TMP/badtype.yaml
run whatif $TMP/badtype.yaml 2>&1 | hide
printf 'cluster: %s/topologies/example-cluster.yaml\ntrace: %s/workloads/philly-2017-11-29.csv\naxes:\n  remove_nodes: {type: pcie-a100, switch: eth-leaf-0, counts: [0, 5]}\n' "$ROOT" "$ROOT" >$TMP/toomany.yaml
run whatif $TMP/toomany.yaml
printf 'cluster: x.yaml\ntrace: t.csv\nslo: {metric: jct.p95, max: 1h}\n' >$TMP/metric.yaml
run whatif $TMP/metric.yaml
# bounds no metric can reach: a negative time, a share above 100 %
printf 'cluster: x.yaml\ntrace: t.csv\nslo: {metric: queue_delay.p90, max: -1h}\n' >$TMP/neg.yaml
run whatif $TMP/neg.yaml
printf 'cluster: x.yaml\ntrace: t.csv\nslo: {metric: gpu_utilization, min: 120%%}\n' >$TMP/over.yaml
run whatif $TMP/over.yaml
printf 'cluster: x.yaml\ntrace: t.csv\naxes:\n  fabric: {switch: s, techs: [ib-hdr, fast]}\n' >$TMP/tech.yaml
run whatif $TMP/tech.yaml
printf 'cluster: x.yaml\ntrace: t.csv\nqueues: [fifo]\n' >$TMP/key.yaml
run whatif $TMP/key.yaml
run whatif tests/data/whatif/grid.yaml --slice 3/2
run whatif tests/data/whatif/grid.yaml --slice 1/2 --search
run whatif tests/data/whatif/grid.yaml -j 0
run whatif workloads/whatif-add-h100.yaml --metric p99
# --json takes no value: the word after it is named as one argument too many
run whatif workloads/whatif-add-h100.yaml --json out.json
printf 'cluster: %s/topologies/example-cluster.yaml\ntrace: %s/workloads/philly-2017-11-29.csv\n' "$ROOT" "$ROOT" >$TMP/plain.yaml
run whatif $TMP/plain.yaml --search
echo 'not a database' >$TMP/junk.sqlite
run whatif tests/data/whatif/grid.yaml --db $TMP/junk.sqlite
run whatif merge $TMP/junk.sqlite -o $TMP/out.sqlite
run whatif merge $TMP/none.sqlite -o $TMP/out.sqlite
run whatif merge $TMP/none.sqlite
