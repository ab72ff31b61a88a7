#!/usr/bin/env bash
# The experiments of one device call, after .ci/device-measure (which builds build/): each folder's
# run.sh in turn while time is left (DEADLINE seconds from now, default 200), then one tarball of
# their outputs under $OUT (the device tool brings back at most 8 files).
set -uo pipefail
out=${OUT:?}
started=$(date +%s); deadline=${DEADLINE:-200}
for e in ${EXPERIMENTS:-source-stalls l2-coalescer launch-drift harness-vs-ncu}; do
  left=$(( deadline - ($(date +%s) - started) ))
  if [ "$left" -le 10 ]; then echo "== not run: $e (past the deadline)"; continue; fi
  echo "== $(date -u +%H:%M:%S) experiment $e ($left s left)"
  timeout "$left" bash "experiments/$e/run.sh" > "$out/experiments-$e.log" 2>&1
  echo "exit $?"; tail -5 "$out/experiments-$e.log"
done
cd "$out" || exit 1
made=$(ls -d source-stalls l2-coalescer launch-drift harness-vs-ncu experiments-*.log 2>/dev/null)
[ -z "$made" ] || { tar czf experiments.tgz $made && rm -rf $made; }
ls -la "$out"
