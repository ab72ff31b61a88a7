#!/usr/bin/env bash
# Does the host's launch rate drift between processes (issue 32, lesson 1.4)? The same two
# results, each in five fresh processes one after another: 1.4's v1 (its own host-rate probes
# before and after, launch_tp_before_time and launch_tp_after_time) and appendix A's launch
# ceilings. On the GPU machine, after a build:
#   OUT=... experiments/launch-drift/run.sh
set -uo pipefail
source "$(dirname "$0")/../common.sh"
dir=$out/launch-drift; mkdir -p "$dir"
nproc > "$dir/host.txt"; lscpu >> "$dir/host.txt" 2>&1
for i in 1 2 3 4 5; do
  # the console's table (the book's main prints it whatever the format asked); summarize.py reads it
  build/launch_bench --benchmark_filter="$(filter launch/v1_stream@50x1)" \
    > "$dir/launch_v1_$i.txt" 2> "$dir/launch_v1_$i.log"
  build/bench_bench --benchmark_filter="$(filter bench/launch_latency@1)|$(filter bench/launch_throughput@1000)" \
    > "$dir/bench_launch_$i.txt" 2> "$dir/bench_launch_$i.log"
  echo "process pair $i: exit $?"
done
