#!/usr/bin/env bash
# The GPT-2-small layer (generate.py layer --batch 4 --seq 128 --hidden 768
# --heads 12 --ffn 3072, f32, forward) compiled for [1,1,1], against PyTorch
# eager on the same shapes, both on one CPU thread, in one run; prints both
# times and the ratio summa / PyTorch (the fast-code target is <= 1.0).
#
#   bench/layer_cpu.sh [ITERS] [PYTHON]   (default 10 iterations; PYTHON
#   is an interpreter with torch, default python3; needs a build in build/)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
iters=${1:-10}
python=${2:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --oversubscribe --allow-run-as-root)
[ "$(id -u)" = 0 ] || mpirun=(mpirun --oversubscribe)
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

python3 "$here/examples/generate.py" layer --batch 4 --seq 128 --hidden 768 --heads 12 \
  --ffn 3072 --dtype f32 -o "$work/layer.mlir"
start=$(date +%s.%N)
"$here/build/bin/summa-compile" "$work/layer.mlir" --grid=1,1,1 -o "$work/layer"
compile=$(echo "$(date +%s.%N) - $start" | bc)
summa=$("${mpirun[@]}" -np 1 "$work/layer" --iters "$iters" | sed -n 's/^time: \([0-9.]*\) ms\/iter.*/\1/p')
torch=$("$python" "$here/bench/torch_layer.py" --device cpu --dtype f32 --batch 4 --seq 128 \
  --hidden 768 --heads 12 --ffn 3072 --iters "$iters" --modes eager --threads 1 |
  sed -n 's/.*: \([0-9.]*\) ms\/iter.*/\1/p')
printf 'GPT-2-small layer forward, f32, 1 thread, %s iterations\n' "$iters"
printf '  summa [1,1,1]   %8.1f ms/iter (compile %.1f s)\n' "$summa" "$compile"
printf '  PyTorch eager   %8.1f ms/iter\n' "$torch"
printf '  ratio summa / PyTorch: %.2f\n' "$(echo "$summa / $torch" | bc -l)"
