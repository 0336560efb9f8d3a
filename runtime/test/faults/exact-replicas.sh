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
. "$(dirname "$0")/compiled-example.sh"
example_args exact-replicas.sh "$@"
shift 5
compile_example 2,2,2

expect_pass clean "the unperturbed run does not pass --exact-replicas" \
  "$@" "$program" --check --exact-replicas --iters 0
expect_failure perturbed "--exact-replicas passed with one replica one bit off" \
  "$@" env LD_PRELOAD="$preload" SUMMA_SHIM_PERTURB_RANK=4 "$program" \
  --check --exact-replicas --iters 0
if ! grep -q "replicas DIFFER" "$work/perturbed.out" ||
   ! grep -q "check: FAIL" "$work/perturbed.out"; then
  fail_run perturbed "the perturbed run failed without saying that replicas differ"
fi
expect_pass tolerant "one bit off should be within --tol without --exact-replicas" \
  "$@" env LD_PRELOAD="$preload" SUMMA_SHIM_PERTURB_RANK=4 "$program" \
  --check --iters 0
echo "exact-replicas: a one-bit difference between replicas fails --exact-replicas and passes --tol"
