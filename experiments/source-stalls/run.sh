#!/usr/bin/env bash
# Where the warps of a kernel wait, instruction by instruction: Nsight Compute's warp-state
# sampling (SourceCounters, WarpStateStats) over one profiled sample of each result, exported as
# the SASS source page (one row per instruction: executions, and stall samples by reason) and the
# details page. Issue 37's first goal (4.3b's v4, 3.2's v10 beside cuBLAS's SGEMM) and issue 34's
# (4.2's mma.sync product). On the GPU machine, after a build:
#   OUT=... experiments/source-stalls/run.sh [KEY...]
# Writes $OUT/source-stalls/<key>.{sass,details}.csv and a log; summarize.py reads them.
set -uo pipefail
source "$(dirname "$0")/../common.sh"
keys=${*:-attention_hopper/v4_wide_tile@4x16x4096x128x0 matmul/v10_cp_async@4096x4096x4096 \
  matmul/peer_cublas_sgemm@4096x4096x4096 profile/mma_bf16@4096x4096x4096}
dir=$out/source-stalls; mkdir -p "$dir"
for key in $keys; do
  name=$(echo "$key" | tr '/@' '__')
  echo "== $(date -u +%H:%M:%S) source-stalls $key"
  BENCH_PROFILE=1 timeout 240 ncu --clock-control none --profile-from-start off --kernel-name "$no_marker" \
    --section SourceCounters --section WarpStateStats --section LaunchStats --section Occupancy \
    --import-source no -f -o "$dir/$name" "$(binary "$key")" --benchmark_filter="$(filter "$key")" \
    > "$dir/$name.log" 2>&1
  echo "ncu exit $?"; tail -3 "$dir/$name.log"
  ncu --import "$dir/$name.ncu-rep" --page source --print-source sass --csv > "$dir/$name.sass.csv" 2>> "$dir/$name.log"
  echo "source page exit $? ($(wc -l < "$dir/$name.sass.csv") lines)"
  ncu --import "$dir/$name.ncu-rep" --page details --csv > "$dir/$name.details.csv" 2>> "$dir/$name.log"
  rm -f "$dir/$name.ncu-rep"
done
