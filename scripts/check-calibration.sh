#!/bin/sh
# Regenerate the calibrated perf table and compare it byte for byte with
# src/perf/calibration.c (run from the repository root).
set -e
GPUPLAN=${1:-./gpuplan}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$GPUPLAN" calibrate --gavel tests/data/gavel/simulation_throughputs-isolated.json \
	--write "$tmp/calibration.c" >/dev/null
if cmp -s "$tmp/calibration.c" src/perf/calibration.c; then
	echo "calibration: src/perf/calibration.c reproduced byte for byte"
else
	diff -u src/perf/calibration.c "$tmp/calibration.c" | head -40
	echo "calibration: src/perf/calibration.c differs from 'gpuplan calibrate --write'" >&2
	exit 1
fi
