# What -q / --quiet does in each command that takes it (gpuplan(1)): each
# keeps its own meaning, and its help says it.
# import: -q silences the warnings, and only them (the summary stays).
run import slurm tests/data/slurm/scontrol-show-node-dccn.txt -o $TMP/c.yaml -q
# simulate inflate: -q leaves out the text report; --json is still written.
D=tests/data/openb
run simulate inflate -c $D/tiny_nodes.csv $D/tiny_pods.csv --inflate 1.2 --json $TMP/i.json -q
jq -c '[.policy, .inflate]' $TMP/i.json
# simulate: --quiet hides the progress only; the bundled cluster's note
# stays; -q is no option of simulate.
run simulate tests/data/sim/backfill.csv --quiet --json $TMP/s.json
run simulate tests/data/sim/backfill.csv -q
for c in "import" "import sacct" "simulate inflate" "simulate"; do
	echo "$c: $($GPUPLAN help $c | grep -m1 -- '--quiet  ' | sed 's/.*--quiet  *//')"
done
