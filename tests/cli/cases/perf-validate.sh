# make validate-perf's report on three of its cases (one per metric) and
# one whose source reports it as abnormal (left out of the healthy figures).
grep -e '^nv-a100x8-175' -e '^sm-h20x8-4b-303' -e '^it-rn101-8' -e '^na-h100-ag-32n-1218' \
	tests/data/perf-validation/cases.tsv >"$TMP/cases.tsv"
sh scripts/validate-perf.sh "$GPUPLAN" "$TMP/cases.tsv"
echo "[exit $?]"
# A case must say whether it is healthy.
grep '^nv-a100x8-175' tests/data/perf-validation/cases.tsv | sed 's/	healthy$/	fine/' >"$TMP/bad.tsv"
sh scripts/validate-perf.sh "$GPUPLAN" "$TMP/bad.tsv"
echo "[exit $?]"
