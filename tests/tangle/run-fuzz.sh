#!/usr/bin/env bash
# Builds the tangler's libFuzzer harness with clang++ (address and undefined-behaviour sanitizers)
# and runs it. Usage: tests/tangle/run-fuzz.sh [SECONDS=20] [WORK_DIR=build-fuzz] [--smoke|--build-only]
#   New inputs go to WORK_DIR/corpus; the seeds in tests/tangle/corpus/ are read, never written.
#   Crashes are saved as WORK_DIR/crash-*; the script exits non-zero when one is found.
#   --smoke (ctest's tangle_fuzz_short): the seeds and fresh inputs only, each run from an empty
#   corpus of its own (WORK_DIR/smoke-corpus), so its time does not grow with WORK_DIR/corpus.
#   --build-only: builds the harness and stops (the build's `fuzzers` target).
#   FUZZ_OPT: the optimisation and debug flags (default -O1 -g, for the long runs' speed; the
#   build's smoke harness: -O0 -gline-tables-only, compiled in 40% less time, the same sanitizers,
#   and a crash's stack still names file:line). Each WORK_DIR is built with one FUZZ_OPT.
set -euo pipefail
seconds=${1:-20}
work=${2:-build-fuzz}
mode=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
tangler=$here/../../tangle/tangler
clang=${CLANGXX:-$(command -v clang++ || command -v clang++-14)}
mkdir -p "$work/corpus"
work=$(cd "$work" && pwd)
binary=$work/fuzz_tangle

sources=("$here/fuzz_tangle.cpp" "$tangler"/{attributes,book_index,diagnostic,expander,front_matter,languages,markdown_reader,reference,references,tangler}.cpp
         "$tangler/../front_matter/front_matter.cpp")
# Rebuild only when a source or header is newer than the binary.
if [[ ! -x $binary ]] || [[ -n $(find "$here/fuzz_tangle.cpp" "$tangler" "$tangler/../front_matter" -newer "$binary" -name '*.[ch]*' | head -1) ]]; then
  echo "run-fuzz: building $binary"
  began=$(date +%s)   # the binary is dated then: a source changed during the build rebuilds it next time
  # shellcheck disable=SC2086 (FUZZ_OPT is a list of flags)
  "$clang" -std=c++20 ${FUZZ_OPT:--O1 -g} -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$tangler" -I"$tangler/.." "${sources[@]}" -lcmark -lyaml-cpp -o "$binary.tmp"
  touch -d "@$began" "$binary.tmp"
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
nice -n 10 "$binary" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -dict="$here/fuzz.dict" \
  -print_final_stats=1 "$corpus" "$here/corpus"
