# Usage and input errors; a failed run leaves no output file behind.
C=tests/data/sim/small-cluster.yaml
run simulate
run simulate -c $C tests/data/sim/backfill.csv --queue lifo
run simulate -c $C tests/data/sim/backfill.csv --policy nosuch
run simulate -c $C tests/data/sim/backfill.csv --seed -3
run simulate -c $C tests/data/sim/backfill.csv --inflate 1.3 --policy nosuch
run simulate -c $C tests/data/sim/backfill.csv extra.csv
run simulate -c $C --json "$TMP/out.json" tests/data/traces/bad/tiresias-gpu-word.csv
ls "$TMP"
run simulate -c $C tests/data/sim/nosuch.csv
touch "$TMP/file0"
run simulate -c $C tests/data/sim/backfill.csv --json "$TMP/file0/out.json"
ls "$TMP"
touch "$TMP/file"
run simulate -c $C tests/data/sim/backfill.csv --csv "$TMP/file"
