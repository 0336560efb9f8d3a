#!/usr/bin/env bash
# The GPT-2-small layer (generate.py layer --batch 4 --seq 128 --hidden 768
# --heads 12 --ffn 3072, f32) on the CPU, one thread per rank, against
# PyTorch eager on the same shapes and one thread, all in one run:
#   - forward: summa [1,1,1] and [1,1,2] (2 ranks) against PyTorch;
#   - training step (generate.py gpt_train --layers 1: the layer, a final
#     LayerNorm, MSE loss, backward, SGD): summa [1,1,1] and [1,1,2]
#     against PyTorch autograd.
# Prints the times and the ratios (the fast-code targets: summa / PyTorch
# <= 1.0 on [1,1,1]; [1,1,2] <= 0.6 of [1,1,1]).
#
#   bench/layer_cpu.sh [ITERS] [PYTHON]   (default 10 iterations; PYTHON
#   is an interpreter with torch, default python3; needs a build in build/)
#
# LAYER_TOKENS="--batch B --seq S" replaces batch 4, sequence 128, e.g.
# "--batch 1 --seq 1024" for long sequences, where attention's scores are
# the largest intermediate.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
iters=${1:-10}
python=${2:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --oversubscribe --allow-run-as-root)
[ "$(id -u)" = 0 ] || mpirun=(mpirun --oversubscribe)
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
read -r -a tokens <<<"${LAYER_TOKENS:---batch 4 --seq 128}"
shape=("${tokens[@]}" --hidden 768 --heads 12 --ffn 3072)

python3 "$here/examples/generate.py" layer "${shape[@]}" --dtype f32 -o "$work/layer.mlir"
python3 "$here/examples/generate.py" gpt_train --layers 1 "${shape[@]}" --dtype f32 \
  -o "$work/train.mlir"

# summa NAME GRID RANKS: compiles NAME.mlir for GRID, prints ms per call.
summa() {
  "$here/build/bin/summa-compile" "$work/$1.mlir" --grid="$2" -o "$work/$1.$3"
  "${mpirun[@]}" -np "$3" "$work/$1.$3" --iters "$iters" |
    sed -n 's/^time: \([0-9.]*\) ms\/iter.*/\1/p'
}
torch() {
  "$python" "$here/bench/torch_layer.py" --device cpu --dtype f32 "${shape[@]}" \
    --iters "$iters" --modes eager --threads 1 "$@" |
    sed -n 's/.*: \([0-9.]*\) ms\/iter.*/\1/p'
}
ratio() { echo "$1 / $2" | bc -l; }

fwd1=$(summa layer 1,1,1 1)
fwd2=$(summa layer 1,1,2 2)
fwdt=$(torch)
trn1=$(summa train 1,1,1 1)
trn2=$(summa train 1,1,2 2)
trnt=$(torch --train)
printf 'GPT-2-small layer (%s), f32, 1 thread per rank, %s iterations\n' \
  "${tokens[*]}" "$iters"
printf '%-16s %12s %12s %12s %14s %14s\n' '' 'summa 1x1x1' 'summa 1x1x2' 'PyTorch' \
  '1x1x1/PyTorch' '1x1x2/1x1x1'
printf '%-16s %9.1f ms %9.1f ms %9.1f ms %14.2f %14.2f\n' forward "$fwd1" "$fwd2" "$fwdt" \
  "$(ratio "$fwd1" "$fwdt")" "$(ratio "$fwd2" "$fwd1")"
printf '%-16s %9.1f ms %9.1f ms %9.1f ms %14.2f %14.2f\n' 'training step' "$trn1" "$trn2" \
  "$trnt" "$(ratio "$trn1" "$trnt")" "$(ratio "$trn2" "$trn1")"
