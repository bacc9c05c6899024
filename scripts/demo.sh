#!/bin/sh
# The main job on the bundled example cluster and workload.
set -e
cd "$(dirname "$0")/.."
./gpuplan --version
