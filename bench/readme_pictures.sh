#!/usr/bin/env bash
# Makes the README's two pictures from real runs (docs/images/):
#   demo-train-loss.png     the loss and throughput of scripts/demo.sh --train
#                           (300 steps of the GPT language model on [2,2,2]),
#                           drawn by scripts/plot_run.py from its --metrics
#   plan-gpt2-64-ranks.svg  summa-plan --chart of a GPT-2-small-sized training
#                           step (examples/generate.py gpt_train: 12 layers,
#                           hidden 768, 12 heads, 64 sequences of 1024 tokens,
#                           bf16) on 64 ranks, H200 defaults
#
#   bench/readme_pictures.sh      (needs a build in build/, and a Python with
#                                  matplotlib: python3 or $SUMMA_PLOT_PYTHON)
# The PNG is reduced to 64 colours when Pillow is there (matplotlib needs it).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
python=${SUMMA_PLOT_PYTHON:-python3}
images="$here/docs/images"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$images"

SUMMA_PLOT_PYTHON=$python "$here/scripts/demo.sh" --train 300
"$python" "$here/scripts/plot_run.py" "$here/build/demo/gpt_lm.metrics.jsonl" \
  --smooth 10 --dpi 80 -o "$images/demo-train-loss.png" \
  --title "scripts/demo.sh --train: a 2-layer GPT on Paradise Lost, grid [2,2,2], 8 ranks"
"$python" - "$images/demo-train-loss.png" <<'PY'
import sys
from PIL import Image
image = Image.open(sys.argv[1]).convert("RGB").quantize(colors=64)
image.save(sys.argv[1], optimize=True)
PY

python3 "$here/examples/generate.py" gpt_train --layers 12 --hidden 768 \
  --heads 12 --seq 1024 --batch 64 --dtype bf16 -o "$work/gpt2_train.mlir"
"$here/build/bin/summa-plan" "$work/gpt2_train.mlir" --ranks 64 \
  --chart "$images/plan-gpt2-64-ranks.svg"
ls -l "$images"
