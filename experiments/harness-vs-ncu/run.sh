#!/usr/bin/env bash
# Why the harness's time sits 10-16% above ncu's duration for some of 2.1's kernels and none of
# others (issue 32): the same results timed by the harness (its JSON) and by ncu's
# gpu__time_duration with its default cache control (flush all) and clock control none, as make
# measure does; with --cache-control none; and with --clock-control base (the base clock). Beside
# each, the SM and DRAM clocks ncu saw. On the GPU machine, after a build:
#   OUT=... experiments/harness-vs-ncu/run.sh
set -uo pipefail
source "$(dirname "$0")/../common.sh"
dir=$out/harness-vs-ncu; mkdir -p "$dir"
keys="coalescing/aos@67108864 coalescing/soa@67108864 coalescing/unit_stride_float4@67108864 coalescing/stride@67108864x8 coalescing/unit_stride@67108864"
all=$(for k in $keys; do printf '(%s)|' "$(filter "$k")"; done); all=${all%|}
build/coalescing_bench --benchmark_filter="$all" > "$dir/harness.txt" 2> "$dir/harness.log"
echo "harness exit $?"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum
for variant in default cache-none clock-base; do
  case $variant in
    default) extra=(--clock-control none) ;;
    cache-none) extra=(--clock-control none --cache-control none) ;;
    clock-base) extra=(--clock-control base) ;;
  esac
  BENCH_PROFILE=1 timeout 120 ncu "${extra[@]}" --profile-from-start off --kernel-name "$no_marker" --csv \
    --nvtx --print-nvtx-rename kernel --metrics "$metrics" build/coalescing_bench --benchmark_filter="$all" \
    > "$dir/ncu-$variant.csv" 2> "$dir/ncu-$variant.log"
  echo "ncu $variant exit $?"
done
