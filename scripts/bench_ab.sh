#!/usr/bin/env bash
# Times two builds of the command line against each other on a machine whose speed drifts: their
# `cascade bench` runs interleaved, A B A B …, each with the same arguments.
#   scripts/bench_ab.sh DIR_A DIR_B ROUNDS -- <cascade bench arguments>
# DIR_A and DIR_B each hold a `cascade` binary and the libcascade.so.* it runs with (copied out of
# a build: cp -L build/apps/cascade/cascade build/runtime/libcascade.so.* DIR).
set -euo pipefail
[ $# -ge 4 ] && [ "$4" = "--" ] || { echo "usage: $0 DIR_A DIR_B ROUNDS -- <bench arguments>" >&2; exit 2; }
a=$1 b=$2 rounds=$3
shift 4
for ((i = 1; i <= rounds; i++)); do
  for dir in "$a" "$b"; do
    echo "== $dir, round $i"
    LD_LIBRARY_PATH="$dir" "$dir/cascade" bench "$@" | grep -E '^(copy|sat|cub-sat|iir|gaussian|cufft-gaussian|cv-gaussian|cv-integral) '
  done
done
