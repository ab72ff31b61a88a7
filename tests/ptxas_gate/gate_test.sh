#!/bin/sh
# gate_test.sh GATE [NVCC REPO]: cmake/ptxas_gate.sh fails a compile in which ptxas reports a
# serialized wgmma (note C7515), and only such a compile. With a fake compiler: the note fails
# the compile, removes its object file and names the source and the kernel; other ptxas output
# passes; the compiler's own failure keeps its status. Given NVCC and the repository, also with
# the real compiler: chapter 3.2b's v1b with its accumulators zeroed in plain C++
# (tests/ptxas_gate/serialized.cu) is refused.
set -u
gate=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "gate_test: $1" >&2; exit 1; }

# fake MESSAGE STATUS ARGS...: writes its -o file, prints MESSAGE to stderr, exits with STATUS.
cat >"$scratch/fake" <<'FAKE'
#!/bin/sh
msg=$1 status=$2
shift 2
while [ $# -gt 0 ]; do
  if [ "$1" = -o ]; then : >"$2"; fi
  shift
done
if [ -n "$msg" ]; then echo "$msg" >&2; fi
exit "$status"
FAKE
chmod +x "$scratch/fake"
note="ptxas info    : (C7515) Potential Performance Loss: wgmma.mma_async instructions are\
 serialized due to non wgmma instructions defining accumulator registers of a wgmma between start\
 and end of the pipeline stage in the function '_Z6kernelv'"

"$gate" "$scratch/fake" "$note" 0 -c kernel.cu -o "$scratch/a.o" 2>"$scratch/err"
rc=$?
[ $rc -eq 1 ] || fail "a compile with a C7515 note exited $rc, not 1"
[ ! -e "$scratch/a.o" ] || fail "a compile with a C7515 note kept its object file"
grep -q "^kernel.cu: error: ptxas serialized the wgmma of" "$scratch/err" ||
  fail "the error does not name the source: $(cat "$scratch/err")"
grep -q "(C7515)" "$scratch/err" || fail "ptxas's own note was not passed through"

"$gate" "$scratch/fake" "ptxas info    : Used 154 registers" 0 -c k.cu -o "$scratch/b.o" \
  2>"$scratch/err" || fail "a compile without the note failed: $(cat "$scratch/err")"
[ -e "$scratch/b.o" ] || fail "a compile without the note lost its object file"

"$gate" "$scratch/fake" "" 2 -c k.cu -o "$scratch/c.o" 2>/dev/null
rc=$?
[ $rc -eq 2 ] || fail "a compiler that failed with 2 came back as $rc"

if [ $# -ge 3 ]; then
  nvcc=$2 repo=$3
  "$gate" "$nvcc" -I"$repo/src" -O3 -gencode=arch=compute_90a,code=sm_90a -std=c++17 \
    -c "$repo/tests/ptxas_gate/serialized.cu" -o "$scratch/v1b.o" 2>"$scratch/err"
  rc=$?
  [ $rc -eq 1 ] || { cat "$scratch/err" >&2; fail "v1b with plain-C++ zeros: exit $rc, not 1"; }
  grep -q "serialized.cu: error: ptxas serialized the wgmma of .*v1_tma_wgmma" "$scratch/err" ||
    fail "v1b with plain-C++ zeros: the error does not name v1_tma_wgmma: $(cat "$scratch/err")"
fi
echo "gate_test: the gate refuses a serialized wgmma and passes everything else"
