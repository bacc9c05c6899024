# The what-if database's schema (gpuplan(1), "What-if databases").  A file
# of the first schema (the runs of a sweep, stored by the first schema's
# columns in its column order) is read: the sweep finds its runs, and the
# file is brought to schema 2.  A file of a newer schema is refused (exit 3)
# and left as it was; so is one merged.
"$GPUPLAN" whatif tests/data/whatif/grid.yaml -j 1 --db $TMP/new.sqlite >$TMP/single.txt 2>/dev/null
cols="fingerprint, config, seed, trace, add_nodes, remove_nodes, fabric, queue, policy, mtbf_node, recovery, nodes, gpus, cost, scale_durations, gpuplan_version, spec"
metrics=$(sqlite3 $TMP/new.sqlite "SELECT group_concat(name, ', ') FROM pragma_table_info('runs') WHERE cid >= 17")
sqlite3 $TMP/old.sqlite "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
INSERT INTO meta VALUES ('schema', '1');
ATTACH '$TMP/new.sqlite' AS n;
CREATE TABLE runs AS SELECT $cols, $metrics FROM n.runs;"
sqlite3 $TMP/old.sqlite "SELECT value FROM meta; SELECT count(*) FROM runs"
"$GPUPLAN" whatif tests/data/whatif/grid.yaml --db $TMP/old.sqlite 2>/dev/null >$TMP/old.txt
grep "^runs " $TMP/old.txt
diff $TMP/old.txt $TMP/single.txt | grep -c '^[<>]' | sed 's/^2$/same answer/'
sqlite3 $TMP/old.sqlite "SELECT value FROM meta"
# merge reads either schema, column by column name
run whatif merge $TMP/old.sqlite $TMP/new.sqlite -o $TMP/all.sqlite
# a newer schema
sqlite3 $TMP/newer.sqlite "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
INSERT INTO meta VALUES ('schema', '3');
CREATE TABLE runs (fingerprint TEXT, config TEXT, seed INTEGER)"
run whatif tests/data/whatif/grid.yaml --db $TMP/newer.sqlite
run whatif merge $TMP/newer.sqlite -o $TMP/all.sqlite
sqlite3 $TMP/newer.sqlite "SELECT value FROM meta"
