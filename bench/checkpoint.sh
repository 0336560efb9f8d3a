#!/usr/bin/env bash
# Checkpoints of a whole language model at its real size, written by the
# ranks that own them against gathered whole on rank 0, in the same run:
# Hugging Face GPT-2 small (12 layers, hidden 768, vocabulary 50257, 124M
# parameters), its AdamW step (summa-differentiate optimizer=adamw: the
# weights and both moments, 3 x 124M floats), optimizer state split over
# depth (--zero), batch 2 x 128 tokens, on [2,2,2].
#
# One step and then:
#   none    nothing written
#   whole   --outputs step.safetensors: every tensor gathered whole on rank
#           0 and written by it (what checkpoints were before they were
#           sharded)
#   owned   --outputs DIR: each rank writes its own boxes
# For each it prints the wall time of the run, rank 0's peak RSS and the
# largest rank's (SUMMA_PROFILE), and the bytes each rank wrote
# (io.write_bytes, largest and smallest against the mean). Then it checks
# that the owned files assemble (summa-ckpt whole) into the bytes rank 0
# gathered, and times the assembly.
#
#   bench/checkpoint.sh [PYTHON] [GRID]
#     PYTHON  an interpreter with the packages of
#             examples/export/requirements-torch.txt (default python3)
#     GRID    default 2,2,2
# Needs a build in build/; CHECKPOINT_WORK=DIR keeps the export and files.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
python=${1:-python3}
grid=${2:-2,2,2}
work=${CHECKPOINT_WORK:-$(mktemp -d)}
[ -n "${CHECKPOINT_WORK:-}" ] || trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --oversubscribe --allow-run-as-root)
[ "$(id -u)" = 0 ] || mpirun=(mpirun --oversubscribe)
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
bin=$here/build/bin
kind=hf_gpt2_lm
IFS=, read -r q _ d <<<"$grid"
ranks=$((q * q * d))
zero=()
[ "$d" -gt 1 ] && zero=(--zero)

if [ ! -f "$work/$kind.mlir" ]; then
  "$python" "$here/examples/export/export_torch.py" "$kind" --batch 2 --seq 128 \
    --hidden 768 --heads 12 --layers 12 --vocab 50257 --skip-ir-check \
    --save-inputs "$work/$kind.inputs.safetensors" -o "$work/$kind.mlir" 2>/dev/null
fi
"$bin/summa-opt" "$work/$kind.mlir" \
  --summa-differentiate="optimizer=adamw lr=1e-4 params=floats gradients=false" \
  -o "$work/step.mlir"
"$bin/summa-compile" "$work/step.mlir" --entry="${kind}_grad" --grid="$grid" \
  "${zero[@]}" -o "$work/step"

# report PROFILE: "rank0MB maxMB writtenMB max/mean min/mean"
report() {
  python3 - "$1" <<'EOF'
import glob, json, sys
files = sorted(glob.glob(sys.argv[1] + ".rank*.json"),
               key=lambda f: int(f.rsplit("rank", 1)[1].split(".")[0]))
prof = [json.load(open(f)) for f in files]
rss = [p["memory"]["peak_rss_bytes"] / 1e6 for p in prof]
wrote = [p.get("io", {}).get("write_bytes", 0) for p in prof]
mean = sum(wrote) / len(wrote)
ratio = (f"{max(wrote) / mean:.2f} {min(wrote) / mean:.2f}" if mean
         else "- -")
print(f"{rss[0]:.0f} {max(rss):.0f} {sum(wrote) / 1e6:.0f} {ratio}")
EOF
}

printf '%s on [%s]%s, AdamW, batch 2 x 128 tokens, f32, 1 thread per rank\n' \
  "$kind" "$grid" "${zero:+ --zero}"
printf '%-6s %8s %14s %14s %12s %9s %9s\n' write 'run s' 'rank 0 RSS MB' \
  'max RSS MB' 'written MB' 'max/mean' 'min/mean'
for mode in none whole owned; do
  out=()
  case $mode in
  whole) out=(--outputs "$work/whole.safetensors") ;;
  owned) out=(--outputs "$work/owned") ;;
  esac
  rm -f "$work"/prof.json.rank*.json
  start=$(date +%s.%N)
  SUMMA_PROFILE="$work/prof.json" "${mpirun[@]}" -np "$ranks" "$work/step" \
    --inputs "$work/$kind.inputs.safetensors" --steps 1 --iters 0 "${out[@]}" >/dev/null
  seconds=$(echo "$(date +%s.%N) - $start" | bc -l)
  read -r rank0 maxrss written hi lo <<<"$(report "$work/prof.json")"
  printf '%-6s %8.1f %14s %14s %12s %9s %9s\n' "$mode" "$seconds" "$rank0" \
    "$maxrss" "$written" "$hi" "$lo"
done
start=$(date +%s.%N)
"$bin/summa-ckpt" whole "$work/owned" "$work/assembled.safetensors" >/dev/null
seconds=$(echo "$(date +%s.%N) - $start" | bc -l)
if cmp -s "$work/assembled.safetensors" "$work/whole.safetensors"; then
  same="the same bytes as rank 0's whole file"
else
  same="DIFFERENT from rank 0's whole file"
fi
printf 'summa-ckpt whole: %.1f s, %s MB, %s\n' "$seconds" \
  "$(($(stat -c %s "$work/assembled.safetensors") / 1000000))" "$same"
