#!/bin/sh
# Trace-reader speed: the whole Philly table (82,247 rows, 3.4 MB), the
# largest Muri trace and the openb default pod list (8,152 rows), each
# loaded 10 times in one process (file read, detection, parsing, sorting).
# Numbers only, never pass/fail.
set -e
cd "$(dirname "$0")/.."
make -s build/libgpuplan.a
bin=build/bench-trace
CFLAGS_PKG=$(pkg-config --cflags yaml-0.1 jansson gsl 2>/dev/null || true)
LIBS_PKG=$(pkg-config --libs yaml-0.1 jansson gsl 2>/dev/null || echo "-lyaml -ljansson -lgsl -lgslcblas")
${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -Iinclude $CFLAGS_PKG -o $bin scripts/bench-trace.c \
	build/libgpuplan.a $LIBS_PKG -lm
$bin tests/data/traces/philly.csv 10
$bin tests/data/traces/muri-cluster_trace.csv 10
$bin tests/data/openb/openb_pod_list_default.csv 10
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f "philly load peak RSS: %M KiB" $bin tests/data/traces/philly.csv 1 2>&1 >/dev/null
fi
