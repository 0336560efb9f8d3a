#!/usr/bin/env bash
# Times a compiled model on several grids against the unpartitioned
# baseline ([1,1,1], one rank) measured in the same run, and prints the
# ratios. CPU backend; on a machine with fewer cores than ranks the ranks
# are oversubscribed, so the ratios show overheads, not speed-ups.
#   bench/run.sh [--model examples/mlp.mlir] [--iters N] [grid ...]
# e.g. bench/run.sh --iters 50 1,1,1 2,2,1 1,1,2 2,2,2
source "$(dirname "$0")/../scripts/common.sh"

model=$SUMMA_ROOT/examples/mlp.mlir
iters=50
grids=()
while [ $# -gt 0 ]; do
  case "$1" in
    --model) model=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    *) grids+=("$1"); shift ;;
  esac
done
[ ${#grids[@]} -gt 0 ] || grids=(1,1,1 2,2,1 1,1,2 2,2,2 1,1,4)

summa_build summa-compile >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run_grid() {
  local grid=$1 q d ranks exe
  IFS=, read -r q _ d <<<"$grid"
  ranks=$((q * q * d))
  exe="$work/model-$q-$q-$d"
  "$SUMMA_BUILD/bin/summa-compile" "$model" --grid="$grid" -o "$exe"
  "${SUMMA_MPIRUN[@]}" -np "$ranks" "$exe" --iters "$iters" --check |
    awk '/^time:/ {t=$2} /^check:/ {c=$2} END {print t, c}'
}

echo "model: ${model#$SUMMA_ROOT/}, $iters iterations, $(nproc) cores, $(date -u +%F)"
read -r base base_check < <(run_grid 1,1,1)
printf '%-10s %6s %12s %10s %s\n' grid ranks ms/iter vs-[1,1,1] check
printf '%-10s %6s %12s %10s %s\n' "[1,1,1]" 1 "$base" "1.00" "$base_check"
for grid in "${grids[@]}"; do
  [ "$grid" = 1,1,1 ] && continue
  IFS=, read -r q _ d <<<"$grid"
  read -r t c < <(run_grid "$grid")
  ratio=$(awk -v a="$t" -v b="$base" 'BEGIN {printf "%.2f", a / b}')
  printf '%-10s %6s %12s %10s %s\n' "[$grid]" $((q * q * d)) "$t" "$ratio" "$c"
done
