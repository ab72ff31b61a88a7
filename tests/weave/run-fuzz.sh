#!/usr/bin/env bash
# Builds the weaver's libFuzzer harness with clang++ (address and undefined-behaviour sanitizers)
# and runs it. Usage: tests/weave/run-fuzz.sh [SECONDS=20] [WORK_DIR=build-fuzz-weave] [--smoke|--build-only]
#   New inputs go to WORK_DIR/corpus; the seeds in tests/weave/corpus/ are read, never written.
#   Crashes and leaks are saved as WORK_DIR/crash-* or leak-*; the script then exits non-zero.
#   --smoke (ctest's weave_fuzz_short): the seeds and fresh inputs only, each run from an empty
#   corpus of its own (WORK_DIR/smoke-corpus), so its time does not grow with WORK_DIR/corpus.
#   --build-only: builds the harness and stops (the build's `fuzzers` target).
#   FUZZ_OPT: the optimisation and debug flags (default -O1 -g, for the long runs' speed; the
#   build's smoke harness: -O0 -gline-tables-only, compiled in 40% less time, the same sanitizers,
#   and a crash's stack still names file:line). Each WORK_DIR is built with one FUZZ_OPT.
#   The objects are compiled FUZZ_JOBS at a time (default: the machine's cores).
set -euo pipefail
seconds=${1:-20}
work=${2:-build-fuzz-weave}
mode=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
tools=$here/../../tangle
weaver=$tools/weaver
clang=${CLANGXX:-$(command -v clang++ || command -v clang++-14)}
mkdir -p "$work/corpus" "$work/objects"
work=$(cd "$work" && pwd)
binary=$work/fuzz_weave

# shellcheck disable=SC2206 (FUZZ_OPT is a list of flags)
flags=(-std=c++20 ${FUZZ_OPT:--O1 -g} -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
       -I"$weaver" -I"$tools" -DWEAVE_FIXTURES="\"$here/fixtures\"")
sources=("$here/fuzz_weave.cpp" "$tools/front_matter/front_matter.cpp")
for source in "$weaver"/*.cpp; do [[ $(basename "$source") == main.cpp ]] || sources+=("$source"); done
# Each object is rebuilt only when its source, or any header, is newer than it; those that are, are
# compiled FUZZ_JOBS at a time, each written under a temporary name, renamed when whole and dated
# when its compile began (a header changed during the compile is newer, and rebuilds it next time).
objects=()
stale=()
newest_header=$(ls -t "$weaver"/*.h "$tools"/front_matter/*.h | head -1)
for source in "${sources[@]}"; do
  object=$work/objects/$(basename "$(dirname "$source")")_$(basename "${source%.cpp}").o
  if [[ ! -f $object || $source -nt $object || $newest_header -nt $object ]]; then
    stale+=("$source" "$object")
  fi
  objects+=("$object")
done
if [[ ${#stale[@]} -gt 0 ]]; then
  echo "run-fuzz: compiling $(( ${#stale[@]} / 2 )) source(s), ${FUZZ_JOBS:-$(nproc)} at a time"
  printf '%s\0%s\0' "${stale[@]}" |
    xargs -0 -n 2 -P "${FUZZ_JOBS:-$(nproc)}" bash -c \
      'src=${@: -2:1} obj=${@: -1} began=$(date +%s); "$0" "${@:1:$#-2}" -c "$src" -o "$obj.tmp" &&
       touch -d "@$began" "$obj.tmp" && mv "$obj.tmp" "$obj"' \
      "$clang" "${flags[@]}"
fi
if [[ ! -x $binary || -n $(find "${objects[@]}" -newer "$binary" | head -1) ]]; then
  "$clang" -fsanitize=fuzzer,address,undefined "${objects[@]}" -lyaml-cpp -lcrypto -lcmark -o "$binary.tmp"
  mv "$binary.tmp" "$binary"
fi
[[ $mode == --build-only ]] && exit 0
corpus=$work/corpus
if [[ $mode == --smoke ]]; then
  corpus=$work/smoke-corpus
  rm -rf "$corpus" && mkdir -p "$corpus"
fi
cd "$work"
echo "run-fuzz: replaying $(ls "$here/corpus" | wc -l) seed(s) and $(ls "$corpus" | wc -l) input(s) of $corpus, then fuzzing for $seconds s"
nice -n 10 "$binary" -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 -dict="$here/fuzz.dict" \
  -print_final_stats=1 "$corpus" "$here/corpus"
