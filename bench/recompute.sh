#!/usr/bin/env bash
# Activation recompute (summa-differentiate recompute=attention|layers) on a model
# whose activations dominate its memory: Hugging Face GPT-2 with long
# sequences and a small vocabulary (6 layers, hidden 256, 8 heads,
# vocabulary 1024, batch 4 x 512 tokens: 5M parameters, attention
# probabilities of 32 MB per layer), its SGD step on one grid, without and
# with recompute, in the same run: peak RSS of the largest rank
# (SUMMA_PROFILE), time per step (median of ITERS), and both steps against
# PyTorch's autograd (--expect: loss, every gradient and updated weight).
#
#   bench/recompute.sh [GRID] [ITERS] [PYTHON]
#     GRID    q,q,d (default 1,1,1)
#     ITERS   timed steps (default 3)
#     PYTHON  an interpreter with examples/export/requirements-torch.txt
# Needs a build in build/.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
grid=${1:-1,1,1}
iters=${2:-3}
python=${3:-python3}
work=${RECOMPUTE_WORK:-$(mktemp -d)}
[ -n "${RECOMPUTE_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --oversubscribe --allow-run-as-root)
[ "$(id -u)" = 0 ] || mpirun=(mpirun --oversubscribe)
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
bin=$here/build/bin
IFS=, read -r q _ d <<<"$grid"
ranks=$((q * q * d))

if [ ! -f "$work/gpt2.mlir" ]; then
  "$python" "$here/examples/export/export_torch.py" hf_gpt2_lm --batch 4 --seq 512 \
    --hidden 256 --heads 8 --layers 6 --vocab 1024 --activation gelu \
    --skip-ir-check --save-inputs "$work/gpt2.inputs.safetensors" \
    --save-sgd-step "$work/gpt2.sgd.safetensors" -o "$work/gpt2.mlir" 2>/dev/null
fi

printf 'GPT-2 (6 layers, hidden 256, seq 512, batch 4) SGD step on [%s], 1 thread per rank\n' "$grid"
printf '%-10s %10s %12s  %s\n' recompute 'ms/step' 'peak RSS MB' 'expect vs PyTorch'
for mode in none attention layers; do
  "$bin/summa-opt" "$work/gpt2.mlir" \
    --summa-differentiate="sgd-lr=0.01 params=floats recompute=$mode" -o "$work/step.$mode.mlir"
  exe=$work/step.$mode
  "$bin/summa-compile" "$work/step.$mode.mlir" --entry=hf_gpt2_lm_grad --grid="$grid" -o "$exe"
  expect=$("${mpirun[@]}" -np "$ranks" "$exe" --inputs "$work/gpt2.inputs.safetensors" \
    --expect "$work/gpt2.sgd.safetensors" --tol 2e-3 --iters 0 |
    sed -n 's/^expect: \(PASS\|FAIL\) max_rel_err=\([^ ]*\).*/\1 \2/p')
  ms=$(SUMMA_PROFILE="$work/prof.json" "${mpirun[@]}" -np "$ranks" "$exe" \
    --inputs "$work/gpt2.inputs.safetensors" --iters "$iters" |
    sed -n 's/^time: \([0-9.]*\) ms\/iter.*/\1/p')
  rss=$(python3 -c 'import glob, json, sys
print(round(max(json.load(open(f))["memory"]["peak_rss_bytes"] for f in glob.glob(sys.argv[1] + ".rank*.json")) / 1e6))' "$work/prof.json")
  rm -f "$work"/prof.json.rank*.json
  printf '%-10s %10s %12s  %s\n' "$mode" "$ms" "$rss" "$expect"
done
