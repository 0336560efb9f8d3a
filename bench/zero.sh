#!/usr/bin/env bash
# The optimizer state split over depth (summa-compile --zero, ZeRO stage 1
# along the depth axis) at real size: Hugging Face GPT-2 small (124M, vocab
# 50257, tied embedding; GELU's erf form), batch 2 x 128 tokens, AdamW with
# clipping and a warmup-cosine schedule (summa-differentiate
# optimizer=adamw), on one grid with and without --zero, in the same run:
#   * the AdamW state each rank holds (exp_avg + exp_avg_sq, its local
#     tensors in the partitioned program),
#   * the peak RSS of the largest rank (SUMMA_PROFILE),
#   * the bytes each rank moves over depth per step, by collective kind,
#   * the time per step (the median of the steps after the first),
#   * both against PyTorch's own loop (torch.optim.AdamW, clip_grad_norm_)
#     after STEPS steps: --expect on every weight and both moments.
#
#   bench/zero.sh [GRID] [STEPS] [PYTHON]
#     GRID    q,q,d with d > 1 (default 2,2,2)
#     STEPS   training steps (default 3)
#     PYTHON  an interpreter with examples/export/requirements-torch.txt
# Needs a build in build/.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
grid=${1:-2,2,2}
steps=${2:-3}
python=${3:-python3}
work=${ZERO_WORK:-$(mktemp -d)}
[ -n "${ZERO_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --oversubscribe --allow-run-as-root)
[ "$(id -u)" = 0 ] || mpirun=(mpirun --oversubscribe)
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
bin=$here/build/bin
IFS=, read -r q _ d <<<"$grid"
ranks=$((q * q * d))
adamw=(lr=0.01 beta1=0.9 beta2=0.95 eps=1e-8 weight-decay=0.1 clip-norm=1.0
  schedule=cosine warmup=5 decay-steps=20 min-lr=0.001)

if [ ! -f "$work/gpt2.mlir" ]; then
  "$python" "$here/examples/export/export_torch.py" hf_gpt2_lm --batch 2 --seq 128 \
    --hidden 768 --heads 12 --layers 12 --vocab 50257 --activation gelu \
    --skip-ir-check --save-inputs "$work/gpt2.inputs.safetensors" \
    --save-adamw-run "$work/gpt2.run.safetensors" --train-steps "$steps" \
    -o "$work/gpt2.mlir" 2>/dev/null
fi
"$bin/summa-opt" "$work/gpt2.mlir" \
  --summa-differentiate="optimizer=adamw ${adamw[*]} params=floats gradients=false" \
  -o "$work/step.mlir"

# state MLIR: MB of AdamW state per rank (the local types of the partitioned
# function's .exp_avg and .exp_avg_sq arguments)
state() {
  python3 - "$1" <<'EOF'
import re, sys
sig = next(l for l in open(sys.argv[1]) if "func.func @hf_gpt2_lm_grad" in l)
total = 0
for shape, name in re.findall(r'tensor<([0-9x]+)xf32> \{[^}]*summa\.name = "([^"]+)"', sig):
    if name.endswith((".exp_avg", ".exp_avg_sq")):
        n = 1
        for s in shape.split("x"):
            n *= int(s)
        total += 4 * n
print(f"{total / 1e6:.1f}")
EOF
}
# report PROFILE: "peakMB depth-collectives" per rank and step
report() {
  python3 - "$1" "$2" <<'EOF'
import glob, json, sys
files = sorted(glob.glob(sys.argv[1] + ".rank*.json"))
calls = int(sys.argv[2])
peak = max(json.load(open(f))["memory"]["peak_rss_bytes"] for f in files) / 1e6
kinds = {}
for f in files:
    for c in json.load(open(f))["collectives"]:
        if "depth" in c["group"]:
            k = f'{c["op"]}[{c["group"]}]'
            kinds[k] = kinds.get(k, 0) + c["bytes"] / calls / len(files)
print(f"{peak:.0f} " + (" ".join(f"{k}={v / 1e6:.2f}" for k, v in sorted(kinds.items())) or "none"))
EOF
}

printf 'GPT-2 small AdamW step on [%s], batch 2 x 128, f32, 1 thread per rank, %s steps\n' \
  "$grid" "$steps"
printf '%-6s %10s %14s %12s  %s\n' zero 'ms/step' 'AdamW MB/rank' 'peak RSS MB' \
  'MB per rank and step over depth (expect vs PyTorch)'
for zero in 0 1; do
  flag=()
  [ "$zero" = 1 ] && flag=(--zero)
  exe=$work/step.zero$zero
  "$bin/summa-compile" "$work/step.mlir" --entry=hf_gpt2_lm_grad --grid="$grid" \
    "${flag[@]}" -o "$exe"
  "$bin/summa-compile" "$work/step.mlir" --entry=hf_gpt2_lm_grad --grid="$grid" \
    "${flag[@]}" --emit=spmd-mlir -o "$exe.mlir"
  expect=$("${mpirun[@]}" -np "$ranks" "$exe" --inputs "$work/gpt2.inputs.safetensors" \
    --steps "$steps" --iters 0 --expect "$work/gpt2.run.safetensors" --tol 2e-3 \
    --tol '*.c_attn.bias=5e-2' --tol '*.exp_avg_sq=1e-2' |
    sed -n 's/^expect: \(PASS\|FAIL\) max_rel_err=\([^ ]*\).*/\1 \2/p')
  # Without --expect (whose reference tensors every rank would hold too).
  ms=$(SUMMA_PROFILE="$work/prof.json" "${mpirun[@]}" -np "$ranks" "$exe" \
    --inputs "$work/gpt2.inputs.safetensors" --steps "$steps" --iters 0 \
    --log-every 1 | sed -n 's/^step .* ms\/step \([0-9.]*\).*/\1/p' | tail -n +2 |
    sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  read -r rss detail <<<"$(report "$work/prof.json" "$steps")"
  printf '%-6s %10s %14s %12s  %s (%s)\n' "$zero" "$ms" "$(state "$exe.mlir")" "$rss" \
    "$detail" "$expect"
  rm -f "$work"/prof.json.rank*.json
done
