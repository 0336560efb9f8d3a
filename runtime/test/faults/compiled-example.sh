#===- compiled-example.sh - run a compiled example several ways ----------===#
#
# Sourced by abi-mismatch.sh and exact-replicas.sh, whose usage is
#
#   SCRIPT SUMMA_COMPILE INPUT.mlir SHIM WORKDIR -- LAUNCHER...
#
# They compile INPUT.mlir into WORKDIR/program, then run it under LAUNCHER
# in several ways; the output of the run named NAME goes to WORKDIR/NAME.out
# and is shown when the run fails its expectation.
#
#===----------------------------------------------------------------------===#

# example_args SCRIPT "$@": checks the usage of SCRIPT and sets compile,
# input, shim, work and preload (LD_PRELOAD's value for the shim); the caller
# then drops its first five arguments.
example_args() {
  script=$1
  shift
  [ $# -ge 6 ] && [ "$5" = "--" ] || {
    echo "usage: $script SUMMA_COMPILE INPUT.mlir SHIM WORKDIR -- LAUNCHER..." >&2
    exit 2
  }
  compile=$1 input=$2 shim=$3 work=$4
  # What LD_PRELOAD takes to load the shim: in a sanitizer build the
  # sanitizer's runtime must come first in the list (as determinism.sh).
  preload=$shim
  asan=$(ldd "$shim" 2>/dev/null | sed -n 's/.*\(libasan\.so[^ ]*\|libclang_rt\.asan[^ ]*\) => \([^ ]*\) .*/\2/p' | head -n 1)
  [ -n "$asan" ] && preload="$asan $shim"
}

# compile_example GRID: compiles the input for GRID (q,q,d) into $program.
compile_example() {
  mkdir -p "$work"
  program=$work/program
  "$compile" "$input" --grid="$1" -o "$program" || { echo "FAIL: compiling $input"; exit 1; }
}

# fail_run NAME WHY: shows the output of run NAME, says WHY it fails, exits 1.
fail_run() {
  cat "$work/$1.out"
  echo "FAIL: $2"
  exit 1
}

# expect_pass NAME WHY COMMAND...: run NAME must exit 0 and print
# "check: PASS", else it fails for WHY.
expect_pass() {
  run=$1 why=$2
  shift 2
  if ! "$@" >"$work/$run.out" 2>&1 || ! grep -q "check: PASS" "$work/$run.out"; then
    fail_run "$run" "$why"
  fi
}

# expect_failure NAME WHY COMMAND...: run NAME must exit non-zero, else it
# fails for WHY.
expect_failure() {
  run=$1 why=$2
  shift 2
  if "$@" >"$work/$run.out" 2>&1; then
    fail_run "$run" "$why"
  fi
}
