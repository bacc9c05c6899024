#!/bin/sh
# The main job on the bundled example cluster and workload: a day of real
# Philly jobs (workloads/philly-2017-10-03.csv) replayed with EASY backfill,
# then the three queue disciplines side by side.
set -e
cd "$(dirname "$0")/.."
C=topologies/example-cluster.yaml
W=workloads/philly-2017-10-03.csv
echo "\$ gpuplan simulate -c $C $W --queue backfill"
./gpuplan simulate -c $C $W --queue backfill --quiet
echo
echo "\$ gpuplan compare -c $C $W --queues fifo,sjf,backfill"
./gpuplan compare -c $C $W --queues fifo,sjf,backfill --quiet
echo
echo "\$ gpuplan place -c $C workloads/jobs/bert-large-ring.yaml"
./gpuplan place -c $C workloads/jobs/bert-large-ring.yaml
