#!/usr/bin/env bash
# What ncu's time per chapter is made of (issue 30, five minutes): the same profiled results run
# under ncu as make measure runs them, with three metric sets: the book's whole set
# (book/ncu-metrics.txt), the metrics that feed the quantities the chapters read for that binary's
# keys, and the roofline's core (time, DRAM, L2, L1, FLOPs). Each run's wall time and the passes
# ncu reports per kernel. On the GPU machine, after a build:
#   OUT=... experiments/ncu-metric-sets/run.sh
set -uo pipefail
source "$(dirname "$0")/../common.sh"
dir=$out/ncu-metric-sets; mkdir -p "$dir"
sets() {  # FAMILY -> three lines: name and comma-joined metrics
  python3 - "$1" <<'PY'
import sys
sys.path.insert(0, 'tangle/measure')
import ncu
whole = ncu.read_metric_file('book/ncu-metrics.txt')
print('whole', ','.join(whole))
print('read', ','.join(ncu.metrics_for(whole, ncu.quantities_read('.', sys.argv[1]))))
print('core', ','.join(ncu.metrics_for(whole, set())))
PY
}
for case in "matmul matmul/v1_naive@4096x4096x4096 matmul/v9_autotuned@4096x4096x4096 matmul/peer_cublas_sgemm@4096x4096x4096 matmul/bf16_mma@4096x4096x4096" \
            "reduce reduce/v1_naive@268435456 reduce/v5_vector_ilp@268435456 reduce/peer_cub_sum@268435456"; do
  set -- $case; family=$1; shift
  all=$(for k in "$@"; do printf '(%s)|' "$(filter "$k")"; done); all=${all%|}
  sets "$family" | while read -r name metrics; do
    start=$(date +%s.%N)
    BENCH_PROFILE=1 timeout 200 ncu --clock-control none --profile-from-start off --kernel-name "$no_marker" --csv \
      --nvtx --print-nvtx-rename kernel --metrics "$metrics" "$(binary "$1")" --benchmark_filter="$all" \
      > "$dir/$family-$name.csv" 2> "$dir/$family-$name.log"
    rc=$?
    end=$(date +%s.%N)
    passes=$(grep -o '[0-9]* passes' "$dir/$family-$name.log" | tr '\n' ' ')
    echo "$family $name: $(echo "$metrics" | tr ',' '\n' | wc -l) metrics, $(python3 -c "print(f'{$end-$start:.1f}')") s, exit $rc, passes: $passes" | tee -a "$dir/summary.txt"
  done
done
