#!/bin/sh
#===- abi-mismatch.sh - a program refuses a runtime of another version ---===#
#
# usage: abi-mismatch.sh SUMMA_COMPILE INPUT.mlir SHIM WORKDIR -- LAUNCHER...
#
# Compiles INPUT.mlir for [1,1,1] and runs it twice:
#   1. as compiled: --check PASS;
#   2. with SHIM preloaded and SUMMA_SHIM_API_VERSION=999 (the runtime
#      library says it is version 999): the program must exit non-zero
#      before running, with one line naming both versions.
#
#===----------------------------------------------------------------------===#

set -u
. "$(dirname "$0")/compiled-example.sh"
example_args abi-mismatch.sh "$@"
shift 5
compile_example 1,1,1

expect_pass same "the program does not pass --check with its own runtime" \
  "$@" "$program" --check --iters 0
expect_failure other "the program ran against a runtime of API version 999" \
  "$@" env LD_PRELOAD="$preload" SUMMA_SHIM_API_VERSION=999 "$program" \
  --check --iters 0
if ! grep -Eq "^summa: this program was compiled for runtime API version [0-9]+, the runtime library is version 999$" "$work/other.out" ||
   grep -q "check:" "$work/other.out"; then
  fail_run other "the refusal does not name both versions, or the program ran"
fi
echo "abi-mismatch: a runtime library of another API version is refused at start-up"
