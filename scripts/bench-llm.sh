#!/bin/sh
# Large-model model speed: `estimate` (memory per GPU) and `perf`
# (iteration time on the job's layout) per call, without the file loads,
# on a 3D-parallel 70B job (64 GPUs of the bundled cluster) and on GPT-3
# 175B over 1,024 GPUs and Llama 3.1 405B over 896 GPUs of the validation
# cluster.  Numbers only, never pass/fail (targets: perf < 1 ms, estimate
# < 100 us).
set -e
cd "$(dirname "$0")/.."
make -s build/libgpuplan.a
bin=build/bench-llm
CFLAGS_PKG=$(pkg-config --cflags yaml-0.1 jansson gsl 2>/dev/null || true)
LIBS_PKG=$(pkg-config --libs yaml-0.1 jansson gsl 2>/dev/null || echo "-lyaml -ljansson -lgsl -lgslcblas")
${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -Iinclude $CFLAGS_PKG -o $bin scripts/bench-llm.c \
	build/libgpuplan.a $LIBS_PKG -lm
$bin topologies/example-cluster.yaml tests/data/llm/jobs/llama3-70b-64.yaml 2000
$bin tests/data/llm/validation-cluster.yaml tests/data/llm/jobs/gpt3-175b-3d.yaml 500
$bin tests/data/llm/validation-cluster.yaml tests/data/llm/jobs/llama3-405b-cp.yaml 500
