# --inflate output files are written together or not at all: when one
# cannot be created, none of the others is left behind.
N=tests/data/openb/tiny_nodes.csv
P=tests/data/openb/tiny_pods.csv
touch "$TMP/f"
run simulate -c $N $P --inflate 1.2 --quiet --json "$TMP/a.json" --events "$TMP/f/missing/e.csv"
ls "$TMP"
run compare -c $N $P --inflate 1.2 --seeds 1-2 --csv "$TMP" --svg "$TMP/f/missing" | tail -1
ls "$TMP"
run compare -c $N $P --inflate 1.2 --seeds 1-2 --csv "$TMP" --svg "$TMP" | tail -1
ls "$TMP"
