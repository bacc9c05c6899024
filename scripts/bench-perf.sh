#!/bin/sh
# Perf model timings: the full calibration (38 Sia profiles, GSL fits on
# all rows and on the held-out halves) and the best/worst placement search
# of a job.  Prints numbers; never fails on time.
set -e
cd "$(dirname "$0")/.."
t() { # label, command...
	label=$1; shift
	s=$(date +%s.%N)
	"$@" >/dev/null
	e=$(date +%s.%N)
	echo "$label: $(echo "$e - $s" | bc) s"
}
t "calibrate (all profiles)" ./gpuplan calibrate
t "perf collective x100" sh -c 'for i in $(seq 100); do ./gpuplan perf -c tests/data/perf/cluster.yaml --collective allreduce --size 1GiB --on a,b >/dev/null; done'
t "perf job best/worst (example cluster, 336 GPUs)" ./gpuplan perf -c topologies/example-cluster.yaml tests/data/perf/gpt-1b-8.yaml
