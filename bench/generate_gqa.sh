#!/usr/bin/env bash
# Generation from a Llama-class model with grouped-query attention at real
# size: Hugging Face LlamaForCausalLM, 12 layers, hidden 768, 12 query and
# 4 key/value heads, SwiGLU 2048, vocabulary 32000 (125M, random weights
# from its own initialisation), 2 prompts of 16 tokens, 32 new ones
# greedily, the export's sequence 48.
#
# Prints the KV caches summa-derive-generation keeps (shape and count), then
# for each grid the generator's own lines (prefill, decode per token, bytes
# per rank) and --expect's verdicts against Hugging Face's generate():
# the ids and every step's logits, from the prompt and from the prompt with
# its first row left-padded.
#
#   bench/generate_gqa.sh [PYTHON] [GRIDS...]
#     PYTHON  an interpreter with the packages of
#             examples/export/requirements-torch.txt (default python3)
#     GRIDS   default 1,1,1 2,2,1
# Needs a build in build/. Several ranks on fewer cores share them.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
python=${1:-python3}
shift $(($# < 1 ? $# : 1))
grids=("$@")
[ ${#grids[@]} -gt 0 ] || grids=(1,1,1 2,2,1)
work=${GENERATE_WORK:-$(mktemp -d)}
[ -n "${GENERATE_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --oversubscribe --allow-run-as-root)
[ "$(id -u)" = 0 ] || mpirun=(mpirun --oversubscribe)
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
bin=$here/build/bin
f=hf_llama_logits

if [ ! -f "$work/$f.mlir" ]; then
  "$python" "$here/examples/export/export_torch.py" $f --batch 2 --seq 48 \
    --hidden 768 --heads 12 --kv-heads 4 --ffn 2048 --layers 12 --vocab 32000 \
    --init model --skip-ir-check --save-generate "$work/gen" --prompt 16 \
    -o "$work/$f.mlir" >/dev/null 2>&1
fi
"$bin/summa-opt" "$work/$f.mlir" --summa-derive-generation=prompt=16 \
  -o "$work/derived.mlir"
echo "KV caches of the decode step (count, shape):"
grep -o 'tensor<[0-9x]*xf32> {summa.name = "cache\.[0-9]*", summa.role' \
  "$work/derived.mlir" | sed 's/ {.*//' | sort | uniq -c
for grid in "${grids[@]}"; do
  IFS=, read -r q1 q2 d <<<"$grid"
  np=$((q1 * q2 * d))
  "$bin/summa-compile" "$work/$f.mlir" --generate --prompt-length 16 \
    --grid "$grid" -o "$work/gen.$grid"
  echo "generator [$grid]:"
  "${mpirun[@]}" -np $np "$work/gen.$grid" --inputs "$work/gen.inputs.safetensors" \
    --prompt "$work/gen.inputs.safetensors" --save-logits \
    --expect "$work/gen.expect.safetensors" | grep -v '^sequence'
  "${mpirun[@]}" -np $np "$work/gen.$grid" --inputs "$work/gen.inputs.safetensors" \
    --prompt "$work/gen.padded.safetensors" --save-logits \
    --expect "$work/gen.padded.safetensors" | grep '^expect' |
    sed 's/^/  left-padded prompt: /'
done
