#!/usr/bin/env bash
# unity_fallback.sh <compiler command...>: the compiler launcher of the targets built in unity batches
# (CI_UNITY, CI only; cmake/unity.cmake): a chapter's target, whose sources are compiled through one
# generated file, build/chapter_unity/<target>.<cu|cpp>, that #includes them all, and a tools' test
# binary, through CMake's UNITY_BUILD batches (<target>.dir/Unity/unity_<n>_cxx.cxx). The compilers'
# front ends (cudafe++, cicc, g++) then parse GoogleTest, the CUDA runtime and the headers once per
# batch, not once per file (five of the harness's test files: 12 s of CPU as one, about 45 s apart).
# Two sources may define the same file-local name (an anonymous-namespace constant, a static helper),
# which compiles apart but not together. So where the generated file fails to compile, its sources
# are split in two halves, each compiled the same way (as one, or split again), down to a source
# alone, and the objects are joined (ld -r) into the one object the build expects, with one depfile:
# the build then ends as it would without unity, and a source that does not compile alone fails
# with its own error. A collision costs a front end's failed parse per halving.
# Any other file is compiled by the command unchanged.
set -u
args=("$@")
src_at=-1 out_at=-1 dep_at=-1
for ((i = 0; i < ${#args[@]}; i++)); do
  case "${args[i]}" in
    -c) src_at=$((i + 1)) ;;
    -o) out_at=$((i + 1)) ;;
    -MF) dep_at=$((i + 1)) ;;
  esac
done
if ((src_at < 0 || out_at < 0)) || [[ "${args[src_at]}" != */chapter_unity/* && "${args[src_at]}" != */Unity/unity_* ]]; then
  exec "$@"
fi
src=${args[src_at]} out=${args[out_at]}

extension=${src##*.}
leaves=()     # the objects compiled, each with its depfile beside it
made=()       # every file this script wrote, removed at the end
finish() { rm -f "${made[@]}"; }

# compile OBJECT SOURCE...: the sources as one translation unit (a source alone as itself) into
# OBJECT; where two or more fail together (their errors hidden), each half again
compile() {
  local object=$1
  shift
  local members=("$@") input command log
  if ((${#members[@]} == 1)); then
    input=${members[0]}
  else
    input="${object%.o}.$extension"
    printf '#include "%s"\n' "${members[@]}" >"$input"
    made+=("$input")
  fi
  command=("${args[@]}")
  command[src_at]=$input
  command[out_at]=$object
  ((dep_at >= 0)) && command[dep_at]="$object.d"
  made+=("$object" "$object.d")
  if ((${#members[@]} == 1)); then
    "${command[@]}" || return 1
    leaves+=("$object")
    return 0
  fi
  log=$(mktemp "${TMPDIR:-/tmp}/unity_fallback.XXXXXX") || return 1
  if "${command[@]}" 2>"$log"; then
    cat "$log" >&2
    rm -f "$log"
    leaves+=("$object")
    return 0
  fi
  rm -f "$log"
  local half=$(((${#members[@]} + 1) / 2))
  compile "${object%.o}.a.o" "${members[@]:0:half}" && compile "${object%.o}.b.o" "${members[@]:half}"
}

mapfile -t members < <(sed -n 's/^#include "\(.*\)"$/\1/p' "$src")
log=$(mktemp "${TMPDIR:-/tmp}/unity_fallback.XXXXXX") || exit 1
if "$@" 2>"$log"; then
  cat "$log" >&2
  rm -f "$log"
  exit 0
fi
first_error=$(grep -m 1 -E 'error' "$log")
rm -f "$log"
echo "$src: note: its ${#members[@]} sources did not compile as one translation unit" \
     "(${first_error:-no error line}); compiling them in halves (cmake/unity_fallback.sh)" >&2
half=$(((${#members[@]} + 1) / 2))
base="${out%.o}.unity"
if ! { compile "$base.a.o" "${members[@]:0:half}" && compile "$base.b.o" "${members[@]:half}"; } ||
   ! ${LD:-ld} -r -o "$out" "${leaves[@]}"; then
  finish
  rm -f "$out"
  exit 1
fi
# one depfile for the one object: every leaf's dependencies after "$out:", less the halves' files
# (removed below: a dependency that no longer exists would make Ninja compile the object every time)
if ((dep_at >= 0)); then
  for leaf in "${leaves[@]}"; do
    sed -e '1s/^[^:]*://' -e 's/\\$//' "$leaf.d"
  done | tr ' ' '\n' | grep -v '^$' | grep -vxF -f <(printf '%s\n' "${made[@]}") |
    tr '\n' ' ' | { printf '%s: ' "$out"; cat; echo; } >"${args[dep_at]}"
fi
echo "$src: note: compiled as ${#leaves[@]} translation unit(s)" >&2
finish
exit 0
