#!/usr/bin/env bash
# Builds the weaver's libFuzzer harness with clang++ (address and undefined-behaviour sanitizers)
# and runs it. Usage: tests/weave/run-fuzz.sh [SECONDS=20] [WORK_DIR=build-fuzz-weave]
#   New inputs go to WORK_DIR/corpus; the seeds in tests/weave/corpus/ are read, never written.
#   Crashes and leaks are saved as WORK_DIR/crash-* or leak-*; the script then exits non-zero.
set -euo pipefail
seconds=${1:-20}
work=${2:-build-fuzz-weave}
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../../tangle
weaver=$tools/weaver
clang=${CLANGXX:-$(command -v clang++ || command -v clang++-14)}
mkdir -p "$work/corpus" "$work/objects"
work=$(cd "$work" && pwd)
binary=$work/fuzz_weave

flags=(-std=c++20 -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
       -I"$weaver" -I"$tools" -DWEAVE_FIXTURES="\"$here/fixtures\"")
sources=("$here/fuzz_weave.cpp" "$tools/front_matter/front_matter.cpp")
for source in "$weaver"/*.cpp; do [[ $(basename "$source") == main.cpp ]] || sources+=("$source"); done
# Each object is rebuilt only when its source, or any header, is newer than it.
objects=()
newest_header=$(ls -t "$weaver"/*.h "$tools"/front_matter/*.h | head -1)
for source in "${sources[@]}"; do
  object=$work/objects/$(basename "$(dirname "$source")")_$(basename "${source%.cpp}").o
  if [[ ! -f $object || $source -nt $object || $newest_header -nt $object ]]; then
    echo "run-fuzz: compiling $(basename "$source")"
    "$clang" "${flags[@]}" -c "$source" -o "$object"
  fi
  objects+=("$object")
done
"$clang" -fsanitize=fuzzer,address,undefined "${objects[@]}" -lyaml-cpp -lcrypto -lcmark -o "$binary"
cd "$work"
echo "run-fuzz: fuzzing for $seconds s"
nice -n 10 "$binary" -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 -dict="$here/fuzz.dict" \
  -print_final_stats=1 "$work/corpus" "$here/corpus"
