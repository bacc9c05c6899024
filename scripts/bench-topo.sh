#!/bin/sh
# Topology module timings (numbers only, never pass/fail).
set -e
cd "$(dirname "$0")/.."
make -s build/libgpuplan.a
out=$(mktemp)
cc -std=c11 -D_GNU_SOURCE -O2 -Iinclude -o "$out" scripts/bench/bench_topo.c build/libgpuplan.a -lm
"$out" topologies/dgx1-v100-8gpu-4nic-pytorch-ddp-readme.txt \
	topologies/oci-a100-8gpu-18nic-nps4-bigtimcowen.txt
rm -f "$out"
