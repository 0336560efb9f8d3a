#!/usr/bin/env bash
# Trains the JAX-exported GPT language model
# (examples/fixtures/gpt_lm_train_step_jax.mlir: 2 layers, hidden 32, vocab
# 256, batch 8 x 32 tokens, SGD lr 0.5) on Paradise Lost at byte level, from
# the JAX initialisation (examples/fixtures/gpt_lm.init.safetensors), for
# STEPS steps on [2,2,2] (8 ranks) and on [1,1,1], and prints the loss every
# 25 steps for both, the mean loss of the first and last 25 steps, and the
# largest difference between the two runs' losses over all steps.
#
#   bench/train_lm.sh [STEPS]      (default 300; needs a build in build/)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
steps=${1:-300}
bin="$here/build/bin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpirun=(mpirun --oversubscribe --allow-run-as-root)
[ "$(id -u)" = 0 ] || mpirun=(mpirun --oversubscribe)

python3 "$here/examples/data/prepare.py" "$here/examples/data/paradise_lost.txt" "$work/train.bin"
for grid in 2,2,2 1,1,1; do
  "$bin/summa-compile" "$here/examples/fixtures/gpt_lm_train_step_jax.mlir" \
    --grid=$grid -o "$work/lm.$grid"
done
"${mpirun[@]}" -np 8 "$work/lm.2,2,2" --inputs "$here/examples/fixtures/gpt_lm.init.safetensors" \
  --data "$work/train.bin" --vocab 256 --steps "$steps" --iters 0 > "$work/log.222"
"${mpirun[@]}" -np 1 "$work/lm.1,1,1" --inputs "$here/examples/fixtures/gpt_lm.init.safetensors" \
  --data "$work/train.bin" --vocab 256 --steps "$steps" --iters 0 > "$work/log.111"

python3 - "$work/log.222" "$work/log.111" <<'PY'
import sys
def losses(path):
    out = {}
    for line in open(path):
        f = line.split()
        if f and f[0] == "step":
            out[int(f[1].split("/")[0])] = (float(f[3]), float(f[7]), float(f[5]))
    return out
a, b = losses(sys.argv[1]), losses(sys.argv[2])
n = max(a)
print(f"{'step':>5} {'loss [2,2,2]':>13} {'loss [1,1,1]':>13}")
for s in sorted(a):
    if s == 1 or s % 25 == 0:
        print(f"{s:>5} {a[s][0]:>13.4f} {b[s][0]:>13.4f}")
first = sum(a[s][0] for s in range(1, 26)) / 25
last = sum(a[s][0] for s in range(n - 24, n + 1)) / 25
diff = max(abs(a[s][0] - b[s][0]) / abs(b[s][0]) for s in a)
worst = max(a, key=lambda s: abs(a[s][0] - b[s][0]) / abs(b[s][0]))
print(f"mean loss, steps 1-25: {first:.4f}; steps {n-24}-{n}: {last:.4f} ([2,2,2])")
print(f"largest relative loss difference [2,2,2] vs [1,1,1]: {diff:.2e} (step {worst})")
for name, d in (("[2,2,2]", a), ("[1,1,1]", b)):
    ms = sorted(d[s][1] for s in d)[len(d) // 2]
    print(f"{name}: median {ms:.2f} ms/step")
PY
