#!/usr/bin/env bash
# unity_fallback.sh <compiler command...>: the compiler launcher of the targets built in unity batches
# (CI_UNITY, CI only; cmake/unity.cmake): a chapter's target, whose sources are compiled through one
# generated file, build/chapter_unity/<target>.<cu|cpp>, that #includes them all, and a tools' test
# binary, through CMake's UNITY_BUILD batches (<target>.dir/Unity/unity_<n>_cxx.cxx). The compilers'
# front ends (cudafe++, cicc, g++) then parse GoogleTest, the CUDA runtime and the headers once per
# batch, not once per file (five of the harness's test files: 12 s of CPU as one, about 45 s apart).
# Two sources may define the same file-local name (an anonymous-namespace constant, a static helper),
# which compiles apart but not together. So where the generated file fails to compile, the names
# its errors say were defined twice are renamed in each source (NAME_unity_<i>) and the batch is
# compiled again as one; where that fails too, or leaves a renamed symbol for the linker, its
# sources are split in two halves, each compiled the same way (as one, or split again), down to a
# source alone, and the objects are joined (ld -r) into the one object the build expects, with one
# depfile: the build then ends as it would without unity, and a source that does not compile alone
# fails with its own error. A collision costs a front end's failed parse, and one per halving where
# renaming did not resolve it (matmul's 16 sources, ten constants defined in several rungs: 14.4
# CPU s renamed, 28.9 in four halves after three failed parses).
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
  # a source alone as itself, unless its extension is not the batch's (a .cu file of host code
  # only in a C++ batch, cmake/host_only.cmake: g++ takes a .cu file for a linker input)
  if ((${#members[@]} == 1)) && [[ ${members[0]##*.} == "$extension" ]]; then
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
  # kept only if no renamed name reaches the linker: a symbol of it undefined (a function a header
  # declares and another object defines) or defined for other objects (external linkage) would
  # fail a link that the sources, compiled apart, pass
  if "${command[@]}" 2>"$log" && ! ${NM:-nm} "$out" | grep -E ' [TDBRUCGS] ' | grep -qE '_unity_[0-9]+'; then
    cat "$log" >&2
    rm -f "$log"
    leaves+=("$object")
    return 0
  fi
  rm -f "$log"
  local half=$(((${#members[@]} + 1) / 2))
  compile "${object%.o}.a.o" "${members[@]:0:half}" && compile "${object%.o}.b.o" "${members[@]:half}"
}

# depfile_without OBJECT.d FILE...: the depfile's rule for the real output, less the files named
# (generated here and removed: a dependency that no longer exists makes Ninja compile every time)
depfile_without() {
  local from=$1
  shift
  sed -e '1s/^[^:]*://' -e 's/\\$//' "$from" | tr ' ' '\n' | grep -v '^$' | grep -vxF -f <(printf '%s\n' "$@") |
    tr '\n' ' ' | { printf '%s: ' "$out"; cat; echo; } >"${args[dep_at]}"
}

mapfile -t members < <(sed -n 's/^#include "\(.*\)"$/\1/p' "$src")
log=$(mktemp "${TMPDIR:-/tmp}/unity_fallback.XXXXXX") || exit 1
if "$@" 2>"$log"; then
  cat "$log" >&2
  rm -f "$log"
  exit 0
fi
first_error=$(grep -m 1 -E 'error' "$log")
# clashes LOG: the file-local names a failed compile's errors say were defined twice, as the front
# ends name them: cudafe++ 'variable "matmul::<unnamed>::kBM" has already been defined', 'invalid
# redeclaration of type name "<unnamed>::Rung"', g++ "redefinition of 'int {anonymous}::one()'" and
# "conflicting declaration 'using Rung = ...'" (an alias):
# the last identifier before any parameter list; one a line
clashes() {
  sed -n -e 's/.*"\([^"]*\)" has already been defined.*/\1/p' \
         -e 's/.*invalid redeclaration of type name "\([^"]*\)".*/\1/p' \
         -e "s/.*redefinition of ['‘]\([^'’]*\)['’].*/\1/p" \
         -e "s/.*conflicting declaration ['‘]using \([A-Za-z_][A-Za-z0-9_]*\) =.*/\1/p" "$1" |
    sed -e 's/(.*//' | grep -oE '[A-Za-z_][A-Za-z0-9_]*$'
}
mapfile -t names < <(clashes "$log" | sort -u)
rm -f "$log"
echo "$src: note: its ${#members[@]} sources did not compile as one translation unit" \
     "(${first_error:-no error line})" >&2
# First, still as one: each source with those names renamed to its own (#define NAME NAME_unity_<i>
# around its #include, #undef after), which is what a name with internal linkage, in a translation
# unit of its own, already is. cudafe++ may name one clash of functions a parse, so a renamed
# compile that fails on further clashes is tried again with those renamed too (at most 4 tries).
# Where renaming does not resolve it (a renamed name that a header, or another source, also uses),
# or leaves a renamed symbol for the linker, the halves below.
renamed="${out%.o}.renamed.$extension"
for ((try = 1; try <= 4 && ${#names[@]} > 0 && ${#names[@]} <= 64; try++)); do
  for ((i = 0; i < ${#members[@]}; i++)); do
    for name in "${names[@]}"; do printf '#define %s %s_unity_%d\n' "$name" "$name" "$i"; done
    printf '#include "%s"\n' "${members[i]}"
    for name in "${names[@]}"; do printf '#undef %s\n' "$name"; done
  done >"$renamed"
  command=("${args[@]}")
  command[src_at]=$renamed
  ((dep_at >= 0)) && command[dep_at]="$out.renamed.d"
  log=$(mktemp "${TMPDIR:-/tmp}/unity_fallback.XXXXXX") || exit 1
  if "${command[@]}" 2>"$log"; then
    # kept only if no renamed name reaches the linker: a symbol of it undefined (a function a
    # header declares and another object defines) or defined for other objects (external
    # linkage) would fail a link that the sources, compiled apart, pass. (nvcc gives an anonymous
    # namespace a name of this translation unit's own, _GLOBAL__N__<hash>_<file>, and its
    # functions global symbols under it, which no other object can name.)
    if ${NM:-nm} "$out" 2>/dev/null | grep -E ' [TDBRUCGS] ' | grep -v '_GLOBAL__N_' | grep -qE '_unity_[0-9]+'; then
      rm -f "$log" "$renamed" "$out.renamed.d" "$out"
      break
    fi
    cat "$log" >&2
    rm -f "$log"
    ((dep_at >= 0)) && depfile_without "$out.renamed.d" "$renamed"
    rm -f "$renamed" "$out.renamed.d"
    echo "$src: note: compiled as one translation unit, ${names[*]} renamed in each source (cmake/unity_fallback.sh)" >&2
    exit 0
  fi
  mapfile -t more < <({ printf '%s\n' "${names[@]}"; clashes "$log"; } | sort -u)
  rm -f "$log" "$renamed" "$out.renamed.d" "$out"
  ((${#more[@]} > ${#names[@]})) || break   # no new clash: renaming cannot resolve it
  names=("${more[@]}")
done
echo "$src: note: compiling its sources in halves (cmake/unity_fallback.sh)" >&2
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
