#!/bin/sh
# The main job on the bundled example cluster (48 nodes, 336 GPUs): place
# one 16-GPU job and say why, replay two busy days of real Philly jobs
# (workloads/philly-2017-11-29.csv, 888 jobs) with EASY backfill, then the
# three queue disciplines side by side (also as one page, demo-report.html).
set -e
cd "$(dirname "$0")/.."
C=topologies/example-cluster.yaml
W=workloads/philly-2017-11-29.csv
echo "\$ gpuplan place -c $C workloads/jobs/bert-large-ring.yaml"
./gpuplan place -c $C workloads/jobs/bert-large-ring.yaml
echo
echo "\$ gpuplan simulate -c $C $W --queue backfill"
./gpuplan simulate -c $C $W --queue backfill --quiet
echo
echo "\$ gpuplan compare -c $C $W --queues fifo,sjf,backfill --html demo-report.html"
./gpuplan compare -c $C $W --queues fifo,sjf,backfill --quiet --html demo-report.html
echo "(demo-report.html: the table and the charts in one page; open it in a browser)"
echo
echo "\$ gpuplan simulate -c $C $W --queue backfill --mtbf-node 200 --recovery replace --checkpoint-interval 3600 --restart-cost 600"
echo "  (node failures every 200 hours per node, worker replacement; the failure summary)"
./gpuplan simulate -c $C $W --queue backfill --quiet --mtbf-node 200 --recovery replace \
	--checkpoint-interval 3600 --restart-cost 600 | tail -n 4
