#!/usr/bin/env bash
# Whole language models at their real size, trained one SGD step at a time
# (summa-differentiate's step of the model as torch-mlir exports it, weights
# from PyTorch), against PyTorch's own step on the same shapes, one thread,
# in the same run:
#   gpt2   Hugging Face GPT2LMHeadModel, GPT-2 small: 12 layers, hidden 768,
#          12 heads, vocabulary 50257 (unpadded), tied embedding, 124M
#   llama  Hugging Face LlamaForCausalLM, Llama-class: 12 layers, hidden 768,
#          12 heads, 4 key/value heads, SwiGLU 2048, vocabulary 32000, 125M
# batch 2 x 128 tokens, f32, random weights from the model's own
# initialisation (nothing downloaded).
#
# For each grid it prints the time per step, the peak RSS of the largest
# rank (SUMMA_PROFILE), the bytes each rank moves per step by collective
# kind, the share of all-gather and all-to-all bytes against the SUMMA
# panels' (broadcast + reduce), and whether the step agrees with PyTorch's
# autograd (--expect: the loss, every gradient and every updated weight,
# tolerance 2e-3: torch-mlir's GELU-tanh constant, ~1e-3 on GPT-2).
#
#   bench/real_size.sh MODEL [ITERS] [PYTHON] [GRIDS...]
#     MODEL   gpt2 or llama
#     ITERS   timed steps per grid (default 3)
#     PYTHON  an interpreter with the packages of
#             examples/export/requirements-torch.txt (default python3)
#     GRIDS   default 1,1,1 2,2,1 1,1,2 2,2,2
# Needs a build in build/. Several ranks on fewer cores share them: compare
# times of the same grid only.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
model=${1:?usage: bench/real_size.sh gpt2|llama [ITERS] [PYTHON] [GRIDS...]}
iters=${2:-3}
python=${3:-python3}
shift $(($# < 3 ? $# : 3))
grids=("$@")
[ ${#grids[@]} -gt 0 ] || grids=(1,1,1 2,2,1 1,1,2 2,2,2)
work=${REAL_SIZE_WORK:-$(mktemp -d)}
[ -n "${REAL_SIZE_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --oversubscribe --allow-run-as-root)
[ "$(id -u)" = 0 ] || mpirun=(mpirun --oversubscribe)
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
bin=$here/build/bin

case $model in
gpt2) kind=hf_gpt2_lm
  sizes=(--batch 2 --seq 128 --hidden 768 --heads 12 --layers 12 --vocab 50257) ;;
llama) kind=hf_llama_lm
  sizes=(--batch 2 --seq 128 --hidden 768 --heads 12 --kv-heads 4 --ffn 2048
    --layers 12 --vocab 32000 --init model) ;;
*) echo "bench/real_size.sh: unknown model '$model' (gpt2 or llama)" >&2; exit 1 ;;
esac

if [ ! -f "$work/$kind.mlir" ]; then
  "$python" "$here/examples/export/export_torch.py" "$kind" "${sizes[@]}" \
    --skip-ir-check --save-inputs "$work/$kind.inputs.safetensors" \
    --save-sgd-step "$work/$kind.sgd.safetensors" -o "$work/$kind.mlir" 2>/dev/null
fi
"$bin/summa-opt" "$work/$kind.mlir" --summa-differentiate="sgd-lr=0.01 params=floats" \
  -o "$work/step.mlir"

# report PROFILE CALLS: "peakMB gatherMB panelMB kinds..." from the
# per-rank SUMMA_PROFILE files, bytes per rank and per call.
report() {
  python3 - "$1" "$2" <<'EOF'
import glob, json, sys
files = sorted(glob.glob(sys.argv[1] + ".rank*.json"))
calls = int(sys.argv[2])
peak = max(json.load(open(f))["memory"]["peak_rss_bytes"] for f in files) / 1e6
kinds = {}
for f in files:
    for c in json.load(open(f))["collectives"]:
        kinds[c["op"]] = kinds.get(c["op"], 0) + c["bytes"] / calls / len(files)
gather = kinds.get("all_gather", 0) + kinds.get("all_to_all", 0)
panels = kinds.get("broadcast", 0) + kinds.get("reduce", 0)
share = f"{100 * gather / panels:.2f}%" if panels else "-"
detail = " ".join(f"{k}={v / 1e6:.2f}" for k, v in sorted(kinds.items())) or "none"
print(f"{peak:.0f} {share} {detail}")
EOF
}

printf '%s: %s, batch 2 x 128 tokens, f32, 1 thread per rank, %s timed steps\n' \
  "$model" "$kind" "$iters"
printf '%-10s %12s %12s %10s %12s  %s\n' grid 'ms/step' 'peak RSS MB' 'gathers' \
  'vs PyTorch' 'MB per rank and step'
torch_line=$("$python" "$here/bench/torch_lm_step.py" --iters "$iters" "$kind" "${sizes[@]}")
torch_ms=$(sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' <<<"$torch_line")
torch_rss=$(sed -n 's/.*peak RSS \([0-9]*\) MB.*/\1/p' <<<"$torch_line")
for grid in "${grids[@]}"; do
  IFS=, read -r q _ d <<<"$grid"
  ranks=$((q * q * d))
  exe=$work/step.${grid//,/x}
  "$bin/summa-compile" "$work/step.mlir" --entry="${kind}_grad" --grid="$grid" -o "$exe"
  expect=$("${mpirun[@]}" -np "$ranks" "$exe" --inputs "$work/$kind.inputs.safetensors" \
    --expect "$work/$kind.sgd.safetensors" --tol 2e-3 --iters 0 |
    sed -n 's/^expect: \(PASS\|FAIL\) max_rel_err=\(.*\)/\1 \2/p')
  ms=$(SUMMA_PROFILE="$work/prof.json" "${mpirun[@]}" -np "$ranks" "$exe" \
    --inputs "$work/$kind.inputs.safetensors" --iters "$iters" |
    sed -n 's/^time: \([0-9.]*\) ms\/iter.*/\1/p')
  read -r rss share detail <<<"$(report "$work/prof.json" $((iters + 1)))"
  printf '%-10s %12.1f %12s %10s %12.2f  %s  (expect %s)\n' "[$grid]" "$ms" "$rss" \
    "$share" "$(echo "$ms / $torch_ms" | bc -l)" "$detail" "$expect"
  rm -f "$work"/prof.json.rank*.json
done
printf '%-10s %12.1f %12s\n' PyTorch "$torch_ms" "$torch_rss"
