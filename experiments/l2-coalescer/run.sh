#!/usr/bin/env bash
# The L2 Request Coalescer's counters for chapter 4.3's v2 (issue 34, goal 3): which lrc__ metrics
# this GPU's ncu has (--query-metrics), then their .sum over one profiled sample of each of the
# chapter's three profiled v2 sizes, beside the L1's load sectors and the L2's sectors from the SMs
# (the two counts the chapter compares). On the GPU machine, after a build:
#   OUT=... experiments/l2-coalescer/run.sh
set -uo pipefail
source "$(dirname "$0")/../common.sh"
dir=$out/l2-coalescer; mkdir -p "$dir"
ncu --query-metrics --csv > "$dir/query-metrics.csv" 2> "$dir/query-metrics.log"
echo "query-metrics exit $? ($(wc -l < "$dir/query-metrics.csv") lines; lrc: $(grep -c '^"\?lrc__' "$dir/query-metrics.csv"))"
lrc=$(grep -o '^"\?lrc__[A-Za-z0-9_]*' "$dir/query-metrics.csv" | tr -d '"' | sort -u | sed 's/$/.sum/' | paste -sd,)
base=lts__t_sectors_srcunit_tex.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,gpu__time_duration.sum
for key in attention/v2_flash@16x16x1024x128x0 attention/v2_flash@1x16x4096x128x0 attention/v2_flash@1x1x16384x128x0; do
  name=$(echo "$key" | tr '/@' '__')
  echo "== $(date -u +%H:%M:%S) l2-coalescer $key"
  BENCH_PROFILE=1 timeout 120 ncu --clock-control none --profile-from-start off --kernel-name "$no_marker" \
    --csv --metrics "$base${lrc:+,$lrc}" "$(binary "$key")" --benchmark_filter="$(filter "$key")" \
    > "$dir/$name.csv" 2> "$dir/$name.log"
  echo "ncu exit $? ($(grep -c lrc__ "$dir/$name.csv") lrc rows)"; grep "==ERROR==" "$dir/$name.csv" "$dir/$name.log" | head -3
done
