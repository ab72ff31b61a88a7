#!/usr/bin/env bash
# Which way of reading is fastest, from L2 and from DRAM (issue 34 goal 4). On the GPU machine:
#   OUT=... experiments/read-ceilings/run.sh
set -uo pipefail
source "$(dirname "$0")/../common.sh"
dir=$out/read-ceilings; mkdir -p "$dir"
nvcc -O3 -std=c++17 -arch=sm_90a -o "$dir/probe" "$(dirname "$0")/probe.cu" && "$dir/probe" | tee "$dir/output.txt"
rm -f "$dir/probe"
