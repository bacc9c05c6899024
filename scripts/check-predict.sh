#!/bin/sh
# Retrain the bundled predictor models and compare them byte for byte with
# topologies/models/ (run from the repository root); also rebuild the
# execution-time data set from the Gavel and Sia copies in tests/data.
# The commands are the ones that made the shipped files: change both together.
set -e
GPUPLAN=${1:-./gpuplan}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
M=tests/data/gpumemnet
"$GPUPLAN" predict dataset --gavel tests/data/gavel/simulation_throughputs-isolated.json \
	--sia tests/data/sia -o "$tmp/time.csv" >/dev/null
"$GPUPLAN" predict train $M/mlp_data_step1.csv $M/mlp_data_step2.csv --target util \
	--seed 42 -o "$tmp/util.json" >/dev/null
"$GPUPLAN" predict train $M/mlp_data_step1.csv $M/mlp_data_step2.csv --target memory \
	--seed 42 -o "$tmp/memory.json" >/dev/null
"$GPUPLAN" predict train "$tmp/time.csv" --target time --seed 42 --holdout 0 \
	-o "$tmp/time.json" >/dev/null
bad=0
for f in tests/data/predict/time.csv topologies/models/util.json \
	topologies/models/memory.json topologies/models/time.json; do
	if ! cmp -s "$tmp/$(basename "$f")" "$f"; then
		echo "predict: $f differs from what 'gpuplan predict' makes now" >&2
		bad=1
	fi
done
[ $bad = 0 ] && echo "predict: topologies/models/*.json and tests/data/predict/time.csv reproduced byte for byte"
exit $bad
