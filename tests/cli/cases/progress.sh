# Progress says how far, how long so far and how long still to go, on
# simulate, compare and whatif.  Without a terminal (here a file) each
# update is a line of its own, at most one every few seconds, and the
# last (here: no carriage return, and the last line is the whole count);
# times are wall clock, so they are masked, and how many lines a slow
# machine prints is not pinned.
C=tests/data/sim/small-cluster.yaml
T=tests/data/traces/tiresias-60_job.csv
mask() { sed 's/[0-9][0-9.]*[smhd][0-9]*[smh]* elapsed/T elapsed/; s/ETA [0-9][0-9.]*[smhd][0-9]*[smh]*/ETA T/'; }
$GPUPLAN simulate -c $C $T --progress >/dev/null 2>$TMP/e; echo "[exit $?]"
echo "carriage returns: $(tr -cd '\r' <$TMP/e | wc -c)"
mask <$TMP/e | tail -n 1
$GPUPLAN compare -c $C $T --queues fifo,las -j 1 --progress >/dev/null 2>$TMP/e; echo "[exit $?]"
mask <$TMP/e | tail -n 1
$GPUPLAN compare -c $C $T --queues fifo,las -j 2 --progress >/dev/null 2>$TMP/e; echo "[exit $?]"
mask <$TMP/e | tail -n 1
sed "s|^cluster:.*|cluster: $ROOT/topologies/example-cluster.yaml|; s|counts: 0..32|counts: [0, 16]|; s|^trace: |trace: $ROOT/workloads/|" \
	workloads/whatif-remove-a100.yaml >$TMP/w.yaml
$GPUPLAN whatif $TMP/w.yaml -j 1 --progress >/dev/null 2>$TMP/e; echo "[exit $?]"
mask <$TMP/e | tail -n 1
