#!/bin/sh
# The Makefile hands BUILD, CHAPTER and KERNEL to the shell each as one argument, whatever they
# hold (tools.md Z8): `make -n` prints the commands it would run, and each value must be quoted in
# them. tests/makefile_quoting.sh REPO BUILD
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
echo "makefile_quoting: BUILD, CHAPTER and KERNEL are quoted"
