#!/usr/bin/env bash
# The follow-up of run.sh: does the gap appear only after the chapter's other benchmarks ran in the
# same process? The five results timed by the harness three ways: in the whole binary (every
# benchmark of chapter 2.1, make measure's order), in the binary without the 512 Mi-element
# results, and alone. On the GPU machine, after a build:  OUT=... experiments/harness-vs-ncu/order.sh
set -uo pipefail
source "$(dirname "$0")/../common.sh"
dir=$out/harness-vs-ncu-order; mkdir -p "$dir"
build/coalescing_bench > "$dir/whole.txt" 2> "$dir/whole.log"; echo "whole exit $?"
build/coalescing_bench --benchmark_filter='^coalescing/[^/]*/(67108864|[0-9]{1,7})(/|$)' > "$dir/no-512mi.txt" 2> "$dir/no-512mi.log"; echo "no-512mi exit $?"
build/coalescing_bench --benchmark_filter='^coalescing/(aos|soa|unit_stride|unit_stride_float4)/67108864/|^coalescing/stride/67108864/8/' \
  > "$dir/alone.txt" 2> "$dir/alone.log"; echo "alone exit $?"
grep -h -E "^coalescing/(aos|soa|unit_stride_float4|unit_stride)/67108864/|^coalescing/stride/67108864/8/" "$dir"/*.txt | awk '{print FILENAME, $1, $2, $3}' FILENAME=x
for f in whole no-512mi alone; do echo "== $f"; grep -E "^coalescing/(aos|soa|unit_stride_float4|unit_stride)/67108864/|^coalescing/stride/67108864/8/" "$dir/$f.txt" | awk '{print $1, $2, $3}'; done
