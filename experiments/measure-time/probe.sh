#!/usr/bin/env bash
# Where make measure's time goes (issue 30's five minutes), on the GPU machine after a build:
#   (1) each benchmark's wall time in the slowest chapters' binaries (a timestamp per output line);
#   (2) ncu's cost on 3.2's matmul_bench: the whole metric set, without the SASS-instrumented and
#       stall metrics, one metric only, and no kernel at all (the process's start-up under ncu).
# Writes its log to $OUT/probe.txt. Usage: experiments/measure-time/probe.sh [ncu | binaries...]
# ("ncu": part 2 only)
set -uo pipefail
out=${OUT:?}
root=$PWD
export LD_LIBRARY_PATH=$root/.deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
exec > >(tee -a "$out/probe.txt") 2>&1
stamp() { python3 -u -c '
import sys, time
t0 = time.time(); last = t0
for line in sys.stdin:
    now = time.time()
    print(f"{now - t0:8.2f} {now - last:7.2f} | {line.rstrip()[:150]}", flush=True)
    last = now'; }
binaries=${*:-profile_bench launch_bench waves_bench hopper_bench}; [ "$binaries" = ncu ] && binaries=
for bin in $binaries; do
  echo "== $bin: wall time per output line (total, since previous line)"
  start=$(date +%s.%N)
  stdbuf -oL -eL build/$bin --benchmark_format=console 2>&1 | stamp | grep -v "^ *[0-9.]* *[0-9.]* | *$"
  echo "== $bin took $(python3 -c "import time; print(round(time.time() - $start, 1))") s"
done
metrics=$(grep -v '^#' book/ncu-metrics.txt | sed 's/#.*//' | tr -s ' \n' '\n' | grep . | paste -sd,)
lean=$(grep -v '^#' book/ncu-metrics.txt | sed 's/#.*//' | tr -s ' \n' '\n' | grep . | grep -v 'sass\|stalled' | paste -sd,)
filter=$(python3 -c "import sys; sys.path.insert(0, 'tangle/measure'); import ncu, re; keys=[k.strip().strip('\"') for k in re.search(r'^profile:\s*\[(.*)\]', open('chapters/3.2-matmul.md').read(), re.M).group(1).split(',')]; print(ncu.chapter_filter(keys))")
echo "== ncu on matmul_bench, filter $filter"
# (3) whether the marker kernel can be left unprofiled: kernels named by their NVTX range
#     (--print-nvtx-rename kernel), and a kernel-name regex that leaves the marker out
nomarker='regex:^(?!bench_profile_marker).*'
for variant in full lean one none rename nomarker full-nomarker; do
  extra=()
  case $variant in
    full) m=$metrics; f=$filter ;;
    lean) m=$lean; f=$filter ;;
    one) m=gpu__time_duration.sum; f=$filter ;;
    none) m=gpu__time_duration.sum; f='^no-such-benchmark$' ;;
    rename) m=gpu__time_duration.sum; f=$filter; extra=(--nvtx --print-nvtx-rename kernel) ;;
    nomarker) m=gpu__time_duration.sum; f=$filter; extra=(--kernel-name "$nomarker") ;;
    full-nomarker) m=$metrics; f=$filter; extra=(--kernel-name "$nomarker") ;;
  esac
  start=$(date +%s.%N)
  BENCH_PROFILE=1 ncu --clock-control none --profile-from-start off --csv "${extra[@]}" --metrics "$m" \
    build/matmul_bench --benchmark_filter="$f" > "$out/ncu-$variant.csv" 2> "$out/ncu-$variant.err"
  rc=$?
  echo "== ncu $variant: rc $rc, $(python3 -c "import time; print(round(time.time() - $start, 1))") s, $(echo "$m" | tr , '\n' | wc -l) metrics, passes: $(cat "$out/ncu-$variant.err" "$out/ncu-$variant.csv" | grep -o '[0-9]* passes' | sort | uniq -c | tr '\n' ' ')"
  tail -3 "$out/ncu-$variant.err"
  echo "   kernels profiled: $(grep -c 'gpu__time_duration.sum' "$out/ncu-$variant.csv"); names: $(cut -d, -f5 "$out/ncu-$variant.csv" | sort | uniq -c | sort -rn | head -4 | tr '\n' ' ' | cut -c1-300)"
done
(cd "$out" && tar czf ncu-probe.tgz ncu-*.csv ncu-*.err && rm -f ncu-*.csv ncu-*.err)
start=$(date +%s.%N)
build/matmul_bench --benchmark_filter="$filter" > /dev/null 2>&1
echo "== matmul_bench alone (same filter, no ncu, full stopping rule): $(python3 -c "import time; print(round(time.time() - $start, 1))") s"
start=$(date +%s.%N)
BENCH_PROFILE=1 build/matmul_bench --benchmark_filter="$filter" > /dev/null 2>&1
echo "== matmul_bench alone with BENCH_PROFILE=1 (one sample each, no ncu): $(python3 -c "import time; print(round(time.time() - $start, 1))") s"
