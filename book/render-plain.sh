#!/usr/bin/env bash
# The interim renderer (until the weaver lands): one plain HTML page per chapter, with Pandoc.
# Usage: book/render-plain.sh OUT_DIR. Writes into a temporary folder, then swaps it in whole.
set -euo pipefail
out=${1:?usage: book/render-plain.sh OUT_DIR}
tmp=$(mktemp -d "${out%/}.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
while read -r chapter; do
  case "$chapter" in ''|\#*) continue;; esac
  name=$(basename "$chapter" .md)
  pandoc --standalone --mathml --from markdown --to html5 \
         --metadata pagetitle="$name" "$chapter" -o "$tmp/$name.html"
done < book/chapters.txt
rm -rf "$out"; mv "$tmp" "$out"; trap - EXIT
echo "book: $(ls "$out" | wc -l) pages in $out"
