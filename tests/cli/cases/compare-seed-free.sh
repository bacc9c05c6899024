# A configuration that draws nothing from its seeded generators (bestfit
# under fifo: no random policy, no failures, no noise) runs once for all
# its seeds; every other seed's results are its first run's, its summary
# with its own seed.  Each output must be byte for byte that of every
# seed simulated (GPUPLAN_TEST_EVERY_SEED=1), with one process and two.
# random draws its nodes, so each of its seeds runs: of the 2 x 2
# configurations x 3 seeds = 12 runs, bestfit/fifo and bestfit/las
# simulate one each, random/fifo and random/las three: 8.
C=tests/data/sim/small-cluster.yaml
T=tests/data/traces/tiresias-60_job.csv
A="-c $C $T --policies bestfit,random --queues fifo,las --seeds 1-3"
mask() { sed 's/[0-9][0-9.]*[smhd][0-9]*[smh]* elapsed/T elapsed/; s/ETA [0-9][0-9.]*[smhd][0-9]*[smh]*/ETA T/'; }
for j in 1 2; do
	for out in table json files; do
		case $out in
		table) o= ;;
		json) o=--json ;;
		files) o="--csv $TMP/f --svg $TMP/f --html $TMP/f/page.html" ;;
		esac
		for every in 0 1; do
			rm -rf $TMP/f
			GPUPLAN_TEST_EVERY_SEED=$every $GPUPLAN compare $A -j $j $o >$TMP/$every.out 2>&1
			echo "[exit $?]"
			[ $out = files ] && cat $TMP/f/* >$TMP/$every.out
		done
		cmp -s $TMP/0.out $TMP/1.out && echo "-j $j $out: same as every seed run" ||
			diff $TMP/0.out $TMP/1.out
	done
done
# the seeds the bestfit/fifo summaries name, and its JCT's spread (sd 0)
$GPUPLAN compare $A -j 1 --json | jq -c '[.runs[0].seeds[].seed], .runs[0].metrics.jct_mean.sd'
$GPUPLAN compare $A -j 1 --progress 2>&1 >/dev/null | mask | tail -n 1
GPUPLAN_TEST_EVERY_SEED=1 $GPUPLAN compare $A -j 1 --progress 2>&1 >/dev/null | mask | tail -n 1
# failures draw (stateless draws per unit and failure): what-if runs
# every seed of a configuration with failures, and its results are
# those of every seed run
$GPUPLAN whatif tests/data/whatif/failures.yaml -j 1 --metric goodput --db $TMP/a.sqlite >$TMP/a.out 2>&1
GPUPLAN_TEST_EVERY_SEED=1 $GPUPLAN whatif tests/data/whatif/failures.yaml -j 1 --metric goodput \
	--db $TMP/b.sqlite >$TMP/b.out 2>&1
cmp -s $TMP/a.out $TMP/b.out && echo "whatif: same as every seed run"
q='SELECT mtbf_node, recovery, seed, round(goodput, 6) FROM runs ORDER BY mtbf_node, recovery, seed'
[ "$(sqlite3 $TMP/a.sqlite "$q")" = "$(sqlite3 $TMP/b.sqlite "$q")" ] && echo "whatif rows: same"
sqlite3 $TMP/a.sqlite "$q"
