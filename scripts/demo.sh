#!/usr/bin/env bash
# Sets everything up, compiles examples/mlp.mlir for the 2.5D grid [2,2,2]
# and runs it on 8 MPI ranks on the CPU, checked against the unpartitioned
# model.
#   scripts/demo.sh [--grid q,q,d] [--iters N]
source "$(dirname "$0")/common.sh"

grid=2,2,2
iters=10
while [ $# -gt 0 ]; do
  case "$1" in
    --grid) grid=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    *) echo "usage: scripts/demo.sh [--grid q,q,d] [--iters N]" >&2; exit 2 ;;
  esac
done

summa_setup
IFS=, read -r q _ d <<<"$grid"
ranks=$((q * q * d))
out="$SUMMA_BUILD/demo/mlp-$q-$q-$d"
mkdir -p "$(dirname "$out")"
echo "summa: compiling examples/mlp.mlir for grid [$grid] ($ranks ranks)"
"$SUMMA_BUILD/bin/summa-compile" "$SUMMA_ROOT/examples/mlp.mlir" \
  --grid="$grid" --target=cpu -o "$out"
echo "summa: running on $ranks MPI ranks"
"${SUMMA_MPIRUN[@]}" -np "$ranks" "$out" --check --iters "$iters"
