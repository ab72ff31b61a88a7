#!/usr/bin/env bash
# Builds the tangler's libFuzzer harness with clang++ (address and undefined-behaviour sanitizers)
# and runs it. Usage: tests/tangle/run-fuzz.sh [SECONDS=20] [WORK_DIR=build-fuzz]
#   New inputs go to WORK_DIR/corpus; the seeds in tests/tangle/corpus/ are read, never written.
#   Crashes are saved as WORK_DIR/crash-*; the script exits non-zero when one is found.
set -euo pipefail
seconds=${1:-20}
work=${2:-build-fuzz}
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
  "$clang" -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$tangler" -I"$tangler/.." "${sources[@]}" -lcmark -lyaml-cpp -o "$binary"
fi
cd "$work"
echo "run-fuzz: fuzzing for $seconds s"
nice -n 10 "$binary" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -dict="$here/fuzz.dict" \
  -print_final_stats=1 "$work/corpus" "$here/corpus"
