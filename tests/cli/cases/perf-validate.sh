# make validate-perf's report on three of its cases (one per metric).
grep -e '^nv-a100x8-175' -e '^sm-h20x8-4b-303' -e '^it-rn101-8' \
	tests/data/perf-validation/cases.tsv >"$TMP/cases.tsv"
sh scripts/validate-perf.sh "$GPUPLAN" "$TMP/cases.tsv"
echo "[exit $?]"
