#!/bin/sh
# The nightly fuzz campaign (not part of `make check` or CI): every
# harness of tests/fuzz/ in turn, under ASan+UBSan, until it has run
# FUZZ_RUNS executions (default 10,000,000) or FUZZ_TIME seconds have
# passed (default 5400), over a corpus kept between nights.
#
#   sh scripts/fuzz-nightly.sh                 # all harnesses
#   FUZZ_ONLY=sacct sh scripts/fuzz-nightly.sh # one of them
#   FUZZ_CORPUS=/var/lib/gpuplan-fuzz sh scripts/fuzz-nightly.sh
#
# FUZZ_CORPUS (default build-fuzz/corpus) holds one folder per harness,
# seeded from tests/fuzz/seeds and grown by each night; keep it on a disk
# that survives (a CI cache, a home folder): a fresh corpus spends the
# first million executions finding again what the last night found.
# After a harness has run, its corpus is merged into a minimal one
# (libFuzzer -merge=1), so the folder stays about as big as its coverage.
# A finding stops the campaign (exit 1) and lands in
# build-fuzz/findings/NAME/: reproduce it with build-fuzz/fuzz_NAME FILE,
# fix it, and add the file to tests/fuzz/regress/NAME/.  The summary, one
# line per harness with its executions, is also written to
# build-fuzz/nightly-summary.txt.  Needs clang (libFuzzer); FUZZ_FLAGS
# adds libFuzzer flags (default -max_len=8192).
set -e
cd "$(dirname "$0")/.."
runs=${FUZZ_RUNS:-10000000}
secs=${FUZZ_TIME:-5400}
flags=${FUZZ_FLAGS:--max_len=8192}
corpus=${FUZZ_CORPUS:-build-fuzz/corpus}
summary=build-fuzz/nightly-summary.txt
command -v "${FUZZ_CC:-clang}" >/dev/null || { echo "fuzz-nightly: needs clang (FUZZ_CC)" >&2; exit 2; }
names=$(grep -v '^#' tests/fuzz/seeds | awk 'NF { print $1 }')
[ -z "$FUZZ_ONLY" ] || names=$FUZZ_ONLY
# shellcheck disable=SC2086
make -s $(for n in $names; do printf 'build-fuzz/fuzz_%s ' "$n"; done)
mkdir -p build-fuzz
: >"$summary"
echo "fuzz-nightly: $(date -u +%Y-%m-%dT%H:%MZ), up to $runs executions or $secs s a harness, corpus $corpus" |
	tee -a "$summary"
for name in $names; do
	mkdir -p "$corpus/$name"
	# the seeds and the regressions join the kept corpus (cp -n: a file
	# the corpus grew is not overwritten)
	globs=$(awk -v n="$name" '$1 == n { $1 = ""; print }' tests/fuzz/seeds)
	# shellcheck disable=SC2086
	[ -z "$globs" ] || cp -n $(ls -d $globs 2>/dev/null) "$corpus/$name/" 2>/dev/null || true
	[ -d "tests/fuzz/regress/$name" ] && cp -n tests/fuzz/regress/"$name"/* "$corpus/$name/" 2>/dev/null
	before=$(ls "$corpus/$name" | wc -l)
	# run.sh reads its corpus from build-fuzz/corpus/NAME: point it there
	if [ "$corpus" != build-fuzz/corpus ]; then
		mkdir -p build-fuzz/corpus
		rm -rf "build-fuzz/corpus/$name"
		ln -s "$(cd "$corpus/$name" && pwd)" "build-fuzz/corpus/$name"
	fi
	line=$(FUZZ_ONLY=$name FUZZ_RUNS=$runs FUZZ_FLAGS="$flags" sh tests/fuzz/run.sh fuzz build-fuzz "$secs") || {
		echo "$line" | tee -a "$summary"
		echo "fuzz-nightly: finding in $name: build-fuzz/findings/$name/" | tee -a "$summary"
		exit 1
	}
	# keep the corpus minimal: a merge into a fresh folder, then swapped in
	m="$corpus/.merge-$name"
	rm -rf "$m"
	mkdir -p "$m"
	if build-fuzz/fuzz_"$name" -merge=1 -timeout=10 -rss_limit_mb=2048 "$m" "$corpus/$name" \
		>/dev/null 2>&1; then
		rm -rf "$corpus/$name.old"
		mv "$corpus/$name" "$corpus/$name.old" && mv "$m" "$corpus/$name" && rm -rf "$corpus/$name.old"
	else
		rm -rf "$m"
	fi
	echo "$line (corpus $before -> $(ls "$corpus/$name" | wc -l) files)" | tee -a "$summary"
done
