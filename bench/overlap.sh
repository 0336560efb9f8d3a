#!/usr/bin/env bash
# Time per step and time spent in collectives with and without summa-overlap
# (summa-compile --overlap), measured in the same run, alternating the two
# binaries REPS times and reporting medians. CPU backend; the collective
# times come from the runtime's profile (SUMMA_PROFILE): `coll` is the time
# a rank spends inside collective calls per step (for an asynchronous one:
# its start plus its wait), `wait` the part of it inside summaRtWait, `gemm`
# the local GEMMs; each is the mean over ranks.
#   bench/overlap.sh [--model examples/gpt_layer.mlir] [--grid 2,2,2]
#                    [--iters N] [--reps R] [-- MPIRUN_ARGS...]
# On a machine with fewer cores than ranks the ranks are oversubscribed:
# then a rank waiting in a collective may be waiting for a rank that is not
# scheduled, and the times show that, not the network.
source "$(dirname "$0")/../scripts/common.sh"

model=$SUMMA_ROOT/examples/gpt_layer.mlir
grid=2,2,2
iters=200
reps=5
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
  --model) model=$2; shift 2 ;;
  --grid) grid=$2; shift 2 ;;
  --iters) iters=$2; shift 2 ;;
  --reps) reps=$2; shift 2 ;;
  --) shift; extra=("$@"); break ;;
  *) echo "usage: bench/overlap.sh [--model M] [--grid q,q,d] [--iters N] [--reps R] [-- MPIRUN_ARGS...]" >&2; exit 2 ;;
  esac
done

summa_build summa-compile >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
IFS=, read -r q _ d <<<"$grid"
ranks=$((q * q * d))

"$SUMMA_BUILD/bin/summa-compile" "$model" --grid="$grid" -o "$work/sync"
"$SUMMA_BUILD/bin/summa-compile" "$model" --grid="$grid" --overlap -o "$work/overlap"
for variant in sync overlap; do
  out=$("${SUMMA_MPIRUN[@]}" "${extra[@]}" -np "$ranks" "$work/$variant" --check)
  echo "$out" | grep -q '^check: PASS' || { echo "$variant: --check failed:" >&2; echo "$out" >&2; exit 1; }
done

# One timed run: prints "ms_per_step coll wait gemm" (ms per step, mean
# over ranks).
run_once() {
  local variant=$1 dir="$work/prof-$1-$2"
  mkdir -p "$dir"
  local t
  t=$(SUMMA_PROFILE="$dir/p.%r.json" "${SUMMA_MPIRUN[@]}" "${extra[@]}" -np "$ranks" \
    "$work/$variant" --iters "$iters" | awk '/^time:/ {print $2}')
  python3 - "$dir" "$iters" "$t" <<'EOF'
import json, pathlib, sys
d, iters, t = pathlib.Path(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
calls = iters + 1  # the driver's first (warm-up / --check) call, then --iters
coll = wait = gemm = 0.0
files = sorted(d.glob("p.*.json"))
for f in files:
    p = json.loads(f.read_text())
    for c in p["collectives"]:
        coll += c["seconds"]
        wait += c.get("wait_seconds", 0.0)
    gemm += p["matmul"]["seconds"]
n = len(files) * calls
print(f"{t:.4f} {coll / n * 1e3:.4f} {wait / n * 1e3:.4f} {gemm / n * 1e3:.4f}")
EOF
}

for ((r = 0; r < reps; ++r)); do
  run_once sync "$r" >>"$work/sync.txt"
  run_once overlap "$r" >>"$work/overlap.txt"
done

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
col() { awk -v c="$2" '{print $c}' "$work/$1.txt" | median; }

echo "model: ${model#$SUMMA_ROOT/}, grid [$grid] ($ranks ranks), $iters steps x $reps runs, $(nproc) cores, $(date -u +%F)"
printf '%-9s %12s %12s %12s %12s\n' variant ms/step coll-ms wait-ms gemm-ms
for v in sync overlap; do
  printf '%-9s %12s %12s %12s %12s\n' "$v" "$(col $v 1)" "$(col $v 2)" "$(col $v 3)" "$(col $v 4)"
done
awk -v a="$(col overlap 1)" -v b="$(col sync 1)" -v c="$(col overlap 2)" -v e="$(col sync 2)" \
  'BEGIN {printf "overlap / sync: step time %.2fx, time in collectives %.2fx\n", a / b, c / e}'
