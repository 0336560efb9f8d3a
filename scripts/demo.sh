#!/usr/bin/env bash
# Sets everything up, compiles a model and runs it on MPI ranks on the CPU:
#   scripts/demo.sh [--grid q,q,d] [--iters N]
#       examples/mlp.mlir on the 2.5D grid [2,2,2] (8 ranks), checked against
#       the unpartitioned model
#   scripts/demo.sh --weights
#       the nanoGPT block exported from PyTorch, on [2,2,1] (4 ranks), from
#       the weights and input PyTorch used (a safetensors file): its output
#       compared with PyTorch's and with the unpartitioned block
#   scripts/demo.sh --train [STEPS]
#       the JAX-exported GPT language model trained on Paradise Lost at byte
#       level on [2,2,2] (8 ranks) for STEPS steps (default 300), a progress
#       line per step, a checkpoint every 100 steps
source "$(dirname "$0")/common.sh"

usage="usage: scripts/demo.sh [--grid q,q,d] [--iters N] | --weights | --train [STEPS]"
mode=mlp
grid=2,2,2
iters=10
steps=300
while [ $# -gt 0 ]; do
  case "$1" in
    --grid) grid=$2; shift 2 ;;
    --iters) iters=$2; shift 2 ;;
    --weights) mode=weights; shift ;;
    --train)
      mode=train; shift
      if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then steps=$1; shift; fi ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done

summa_setup
demo="$SUMMA_BUILD/demo"
mkdir -p "$demo"
fixtures="$SUMMA_ROOT/examples/fixtures"
case "$mode" in
  weights)
    echo "summa: compiling examples/fixtures/nanogpt_block.mlir for grid [2,2,1] (4 ranks)"
    "$SUMMA_BUILD/bin/summa-compile" "$fixtures/nanogpt_block.mlir" --grid=2,2,1 -o "$demo/nanogpt_block"
    echo "summa: running on 4 MPI ranks from PyTorch's weights"
    "${SUMMA_MPIRUN[@]}" -np 4 "$demo/nanogpt_block" \
      --inputs "$fixtures/nanogpt_block.inputs.safetensors" \
      --expect "$fixtures/nanogpt_block.torch.safetensors" --tol 1e-4 --check --iters 0
    ;;
  train)
    python3 "$SUMMA_ROOT/examples/data/prepare.py" "$SUMMA_ROOT/examples/data/paradise_lost.txt" \
      "$demo/paradise_lost.bin"
    echo "summa: compiling examples/fixtures/gpt_lm_train_step_jax.mlir for grid [2,2,2] (8 ranks)"
    "$SUMMA_BUILD/bin/summa-compile" "$fixtures/gpt_lm_train_step_jax.mlir" --grid=2,2,2 -o "$demo/gpt_lm"
    echo "summa: training on 8 MPI ranks for $steps steps"
    "${SUMMA_MPIRUN[@]}" -np 8 "$demo/gpt_lm" --inputs "$fixtures/gpt_lm.init.safetensors" \
      --data "$demo/paradise_lost.bin" --vocab 256 --steps "$steps" \
      --checkpoint "$demo/gpt_lm.ckpt" --save-every 100 --iters 0
    ;;
  *)
    IFS=, read -r q _ d <<<"$grid"
    ranks=$((q * q * d))
    out="$demo/mlp-$q-$q-$d"
    echo "summa: compiling examples/mlp.mlir for grid [$grid] ($ranks ranks)"
    "$SUMMA_BUILD/bin/summa-compile" "$SUMMA_ROOT/examples/mlp.mlir" \
      --grid="$grid" --target=cpu -o "$out"
    echo "summa: running on $ranks MPI ranks"
    "${SUMMA_MPIRUN[@]}" -np "$ranks" "$out" --check --iters "$iters"
    ;;
esac
