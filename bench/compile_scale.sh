#!/usr/bin/env bash
# Compile time and memory against depth: a GPT (hidden 64, 4 heads, batch 8,
# seq 16) of 12, 24, 48 and 96 layers through `summa-opt --summa-pipeline`
# (grid 2,2,2) and `summa-compile -O2` (grid 2,2,2, an executable with its
# --check reference); prints wall time, peak memory and the growth factor
# per doubling of layers (the fast-compile target: <= 2.2; at 96 layers
# summa-opt < 10 s and < 1 GiB, summa-compile < 120 s).
#
# Wall time on a shared machine varies by a third from run to run and grows
# faster than the work once the IR outgrows the caches; each time is the
# best of REPEAT runs (default 3; the first run of a size is often the
# slow one: page cache, a busy neighbour). With --instructions
# the growth is also counted in instructions executed (valgrind's callgrind,
# about 60x slower; summa-compile's LLVM backend included, the linker not),
# which is what the compiler's algorithms cost and does not vary.
#
#   bench/compile_scale.sh [--instructions] [LAYERS...]   (default 12 24 48
#   96; needs a build in build/ and GNU time at /usr/bin/time; REPEAT=N in
#   the environment for the runs per measurement)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
count_instructions=0
if [ "${1:-}" = --instructions ]; then
  count_instructions=1
  shift
  command -v valgrind >/dev/null || { echo "--instructions needs valgrind" >&2; exit 2; }
fi
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(12 24 48 96)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

repeat=${REPEAT:-3}
measure() { # prints "seconds kilobytes" of the command: the best time
  local best='' kb=0 s k
  for _ in $(seq "$repeat"); do
    /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null
    read -r s k <"$work/time"
    if [ -z "$best" ] || [ "$(echo "$s < $best" | bc)" = 1 ]; then best=$s; fi
    [ "$k" -gt "$kb" ] && kb=$k
  done
  echo "$best $kb"
}

instructions() { # prints the instructions the command executed
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 \
    >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

growth() { # growth factor of $2 over $1, '-' without a previous value
  if [ -z "$1" ]; then echo -; else echo "$2 / $1" | bc -l; fi
}

printf '%7s %12s %10s %8s %14s %10s %8s\n' layers 'summa-opt s' 'MiB' growth \
  'summa-compile s' 'MiB' growth
prev_opt='' prev_cc='' prev_opt_i='' prev_cc_i=''
for n in "${layers[@]}"; do
  python3 "$here/examples/generate.py" gpt --layers "$n" --hidden 64 --heads 4 \
    --batch 8 --seq 16 -o "$work/gpt$n.mlir"
  read -r opt_s opt_kb < <(measure "$here/build/bin/summa-opt" "$work/gpt$n.mlir" \
    --summa-pipeline="grid=2,2,2" -o /dev/null)
  read -r cc_s cc_kb < <(measure "$here/build/bin/summa-compile" "$work/gpt$n.mlir" \
    --grid=2,2,2 -O2 -o "$work/gpt$n")
  printf '%7d %12.2f %10.0f %8.4s %14.2f %10.0f %8.4s\n' "$n" "$opt_s" \
    "$((opt_kb / 1024))" "$(growth "$prev_opt" "$opt_s")" "$cc_s" \
    "$((cc_kb / 1024))" "$(growth "$prev_cc" "$cc_s")"
  prev_opt=$opt_s prev_cc=$cc_s
  if [ "$count_instructions" = 1 ]; then
    opt_i=$(instructions "$here/build/bin/summa-opt" "$work/gpt$n.mlir" \
      --summa-pipeline="grid=2,2,2" -o /dev/null)
    cc_i=$(instructions "$here/build/bin/summa-compile" "$work/gpt$n.mlir" \
      --grid=2,2,2 -O2 -o "$work/gpt$n")
    printf '%7s %12s %10s %8.4s %14s %10s %8.4s\n' '' \
      "$((opt_i / 1000000))M" '' "$(growth "$prev_opt_i" "$opt_i")" \
      "$((cc_i / 1000000))M" '' "$(growth "$prev_cc_i" "$cc_i")"
    prev_opt_i=$opt_i prev_cc_i=$cc_i
  fi
done
