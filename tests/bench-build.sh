#!/usr/bin/env bash
# The build's speed, as a reader of the book's sources meets it (a benchmark, not a test: its
# numbers depend on the machine and on what else runs there, so nothing here fails on a time).
#   tests/bench-build.sh [--keep]
# 1. cold: a copy of the working tree (tracked and untracked-but-not-ignored files: no build/, no
#    book/node_modules) in a fresh folder, then `make book` there with MEASURE=0 (as on a machine
#    without a GPU: tangle, weave, render; no CUDA compiled). Goal: under 120 s on 2 cores.
# 2. prose edit: one sentence added to a chapter's prose, then `make book` again; reported is the
#    time until that chapter's page in build/book holds the sentence (watched from outside, while
#    make book goes on to the search index, the print view and the EPUB) and the whole command,
#    after which the search index, the print view and the EPUB must hold the sentence too.
#    BENCH_EDITS=N edits one after another (default 3), then the medians. Goal: the page under 2 s.
# 3. the same again with nothing changed (the no-op floor: make, cmake, tangle, weave, render).
# Prints one line per measurement and the user/system CPU seconds beside the wall time; the load
# average is printed too, since other work on the machine stretches every wall time.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
keep=0; [ "${1:-}" = --keep ] && keep=1
# BENCH_WARM=DIR: reuse a copy made by an earlier run with --keep (its build/ warm): no cold build
if [ -n "${BENCH_WARM:-}" ]; then
  work=$BENCH_WARM
else
  work=$(mktemp -d /tmp/bench-build.XXXXXX)
  [ $keep -eq 1 ] || trap 'rm -rf "$work"' EXIT
  cd "$repo" && git ls-files -co --exclude-standard | tar -cf - -T - | tar -xf - -C "$work"
fi
cd "$work"
chapter=${BENCH_CHAPTER:-chapters/A-bench.md}
page=build/book/$(basename "$chapter" .md).html

timed() {   # timed LABEL COMMAND...: runs it, prints wall and CPU seconds
  local label=$1; shift
  local start end
  start=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$work/.cpu" "$@" >"$work/.log" 2>&1 || { cat "$work/.log"; echo "bench-build: $label failed"; exit 1; }
  end=$(date +%s.%N)
  read -r user sys < "$work/.cpu"
  echo "$end - $start" | bc > "$work/.wall"
  printf 'bench-build: %-28s %7.2f s wall (%6.2f s user, %5.2f s system; load %s)\n' "$label" \
    "$(cat "$work/.wall")" "$user" "$sys" "$(cut -d' ' -f1 /proc/loadavg)"
}

echo "bench-build: $(nproc) cores; working copy in $work"
if [ -z "${BENCH_WARM:-}" ]; then
  timed 'cold make book' make book MEASURE=0
  grep -E '^render: [0-9]' "$work/.log" | sed 's/^/bench-build:   /' | cut -c1-200
fi

edits=${BENCH_EDITS:-3}   # prose edits measured, one after another (the median is printed too)
pages=(); books=()
for run in $(seq "$edits"); do
  # a sentence of prose after the chapter's first paragraph of prose (not in code, not in a table)
  token="bench$$x${RANDOM}x$run"   # one word (the EPUB wraps lines), never rendered before
  mark="A sentence added by the build benchmark, run $token."
  python3 - "$chapter" "$mark" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path, encoding='utf-8').read()
body = text.index('\n---', 4) + 4
# the end of the first paragraph of plain prose: lines that open with a letter, a blank line after
m = re.search(r'\n\n((?:[A-Z][^\n]*\n)(?:[A-Za-z(][^\n]*\n)*)\n', text[body:])
at = body + m.end(1) - 1
open(path, 'w', encoding='utf-8').write(text[:at] + ' ' + sys.argv[2] + text[at:])
PY
  # the page is in place when build/book/<page> holds the sentence: watched while make book runs,
  # whether or not make book has returned by then
  ( start=$(date +%s.%N)
    n=0; until grep -qF "$mark" "$page" 2>/dev/null || [ $n -gt 12000 ]; do sleep 0.05; n=$((n + 1)); done
    echo "$(date +%s.%N) - $start" | bc > "$work/.page" ) &
  watcher=$!
  timed 'prose edit: make book' make book MEASURE=0
  wait $watcher
  seconds=$(cat "$work/.page")
  printf 'bench-build: %-28s %7.2f s from the start of make book to the new page in build/book\n' \
    'prose edit: page' "$seconds"
  pages+=("$seconds"); books+=("$(cat "$work/.wall")")
  grep -E '^render: [0-9]' "$work/.log" | sed 's/^/bench-build:   /' | cut -c1-200
  # when make book has returned, everything made from the pages holds the sentence too
  for made in search-index.js print.html; do
    grep -qF "$token" "build/book/$made" || { echo "bench-build: $made lacks the edit"; exit 1; }
  done
  # (grep reads all of unzip's output: with -q it would stop early, and pipefail see unzip's SIGPIPE)
  unzip -p build/book/kernels-and-the-machine.epub | grep -F "$token" >/dev/null ||
    { echo "bench-build: the EPUB lacks the edit"; exit 1; }
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
if [ "$edits" -gt 1 ]; then
  printf 'bench-build: %-28s %7.2f s median of %d (%s)\n' 'prose edit: page' "$(median "${pages[@]}")" \
    "$edits" "${pages[*]}"
  printf 'bench-build: %-28s %7.2f s median of %d (%s)\n' 'prose edit: make book' "$(median "${books[@]}")" \
    "$edits" "${books[*]}"
fi
timed 'no change: make book' make book MEASURE=0
grep -E '^render: [0-9]' "$work/.log" | sed 's/^/bench-build:   /' | cut -c1-200
