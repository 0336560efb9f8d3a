#!/bin/sh
#===- exact-replicas.sh - --exact-replicas fails on one differing bit -----===#
#
# usage: exact-replicas.sh SUMMA_COMPILE INPUT.mlir SHIM WORKDIR -- LAUNCHER...
#
# Compiles INPUT.mlir (a training step, whose updated weights are replicated
# over depth) for [2,2,2] and runs it three times with --check:
#   1. as compiled, with --exact-replicas: PASS, replicas bit-identical;
#   2. with SHIM preloaded and SUMMA_SHIM_PERTURB_RANK=4 (a rank of depth 1
#      flips one bit of its first output after every call), with
#      --exact-replicas: must FAIL and say the replicas differ;
#   3. the same without --exact-replicas: PASS (one bit is within --tol),
#      which is why the option exists.
#
#===----------------------------------------------------------------------===#

set -u
[ $# -ge 6 ] && [ "$5" = "--" ] || {
  echo "usage: exact-replicas.sh SUMMA_COMPILE INPUT.mlir SHIM WORKDIR -- LAUNCHER..." >&2
  exit 2
}
compile=$1 input=$2 shim=$3 work=$4
shift 5
mkdir -p "$work"
program=$work/program
"$compile" "$input" --grid=2,2,2 -o "$program" || { echo "FAIL: compiling $input"; exit 1; }

if ! "$@" "$program" --check --exact-replicas --iters 0 >"$work/clean.out" 2>&1 ||
   ! grep -q "check: PASS" "$work/clean.out"; then
  cat "$work/clean.out"
  echo "FAIL: the unperturbed run does not pass --exact-replicas"
  exit 1
fi

if "$@" env LD_PRELOAD="$shim" SUMMA_SHIM_PERTURB_RANK=4 "$program" \
     --check --exact-replicas --iters 0 >"$work/perturbed.out" 2>&1; then
  cat "$work/perturbed.out"
  echo "FAIL: --exact-replicas passed with one replica one bit off"
  exit 1
fi
if ! grep -q "replicas DIFFER" "$work/perturbed.out" ||
   ! grep -q "check: FAIL" "$work/perturbed.out"; then
  cat "$work/perturbed.out"
  echo "FAIL: the perturbed run failed without saying that replicas differ"
  exit 1
fi

if ! "$@" env LD_PRELOAD="$shim" SUMMA_SHIM_PERTURB_RANK=4 "$program" \
       --check --iters 0 >"$work/tolerant.out" 2>&1 ||
   ! grep -q "check: PASS" "$work/tolerant.out"; then
  cat "$work/tolerant.out"
  echo "FAIL: one bit off should be within --tol without --exact-replicas"
  exit 1
fi
echo "exact-replicas: a one-bit difference between replicas fails --exact-replicas and passes --tol"
