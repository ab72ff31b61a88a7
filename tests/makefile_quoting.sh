#!/bin/sh
# The Makefile hands BUILD, CHAPTER, KERNEL, GPU and PORT to the shell each as one argument,
# whatever they hold (tools.md Z8, MK01, MK02): `make -n` prints the commands it would run, and
# each value must be quoted in them; and `make -n` runs none of them, the book's and serve's
# sub-make lines included (MK03: make -n book ran the weaver, the render and an injected GPU=).
# tests/makefile_quoting.sh REPO BUILD
set -eu
repo=$1 build=$2
fail() { echo "makefile_quoting: $1" >&2; exit 1; }
out=$(make -n --no-print-directory -C "$repo" measure BUILD="$build" CHAPTER="1.1'; touch pwned")
case $out in
  *"--chapter '1.1'\\''; touch pwned'"*) ;;
  *) fail "CHAPTER is not quoted in: $out" ;;
esac
out=$(make -n --no-print-directory -C "$repo" profile BUILD="$build" KERNEL='reduce/v1 x;id')
case $out in
  *"--build '$build' 'reduce/v1 x;id'"*) ;;
  *) fail "KERNEL or BUILD is not quoted in: $out" ;;
esac
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=$(make -n --no-print-directory -C "$repo" weave BUILD="$build" GPU="x;touch $scratch/gpu")
case $out in
  *"--gpu 'x;touch $scratch/gpu'"*) ;;
  *) fail "GPU is not quoted in: $out" ;;
esac
for measure in 0 1; do
  out=$(make -n --no-print-directory -C "$repo" book BUILD="$build" MEASURE=$measure \
    GPU="x;touch $scratch/book$measure")
  case $out in
    *"--gpu 'x;touch $scratch/book$measure'"*) ;;
    *) fail "GPU is not quoted in make -n book MEASURE=$measure: $out" ;;
  esac
done
out=$(make -n --no-print-directory -C "$repo" serve BUILD="$build" PORT="1 --help;touch $scratch/port")
case $out in
  *"--port '1 --help;touch $scratch/port'"*) ;;
  *) fail "PORT is not quoted in: $out" ;;
esac
[ -z "$(ls -A "$scratch")" ] || fail "make -n ran a command: $(ls "$scratch")"
echo "makefile_quoting: BUILD, CHAPTER, KERNEL, GPU and PORT are quoted; make -n runs nothing"
