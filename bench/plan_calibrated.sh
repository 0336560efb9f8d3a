#!/usr/bin/env bash
# The planner's predicted time against the measured one, on this machine:
# calibrate it (summa-plan --calibrate: GEMM rate, memory rate of local
# loop nests, latency and bandwidth of each collective per group size),
# then for a compiled model on the grids [1,1,1], [2,2,1], [1,1,2], [2,2,2]
# run `mpirun -np P ./binary --iters N` REPS times (the binary prints
# `time: X ms/iter`; the median is kept) and print the prediction of
# `summa-plan --machine` (its comm, GEMM and local parts) beside it, with
# measured / predicted.
#   bench/plan_calibrated.sh [--machine FILE] [--model M.mlir [--entry F]]
#                            [--train] [--inputs FILE] [--grids G;G;...]
#                            [--iters N] [--reps R]
# Default model: examples/fixtures/gpt_small.mlir (nanoGPT as an LM, 2
# layers) differentiated into its SGD training step (--train: summa-opt
# --summa-differentiate="sgd-lr=0.01 params=floats", entry <name>_grad),
# run on its committed inputs. Without --machine the machine is calibrated
# first (about half a minute) and the file kept in the output directory.
# On a machine with fewer cores than ranks the ranks are oversubscribed;
# the calibration measures that too (rates with P ranks busy at once).
source "$(dirname "$0")/../scripts/common.sh"

model=$SUMMA_ROOT/examples/fixtures/gpt_small.mlir
inputs=$SUMMA_ROOT/examples/fixtures/gpt_small.inputs.safetensors
entry=""
train=1
machine=""
grids="1,1,1;2,2,1;1,1,2;2,2,2"
iters=3
reps=3
usage="usage: bench/plan_calibrated.sh [--machine FILE] [--model M.mlir [--entry F]] [--train|--forward] [--inputs FILE|none] [--grids G;G] [--iters N] [--reps R]"
while [ $# -gt 0 ]; do
  case "$1" in
  --machine) machine=$2; shift 2 ;;
  --model) model=$2; inputs=none; shift 2 ;;
  --entry) entry=$2; shift 2 ;;
  --train) train=1; shift ;;
  --forward) train=0; shift ;;
  --inputs) inputs=$2; shift 2 ;;
  --grids) grids=$2; shift 2 ;;
  --iters) iters=$2; shift 2 ;;
  --reps) reps=$2; shift 2 ;;
  *) echo "$usage" >&2; exit 2 ;;
  esac
done

summa_build summa-plan summa-opt summa-compile summa-calibrate >/dev/null
bin=$SUMMA_BUILD/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "$machine" ]; then
  machine=$work/machine.json
  "$bin/summa-plan" --calibrate -o "$machine"
  cp "$machine" "${TMPDIR:-/tmp}/summa-machine.json"
  echo "machine file kept as ${TMPDIR:-/tmp}/summa-machine.json"
fi

program=$model
name=$(grep -o 'func.func \(public \)\?@[A-Za-z0-9_]*' "$model" | head -n 1 | sed 's/.*@//')
if [ "$train" = 1 ]; then
  program=$work/step.mlir
  "$bin/summa-opt" "$model" --summa-differentiate="sgd-lr=0.01 params=floats" -o "$program"
  name=${name}_grad
fi
[ -n "$entry" ] && name=$entry
run_args=(--iters "$iters")
if [ "$inputs" != none ]; then run_args+=(--inputs "$inputs" --fill-missing); fi

echo "model: $model${train:+ (training step)}, entry @$name, $iters iters, median of $reps runs"
printf '%-9s %12s %12s %12s %12s %12s %10s\n' grid comm GEMM local predicted measured measured/pred
IFS=';' read -r -a grid_list <<<"$grids"
for grid in "${grid_list[@]}"; do
  IFS=, read -r q _ d <<<"$grid"
  ranks=$((q * q * d))
  "$bin/summa-compile" "$program" --entry="$name" --grid="$grid" -o "$work/prog" >/dev/null
  times=()
  for _ in $(seq "$reps"); do
    t=$("${SUMMA_MPIRUN[@]}" -np "$ranks" "$work/prog" "${run_args[@]}" |
      awk '/^time:/ {print $2}')
    times+=("$t")
  done
  "$bin/summa-plan" "$program" --entry "$name" --ranks "$ranks" --grid "$grid" \
    --machine "$machine" --json >"$work/plan.json" || true
  python3 - "$work/plan.json" "$grid" "${times[@]}" <<'EOF'
import json, statistics, sys
plan = json.load(open(sys.argv[1]))
grid, times = sys.argv[2], [float(t) for t in sys.argv[3:]]
name = "[" + grid + "]"
s = next(s for s in plan["strategies"] if s["name"] == name)
if not s["feasible"]:
    print("%-9s %s" % (name, "no: " + s["reason"]))
    sys.exit(0)
sec = s["seconds"]
measured = statistics.median(times) / 1e3
ms = lambda x: "%.3f ms" % (x * 1e3)
print("%-9s %12s %12s %12s %12s %12s %9.2fx" % (
    name, ms(sec["comm"]), ms(sec["gemm"]), ms(sec["local"]), ms(sec["total"]),
    ms(measured), measured / sec["total"]))
EOF
done
