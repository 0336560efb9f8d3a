#!/usr/bin/env bash
# Compile time and memory against depth: a GPT (hidden 64, 4 heads, batch 8,
# seq 16) of 12, 24, 48 and 96 layers through `summa-opt --summa-pipeline`
# (grid 2,2,2) and `summa-compile -O2` (grid 2,2,2, an executable with its
# --check reference); prints wall time, peak memory and the growth factor
# per doubling of layers (the fast-compile target: <= 2.2; at 96 layers
# summa-opt < 10 s and < 1 GiB, summa-compile < 120 s).
#
#   bench/compile_scale.sh [LAYERS...]   (default 12 24 48 96; needs a
#   build in build/ and GNU time at /usr/bin/time)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(12 24 48 96)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

measure() { # prints "seconds kilobytes" of the command
  /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null
  cat "$work/time"
}

printf '%7s %12s %10s %8s %14s %10s %8s\n' layers 'summa-opt s' 'MiB' growth \
  'summa-compile s' 'MiB' growth
prev_opt='' prev_cc=''
for n in "${layers[@]}"; do
  python3 "$here/examples/generate.py" gpt --layers "$n" --hidden 64 --heads 4 \
    --batch 8 --seq 16 -o "$work/gpt$n.mlir"
  read -r opt_s opt_kb < <(measure "$here/build/bin/summa-opt" "$work/gpt$n.mlir" \
    --summa-pipeline="grid=2,2,2" -o /dev/null)
  read -r cc_s cc_kb < <(measure "$here/build/bin/summa-compile" "$work/gpt$n.mlir" \
    --grid=2,2,2 -O2 -o "$work/gpt$n")
  g_opt=-; g_cc=-
  [ -z "$prev_opt" ] || g_opt=$(echo "$opt_s / $prev_opt" | bc -l)
  [ -z "$prev_cc" ] || g_cc=$(echo "$cc_s / $prev_cc" | bc -l)
  printf '%7d %12.2f %10.0f %8.4s %14.2f %10.0f %8.4s\n' "$n" "$opt_s" \
    "$((opt_kb / 1024))" "$g_opt" "$cc_s" "$((cc_kb / 1024))" "$g_cc"
  prev_opt=$opt_s prev_cc=$cc_s
done
