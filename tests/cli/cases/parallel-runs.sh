# compare -j N and whatif -j N run their runs in N worker processes: every
# output (table, JSON, runs.csv, the charts) is that of -j 1, byte for
# byte; a run's error reads as with -j 1 and leaves no file.
C=tests/data/sim/small-cluster.yaml
T=tests/data/traces/tiresias-60_job.csv
A="--queues fifo,backfill,las --policies bestfit,first-fit --seeds 1,2"
for j in 1 2 3; do
	$GPUPLAN compare -j $j -c $C $T $A >$TMP/t$j.txt
	$GPUPLAN compare -j $j -c $C $T $A --json --csv $TMP/d$j --svg $TMP/d$j >$TMP/j$j.json
done
for j in 2 3; do
	cmp $TMP/t1.txt $TMP/t$j.txt && cmp $TMP/j1.json $TMP/j$j.json && diff -r $TMP/d1 $TMP/d$j &&
		echo "compare -j $j: table, JSON, runs.csv and charts as with -j 1"
done
ls $TMP/d1
run compare -j 2 -c $C $T $A --tick 0.001 --csv $TMP/err
ls $TMP | grep -c "^err$"   # no file, and no folder left
run compare -j 0 -c $C $T
for j in 1 2; do
	$GPUPLAN whatif tests/data/whatif/grid.yaml -j $j --json --csv $TMP/w$j.csv >$TMP/w$j.json
	$GPUPLAN whatif tests/data/whatif/grid.yaml -j $j >$TMP/w$j.txt
done
cmp $TMP/w1.json $TMP/w2.json && cmp $TMP/w1.csv $TMP/w2.csv && cmp $TMP/w1.txt $TMP/w2.txt &&
	echo "whatif -j 2: text, JSON and CSV as with -j 1"
