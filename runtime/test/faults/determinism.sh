#!/bin/sh
#===- determinism.sh - same binary, inputs and grid: bit-identical outputs ===#
#
# usage: determinism.sh [-C SUMMA_COMPILE -i INPUT.mlir -g q,q,d] [-r RUNS]
#                       (-s SHIM | -D) WORKDIR -- COMMAND [ARG]...
#
# Runs COMMAND (a launcher and a program that calls summaRtMain) RUNS times
# (default 2); every rank writes the raw bytes of its output tiles after the
# first call to WORKDIR/run<N>.rank<R>.bin. Then compares the dumps of run 1
# with those of every other run, byte for byte. SUMMA_PROFILE is unset:
# timing must not change results.
#
#   -s SHIM  preload SHIM (libsumma-dump-shim.so), which dumps and also
#            compares every later call (--iters) with the first; an argument
#            @RUN@ in COMMAND, just before the program, marks where: the
#            launcher then starts `env LD_PRELOAD=... program` on every rank
#            and is not preloaded itself (without @RUN@ the whole command
#            is)
#   -D       pass the driver's own --dump option instead (a runtime with
#            --dump FILE)
#
# With -C, first compiles INPUT.mlir with SUMMA_COMPILE for the grid into
# WORKDIR/program; an argument @PROGRAM@ in COMMAND stands for it.
#
#===----------------------------------------------------------------------===#

set -u
compiler= input= grid= runs=2 shim= dumpopt=
while [ $# -gt 0 ]; do
  case $1 in
  -s) shim=$2; shift 2 ;;
  -D) dumpopt=1; shift ;;
  -C) compiler=$2; shift 2 ;;
  -i) input=$2; shift 2 ;;
  -g) grid=$2; shift 2 ;;
  -r) runs=$2; shift 2 ;;
  *) break ;;
  esac
done
[ $# -ge 3 ] && [ "$2" = "--" ] && { [ -n "$shim" ] || [ -n "$dumpopt" ]; } || {
  echo "usage: determinism.sh [-C COMPILER -i INPUT -g GRID] [-r RUNS] (-s SHIM | -D) WORKDIR -- COMMAND..." >&2
  exit 2
}
work=$1
shift 2
fail() { echo "determinism.sh: FAILED: $*"; exit 1; }

rm -rf "$work" && mkdir -p "$work" || exit 1
program="$work/program"
if [ -n "$compiler" ]; then
  echo "determinism.sh: $compiler $input --grid=$grid -o $program"
  "$compiler" "$input" "--grid=$grid" -o "$program" ||
    fail "summa-compile failed"
fi

# The command with @PROGRAM@ replaced, as positional parameters; whether it
# has @RUN@.
marked=
for arg in "$@"; do
  [ "$arg" = "@RUN@" ] && marked=1
  shift
  if [ "$arg" = "@PROGRAM@" ]; then set -- "$@" "$program"; else set -- "$@" "$arg"; fi
done

unset SUMMA_PROFILE
preload=$shim
if [ -n "$shim" ]; then
  # A sanitizer build: its runtime must come first in the preload list.
  asan=$(ldd "$shim" 2>/dev/null | sed -n 's/.*\(libasan\.so[^ ]*\|libclang_rt\.asan[^ ]*\) => \([^ ]*\) .*/\2/p' | head -n 1)
  [ -n "$asan" ] && preload="$asan $shim"
fi
# One run: the command with the dump set up, its output in run<N>.log.
run_once() {
  dump=$1
  shift
  if [ -n "$shim" ] && [ -n "$marked" ]; then
    for arg in "$@"; do
      shift
      if [ "$arg" = "@RUN@" ]; then
        set -- "$@" env "LD_PRELOAD=$preload" "SUMMA_DUMP_OUTPUTS=$dump"
      else
        set -- "$@" "$arg"
      fi
    done
    "$@"
  elif [ -n "$shim" ]; then
    env LD_PRELOAD="$preload" SUMMA_DUMP_OUTPUTS="$dump" "$@"
  else
    "$@" --dump "$dump"
  fi
}

n=1
while [ "$n" -le "$runs" ]; do
  echo "determinism.sh: run $n: $*"
  run_once "$work/run$n.rank%r.bin" "$@" >"$work/run$n.log" 2>&1
  rc=$?
  cat "$work/run$n.log"
  [ "$rc" -eq 0 ] || fail "run $n exited with status $rc"
  ls "$work"/run$n.rank*.bin >/dev/null 2>&1 || fail "run $n dumped nothing"
  n=$((n + 1))
done

ranks=0
for first in "$work"/run1.rank*.bin; do
  ranks=$((ranks + 1))
  n=2
  while [ "$n" -le "$runs" ]; do
    other=$(echo "$first" | sed "s|/run1\.rank|/run$n.rank|")
    [ -f "$other" ] || fail "run $n has no $(basename "$other")"
    cmp "$first" "$other" || fail "$(basename "$first") and $(basename "$other") differ"
    n=$((n + 1))
  done
done
bytes=$(cat "$work"/run1.rank*.bin | wc -c)
echo "determinism.sh: $runs runs, $ranks ranks, $bytes bytes of outputs per run: bit-identical"
