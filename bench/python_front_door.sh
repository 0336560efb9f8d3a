#!/usr/bin/env bash
# The Python front door as a user runs it: `python -m summa train` on
# Paradise Lost for GPT-2, Llama (grouped-query attention) and Mixtral (8
# experts, top-2) configs of 4 layers, hidden 128, 128 positions, a
# vocabulary of 2048 (a BPE tokenizer trained on the text), 100 AdamW
# steps of 8 rows on a grid, then the held-out batch's loss by summa's
# forward on the grid against `from_pretrained(OUT)` in PyTorch (--check:
# 1e-4 relative). Prints, per model, the first and last loss, the held-out
# pair and the wall time of the whole command (export, two compiles, the
# job, save_pretrained, the check).
#
#   bench/python_front_door.sh [GRID] [STEPS]      (default 2,2,1 100)
#
# Needs a build in build/ and the Python environment of scripts/test.sh
# (scripts/python-env.sh makes it: the pinned wheels, pip install ./python).
source "$(dirname "$0")/../scripts/common.sh"
source "$SUMMA_ROOT/scripts/python-env.sh"
grid=${1:-2,2,1}
steps=${2:-100}
summa_python_env || exit 1
work=$(mktemp -d /tmp/summa-front-door.XXXXXX)
common='"num_hidden_layers": 4, "hidden_size": 128, "num_attention_heads": 4,
 "max_position_embeddings": 128, "vocab_size": 2048, "bos_token_id": 0, "eos_token_id": 0'
cat >"$work/gpt2.json" <<EOF
{"model_type": "gpt2", "n_layer": 4, "n_embd": 128, "n_head": 4, "n_positions": 128,
 "vocab_size": 2048, "bos_token_id": 0, "eos_token_id": 0}
EOF
cat >"$work/llama.json" <<EOF
{"model_type": "llama", $common, "num_key_value_heads": 2, "intermediate_size": 352}
EOF
cat >"$work/mixtral.json" <<EOF
{"model_type": "mixtral", $common, "num_key_value_heads": 2, "intermediate_size": 256,
 "num_local_experts": 8, "num_experts_per_tok": 2, "router_aux_loss_coef": 0.0}
EOF
echo "python -m summa train: grid [$grid], $steps AdamW steps, 8 rows of 128 tokens, $(date +%F)"
for model in gpt2 llama mixtral; do
  start=$SECONDS
  SUMMA_BUILD_DIR="$SUMMA_BUILD" "$SUMMA_PYTHON_ENV/bin/python" -m summa train \
    --hf-config "$work/$model.json" --data "$SUMMA_ROOT/examples/data/paradise_lost.txt" \
    --grid "$grid" --steps "$steps" --batch 8 --seq 128 --out "$work/$model" --check \
    >"$work/$model.log" 2>&1
  status=$?
  echo "== $model (exit status $status, $((SECONDS - start)) s)"
  grep '^summa: \(trained\|held-out\|FAIL\)' "$work/$model.log"
done
echo "work folder: $work"
