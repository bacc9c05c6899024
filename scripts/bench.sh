#!/bin/sh
# Benchmarks: each scripts/bench-*.sh prints its own numbers.
set -e
cd "$(dirname "$0")/.."
for b in scripts/bench-*.sh; do
	[ -e "$b" ] || continue
	echo "== $b"
	sh "$b"
done
