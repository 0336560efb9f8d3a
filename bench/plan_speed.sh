#!/usr/bin/env bash
# Speed of the planner (issue 5, part 6): summa-plan --describe of GPT-3
# 175B (96 layers, hidden 12288, 96 heads, seq 2048, batch 1536, bf16) for
# P = 64, 512 and 4096 ranks, each timed over several runs of the whole
# process; ratios are against P = 64 measured in the same run. With --ir it
# also plans the same model from its generated IR (a 2 MB file) for P = 64
# and 4096, counting every grid on the partitioned IR.
#
#   bench/plan_speed.sh [--ir] [--runs N]
#
# SUMMA_PLAN overrides the binary (default: build/bin/summa-plan).
set -euo pipefail
cd "$(dirname "$0")/.."
plan=${SUMMA_PLAN:-build/bin/summa-plan}
runs=20
ir=0
while [ $# -gt 0 ]; do
  case "$1" in
    --ir) ir=1 ;;
    --runs) runs=$2; shift ;;
    *) echo "usage: $0 [--ir] [--runs N]" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$plan" ] || { echo "error: $plan not found; run ninja -C build summa-plan" >&2; exit 1; }
model=layers=96,hidden=12288,heads=96,seq=2048,batch=1536,dtype=bf16

# Mean wall seconds of $runs runs of "$@" (output discarded; exit status 0
# or 2 = no grid both count as a run).
mean_seconds() {
  local start end status
  start=$(date +%s%N)
  for _ in $(seq "$runs"); do
    status=0
    "$@" > /dev/null || status=$?
    if [ "$status" -ne 0 ] && [ "$status" -ne 2 ]; then
      echo "error: '$*' failed with status $status" >&2
      exit 1
    fi
  done
  end=$(date +%s%N)
  awk -v ns=$((end - start)) -v n="$runs" 'BEGIN { printf "%.4f", ns / n / 1e9 }'
}

# The planning alone, as the tool measures it (--time), in microseconds.
planning_us() {
  "$plan" "$@" --time 2>&1 > /dev/null |
    awk '/planned in/ { printf "%.1f", $4 * 1e6 }'
}

echo "summa-plan --describe $model"
echo "(process: mean wall time of $runs runs, startup included; planning: --time)"
printf '%-8s %-12s %-8s %-14s %s\n' ranks process_s ratio planning_us best
base=""
for p in 64 512 4096; do
  t=$(mean_seconds "$plan" --describe "$model" --ranks "$p")
  [ -n "$base" ] || base=$t
  best=$("$plan" --describe "$model" --ranks "$p" --json |
         python3 -c 'import json,sys; print(json.load(sys.stdin)["best"])')
  printf '%-8s %-12s %-8s %-14s %s\n' "$p" "$t" \
    "$(awk -v a="$t" -v b="$base" 'BEGIN { printf "%.2fx", a / b }')" \
    "$(planning_us --describe "$model" --ranks "$p")" "$best"
done

if [ "$ir" = 1 ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  python3 examples/generate.py gpt --layers 96 --batch 1536 --seq 2048 \
    --hidden 12288 --heads 96 --dtype bf16 -o "$tmp/gpt3.mlir"
  echo
  echo "summa-plan on the generated IR of the same model ($(wc -c < "$tmp/gpt3.mlir") bytes; 3 runs each)"
  printf '%-8s %-12s %-14s %s\n' ranks process_s planning_us grids
  for p in 64 4096; do
    t=$(runs=3 mean_seconds "$plan" "$tmp/gpt3.mlir" --ranks "$p")
    n=$("$plan" "$tmp/gpt3.mlir" --ranks "$p" --json |
        python3 -c 'import json,sys; print(sum(s["kind"] == "grid" for s in json.load(sys.stdin)["strategies"]))')
    printf '%-8s %-12s %-14s %s\n' "$p" "$t" "$(planning_us "$tmp/gpt3.mlir" --ranks "$p")" "$n"
  done
fi
