#!/bin/sh
# ptxas_gate.sh <compiler> <arguments...>: runs one CUDA compile and fails it if ptxas reports that
# it serialized a kernel's wgmma (its note C7515, "wgmma.mma_async instructions are serialized").
# ptxas prints that as "info", not as a warning, so -Xptxas -Werror does not catch it; yet a
# serialized wgmma waits for each product before issuing the next, and a kernel built so measures
# something other than its code says (chapter 3.2b, v1b). CMake runs every CUDA compile of the book
# through this script (CMAKE_CUDA_COMPILER_LAUNCHER, set in CMakeLists.txt).
# The compiler's own output passes through unchanged; on the note, the object file is removed so
# that the next build compiles it again, and the exit status is 1.
out=""
src=""
prev=""
for arg in "$@"; do
  case "$prev" in
    -o) out="$arg" ;;
    -c) src="$arg" ;;
  esac
  prev="$arg"
done

log=$(mktemp "${TMPDIR:-/tmp}/ptxas_gate.XXXXXX") || exit 1
"$@" 2>"$log"
status=$?
cat "$log" >&2
if grep -Eq 'C7515|wgmma[^ ]* instructions are serialized' "$log"; then
  kernels=$(grep -Eo "in the function '[^']+'" "$log" | sed "s/in the function '//; s/'\$//" |
            c++filt 2>/dev/null | sort -u | paste -sd ';' -)
  echo "${src:-<unknown source>}: error: ptxas serialized the wgmma of ${kernels:-a kernel}" \
       "(C7515 above): a non-wgmma instruction writes an accumulator register inside a wgmma" \
       "pipeline stage. Zero the accumulators with ptx::zero_registers (chapter 3.2b), not with" \
       "plain C++ assignments, and write them only after wgmma_wait; see cmake/ptxas_gate.sh." >&2
  rm -f "$log"
  [ -n "$out" ] && rm -f "$out"
  exit 1
fi
rm -f "$log"
exit $status
