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
# The weaver's sources are compiled in the batches of weave_lib's unity build: its list in
# tangle/weaver/CMakeLists.txt, 8 at a time (CMake's batch size), each batch one object (issue 31):
# nlohmann's templates are instantiated and instrumented once per batch, not once per file, which
# cut the harness's compile by about half. The batches are the ones the tools' own build compiles,
# so a name that two sources of one batch both define fails that build first.
mkdir -p "$work/unity"
mapfile -t listed < <(sed -n '/^add_library(weave_lib STATIC/,/)/p' "$weaver/CMakeLists.txt" | grep -o '[a-z_0-9]*\.cpp')
for source in "$weaver"/*.cpp; do
  name=$(basename "$source")
  [[ $name == main.cpp || " ${listed[*]} " == *" $name "* ]] ||
    { echo "run-fuzz: $name is not in weave_lib's list (tangle/weaver/CMakeLists.txt)" >&2; exit 2; }
done
sources=("$here/fuzz_weave.cpp" "$tools/front_matter/front_matter.cpp")
declare -A members=()
for (( i = 0; i < ${#listed[@]}; i += 8 )); do
  unity=$work/unity/weaver_$(( i / 8 )).cpp
  members[$unity]=$(printf "$weaver/%s\n" "${listed[@]:i:8}")
  # rewritten only when its list changed, so that its date says when that was
  printf '#include "%s"\n' ${members[$unity]} >"$unity.new"
  if cmp -s "$unity.new" "$unity"; then rm "$unity.new"; else mv "$unity.new" "$unity"; fi
  sources+=("$unity")
done
# Each object is rebuilt only when its source (a batch: or one of its members), or any header, is
# newer than it; those that are, are compiled FUZZ_JOBS at a time, each written under a temporary
# name, renamed when whole and dated when its compile began (a header changed during the compile is
# newer, and rebuilds it next time).
objects=()
stale=()
newest_header=$(ls -t "$weaver"/*.h "$tools"/front_matter/*.h | head -1)
for source in "${sources[@]}"; do
  object=$work/objects/$(basename "$(dirname "$source")")_$(basename "${source%.cpp}").o
  # shellcheck disable=SC2086 (a batch's members: one path a line, none with a space)
  if [[ ! -f $object || $source -nt $object || $newest_header -nt $object ||
        -n $(find ${members[$source]:-} "$source" -newer "$object" | head -1) ]]; then
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
