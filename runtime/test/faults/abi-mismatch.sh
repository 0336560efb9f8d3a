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
[ $# -ge 6 ] && [ "$5" = "--" ] || {
  echo "usage: abi-mismatch.sh SUMMA_COMPILE INPUT.mlir SHIM WORKDIR -- LAUNCHER..." >&2
  exit 2
}
compile=$1 input=$2 shim=$3 work=$4
shift 5
mkdir -p "$work"
program=$work/program
"$compile" "$input" --grid=1,1,1 -o "$program" || { echo "FAIL: compiling $input"; exit 1; }

if ! "$@" "$program" --check --iters 0 >"$work/same.out" 2>&1 ||
   ! grep -q "check: PASS" "$work/same.out"; then
  cat "$work/same.out"
  echo "FAIL: the program does not pass --check with its own runtime"
  exit 1
fi

if "$@" env LD_PRELOAD="$shim" SUMMA_SHIM_API_VERSION=999 "$program" \
     --check --iters 0 >"$work/other.out" 2>&1; then
  cat "$work/other.out"
  echo "FAIL: the program ran against a runtime of API version 999"
  exit 1
fi
if ! grep -Eq "^summa: this program was compiled for runtime API version [0-9]+, the runtime library is version 999$" "$work/other.out" ||
   grep -q "check:" "$work/other.out"; then
  cat "$work/other.out"
  echo "FAIL: the refusal does not name both versions, or the program ran"
  exit 1
fi
echo "abi-mismatch: a runtime library of another API version is refused at start-up"
