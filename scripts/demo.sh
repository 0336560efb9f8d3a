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
#       a 2-layer nanoGPT exported from PyTorch (its forward and loss), its
#       training step derived by summa-differentiate as practitioners train:
#       AdamW (betas 0.9/0.95, weight decay 0.1), clipping at 1.0, warmup
#       and cosine decay over the run; trained on Paradise Lost at byte level
#       on [2,2,2] (8 ranks, optimizer state split over depth) for STEPS
#       steps (default 300) as a job of summa-run (restarted from its last
#       checkpoint if a rank dies), a line of step, loss, lr, gradient norm
#       and tokens/s every 10 steps, a checkpoint every 100 steps, metrics as
#       JSON lines and TensorBoard scalars, and the loss plot
#       (scripts/plot_run.py, with a Python that has matplotlib: python3 or
#       $SUMMA_PLOT_PYTHON)
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
    echo "summa: deriving the AdamW training step of examples/fixtures/gpt_lm_torch.mlir"
    "$SUMMA_BUILD/bin/summa-opt" "$fixtures/gpt_lm_torch.mlir" -o "$demo/gpt_lm.step.mlir" \
      --summa-differentiate="params=floats gradients=false optimizer=adamw lr=3e-3 beta2=0.95 weight-decay=0.1 clip-norm=1.0 schedule=cosine warmup=$((steps / 15)) decay-steps=$steps min-lr=3e-4"
    echo "summa: compiling it for grid [2,2,2] (8 ranks), optimizer state split over depth"
    "$SUMMA_BUILD/bin/summa-compile" "$demo/gpt_lm.step.mlir" --entry=gpt_small_grad \
      --grid=2,2,2 --zero -o "$demo/gpt_lm"
    echo "summa: training on 8 MPI ranks for $steps steps"
    rm -rf "$demo/gpt_lm.ckpt" "$demo/gpt_lm.tb"
    "$SUMMA_BUILD/bin/summa-run" -np 8 --max-restarts 3 "$demo/gpt_lm" \
      --inputs "$fixtures/gpt_lm_torch.init.safetensors" \
      --data "$demo/paradise_lost.bin" --vocab 256 --steps "$steps" --log-every 10 \
      --checkpoint "$demo/gpt_lm.ckpt" --save-every 100 --iters 0 \
      --metrics "$demo/gpt_lm.metrics.jsonl" --tensorboard "$demo/gpt_lm.tb"
    echo "summa: metrics in $demo/gpt_lm.metrics.jsonl, TensorBoard scalars in $demo/gpt_lm.tb"
    python=${SUMMA_PLOT_PYTHON:-python3}
    if "$python" -c "import matplotlib" 2>/dev/null; then
      "$python" "$SUMMA_ROOT/scripts/plot_run.py" "$demo/gpt_lm.metrics.jsonl" \
        --smooth 10 -o "$demo/gpt_lm.loss.png"
    else
      echo "summa: to draw the loss: pip install matplotlib, then"
      echo "  scripts/plot_run.py $demo/gpt_lm.metrics.jsonl --smooth 10 -o loss.png"
    fi
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
