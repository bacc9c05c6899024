#!/bin/sh
# Predictor and predicted-sharing benchmarks (numbers only, never pass/fail on time):
#  1. training the utilization and memory MLPs on GPUMemNet's 6,000 rows
#     (budget <= 30 s) and the time MLP on the 403 Gavel/Sia rows;
#  2. one job-level prediction (util, memory, time: 5 network runs and
#     the features) on A100 (budget <= 50 us);
#  3. the Philly replay (82,247 jobs, 2,816 GPUs, fifo) plain, and with
#     --policy predicted-share, the interference model and the QoS monitor
#     (--qos-tick 60, 30 % of the jobs LS): budget <= 3x the plain replay.
# The machine may be shared: the 1-minute load average is printed with
# every number.
set -e
cd "$(dirname "$0")/.."
G=./gpuplan
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
M=tests/data/gpumemnet
PHILLY=tests/data/traces/philly.csv
PC=tests/data/sim/philly-cluster.yaml

MEASURE_WIDTH=52
. scripts/bench/measure.sh
echo "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
measure "train util (6,000 rows, 64,32, 200 epochs)" \
	$G predict train $M/mlp_data_step1.csv $M/mlp_data_step2.csv --target util -o "$T/u.json"
measure "train memory (6,000 rows, 64,32, 200 epochs)" \
	$G predict train $M/mlp_data_step1.csv $M/mlp_data_step2.csv --target memory -o "$T/m.json"
measure "train time (403 rows, 64,32, 100 epochs)" \
	$G predict train tests/data/predict/time.csv --target time --holdout 0 -o "$T/t.json"
$G predict workloads/jobs/resnet50-ps.yaml --bench 200000
printf '(load %s)\n' "$(cut -d' ' -f1 /proc/loadavg)"
measure "philly fifo, bestfit (plain)" $G simulate -c $PC $PHILLY --quiet
measure "philly fifo, predicted-share + QoS (tick 60 s)" $G simulate -c $PC $PHILLY --quiet \
	--policy predicted-share --qos-tick 60 --ls-fraction 0.3
measure "philly fifo, bestfit + interference only" $G simulate -c $PC $PHILLY --quiet \
	--interference --ls-fraction 0.3
