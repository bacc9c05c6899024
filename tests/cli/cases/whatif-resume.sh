# Resume: a sweep stopped after 5 runs keeps them in the database; the next
# call runs only the other 19 and answers as a single run does.  Slices
# 1/3..3/3 merged give the same answer too.
run whatif tests/data/whatif/grid.yaml -j 2 --db $TMP/a.sqlite --max-runs 5 | head -7
"$GPUPLAN" whatif tests/data/whatif/grid.yaml -j 2 --db $TMP/a.sqlite >$TMP/resumed.txt
grep "^runs " $TMP/resumed.txt
"$GPUPLAN" whatif tests/data/whatif/grid.yaml -j 2 >$TMP/single.txt
diff $TMP/resumed.txt $TMP/single.txt | grep -v '^---' | sed -n '1,20p'
for i in 1 2 3; do run whatif tests/data/whatif/grid.yaml -j 1 --slice $i/3 --db $TMP/part-$i.sqlite; done
run whatif merge $TMP/part-1.sqlite $TMP/part-2.sqlite $TMP/part-3.sqlite -o $TMP/all.sqlite
run whatif merge $TMP/part-1.sqlite -o $TMP/all.sqlite
"$GPUPLAN" whatif tests/data/whatif/grid.yaml --db $TMP/all.sqlite >$TMP/merged.txt
diff $TMP/merged.txt $TMP/single.txt | grep -v '^---' | sed -n '1,20p'
# A third call has nothing left to run.
run whatif tests/data/whatif/grid.yaml --db $TMP/all.sqlite | grep "^runs "
# kill -9 in the middle of a sweep: the rows committed so far stay, and the
# next call finishes with the single run's answer.
"$GPUPLAN" whatif tests/data/whatif/grid.yaml -j 1 --quiet --db $TMP/k.sqlite >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 500 ] && [ "$(sqlite3 $TMP/k.sqlite 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)" = 0 ]; do
	sleep 0.01
	i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
"$GPUPLAN" whatif tests/data/whatif/grid.yaml -j 2 --db $TMP/k.sqlite >$TMP/killed.txt
diff $TMP/killed.txt $TMP/single.txt | grep -c '^[<>]' | sed 's/^[02]$/same answer/'
