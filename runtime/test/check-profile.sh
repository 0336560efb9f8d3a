#!/bin/sh
#===- check-profile.sh - SUMMA_PROFILE output of the matmul program -------===#
#
# usage: check-profile.sh DIR RANKS -- COMMAND [ARG]...
#
# Runs COMMAND (the matmul driver test under mpirun, grid [2,2,d], default
# --iters 1, so two calls of the spmd function) twice: with
# SUMMA_PROFILE=DIR/p.%r.json and with SUMMA_PROFILE=DIR/plain, and checks
# that every rank wrote its file with the exact counters 2.5D SUMMA implies:
# per call q = 2 broadcasts of X[3,4] f32 (48 bytes) along the row ("col"
# mask), 2 of W[4,5] (80 bytes) along the column ("row" mask), 2 GEMMs of
# 2*3*5*4 = 120 flops. The reference's GEMM on rank 0 is not counted.
# The program uses the blocking collectives only, so no entry has the
# "async" / "wait_seconds" fields (written only when async calls were made,
# as "seconds":S,"async":N,"wait_seconds":W), and every entry ends with its
# "seconds".
#
#===----------------------------------------------------------------------===#

set -u
dir=$1
ranks=$2
shift 3
rm -rf "$dir"
mkdir -p "$dir" || exit 1

failed=0
fail() { echo "check-profile.sh: FAILED: $*"; failed=1; }

SUMMA_PROFILE="$dir/p.%r.json" "$@" || fail "the run with p.%r.json failed"
SUMMA_PROFILE="$dir/plain" "$@" || fail "the run with a plain path failed"

r=0
while [ "$r" -lt "$ranks" ]; do
  for file in "$dir/p.$r.json" "$dir/plain.rank$r.json"; do
    if [ ! -f "$file" ]; then
      fail "$file was not written"
      continue
    fi
    cat "$file"
    for want in \
      "\"rank\":$r," \
      '"grid":\[2,2,' \
      '\{"op":"broadcast","group":"row","count":4,"bytes":320,' \
      '\{"op":"broadcast","group":"col","count":4,"bytes":192,' \
      '"matmul":\{"count":4,"flops":480,'; do
      grep -Eq -- "$want" "$file" || fail "$file does not match /$want/"
    done
    count=$(grep -o '"op"' "$file" | wc -l)
    [ "$count" -eq 2 ] || fail "$file has $count collective entries, not 2"
    ! grep -Eq -- '"async"|"wait_seconds"' "$file" ||
      fail "$file has async fields, but the program made no async calls"
    ended=$(grep -Eo '"bytes":[0-9]+,"seconds":[0-9.e+-]+\}' "$file" | wc -l)
    [ "$ended" -eq 2 ] ||
      fail "$file has $ended entries ending with \"seconds\", not 2"
  done
  r=$((r + 1))
done
[ "$failed" -eq 0 ] && echo "check-profile.sh: all $ranks ranks' profiles are right"
exit "$failed"
