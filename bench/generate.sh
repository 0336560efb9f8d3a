#!/usr/bin/env bash
# Generation at real size, 2 prompts of 16 tokens, 32 new ones greedily
# (the export's sequence 48), random weights from the model's own
# initialisation; GENERATE_MODEL picks the model:
#   gpt2       Hugging Face GPT2LMHeadModel, GPT-2 small (124M, vocabulary
#              50257, not divisible by the grids) (default)
#   llama-gqa  Hugging Face LlamaForCausalLM, 12 layers, hidden 768, 12
#              query and 4 key/value heads (grouped-query), SwiGLU 2048,
#              rotary, vocabulary 32000 (125M)
# summa-derive-generation's prefill and decode step (decode
# weight-stationary) against Hugging Face's
# generate(cache_implementation="static") on one thread, in the same run
# (bench/hf_generate.py).
#
# Prints the KV caches the decode step keeps (count, shape), then for each
# grid the prefill time, the decode time per token (the median of the 31
# decode steps), the bytes a rank moves per decoded token by collective
# kind and their share of the weight bytes it holds, the KV cache bytes per
# rank against the whole, and whether every generated id is Hugging Face's.
# Then the same with the one executable of `summa-compile --generate`
# (prefill, decode and the sampler on the split logits): its own timings
# and bytes, greedy ids and every step's logits against Hugging Face's
# (also from the prompt with its rows left-padded), and seeded sampling
# (temperature 0.8, top-k 50, top-p 0.95) against the first grid's.
#
#   [GENERATE_MODEL=gpt2|llama-gqa] [GENERATE_WORK=DIR] bench/generate.sh [PYTHON] [GRIDS...]
#     PYTHON  an interpreter with the packages of
#             examples/export/requirements-torch.txt (default python3)
#     GRIDS   default 1,1,1 2,2,1
# Needs a build in build/. Several ranks on fewer cores share them: compare
# times of the same grid only.
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
case ${GENERATE_MODEL:-gpt2} in
  gpt2)
    f=hf_gpt2_logits
    shape=(--hidden 768 --heads 12 --layers 12 --vocab 50257) ;;
  llama-gqa)
    f=hf_llama_logits
    shape=(--hidden 768 --heads 12 --kv-heads 4 --ffn 2048 --layers 12 --vocab 32000) ;;
  *)
    echo "GENERATE_MODEL must be gpt2 or llama-gqa, got '$GENERATE_MODEL'" >&2
    exit 2 ;;
esac

if [ ! -f "$work/$f.mlir" ] || [ ! -f "$work/gen.config.json" ]; then
  "$python" "$here/examples/export/export_torch.py" $f --batch 2 --seq 48 \
    "${shape[@]}" --init model --skip-ir-check --save-generate "$work/gen" \
    --prompt 16 -o "$work/$f.mlir" 2>/dev/null
fi
"$bin/summa-opt" "$work/$f.mlir" --summa-derive-generation=prompt=16 \
  -o "$work/derived.mlir"
echo "KV caches of the decode step (count, shape):"
grep -o 'tensor<[0-9x]*xf32> {summa.name = "cache\.[0-9]*", summa.role' \
  "$work/derived.mlir" | sed 's/ {.*//' | sort | uniq -c
"$python" "$here/bench/hf_generate.py" "$work/gen.config.json" \
  "$work/gen.inputs.safetensors" "$work/gen.expect.safetensors"

for grid in "${grids[@]}"; do
  IFS=, read -r q1 q2 d <<<"$grid"
  np=$((q1 * q2 * d))
  for phase in prefill decode; do
    "$bin/summa-compile" "$work/derived.mlir" --entry ${f}_$phase \
      --grid "$grid" -o "$work/$phase.$grid"
  done
  "${mpirun[@]}" -np $np "$work/prefill.$grid" --inputs "$work/gen.inputs.safetensors" \
    --outputs "$work/state.$grid.safetensors" --iters 3 >"$work/prefill.$grid.log"
  SUMMA_PROFILE="$work/decode.$grid.profile" "${mpirun[@]}" -np $np \
    "$work/decode.$grid" --inputs "$work/gen.inputs.safetensors" \
    --inputs "$work/state.$grid.safetensors" --steps 31 --iters 0 \
    --expect "$work/gen.expect.safetensors" --tol generated=0 \
    --metrics "$work/decode.$grid.jsonl" >"$work/decode.$grid.log"
  "$python" - "$work" "$grid" <<'PY'
import glob, json, re, sys
work, grid = sys.argv[1:]
prefill = re.search(r"time: ([0-9.]+) ms/iter", open(f"{work}/prefill.{grid}.log").read())
steps = [json.loads(l) for l in open(f"{work}/decode.{grid}.jsonl")]
ms = sorted(s["ms_per_step"] for s in steps)
comm = max((s["comm_bytes"] for s in steps), key=lambda c: sum(c.values()))
moved = sum(comm.values())
# What a rank holds: the inputs it read (weights and the KV caches) less
# the caches it holds, from SUMMA_PROFILE; the caches from the state file.
profiles = [json.load(open(p)) for p in glob.glob(f"{work}/decode.{grid}.profile*")]
held = max(p["io"]["read_bytes"] for p in profiles)
from safetensors import safe_open
with safe_open(f"{work}/state.{grid}.safetensors", "np") as f:
    cache = sum(f.get_tensor(k).nbytes for k in f.keys() if k.startswith("cache."))
ranks = len(profiles)
d = int(grid.split(",")[2]); q = int(grid.split(",")[0])
cache_rank = cache / (q * q * d) if ranks > 1 else cache
weights = held - cache_rank
log = open(f"{work}/decode.{grid}.log").read()
same = "expect: PASS" in log
print(f"summa [{grid}] prefill_ms {float(prefill.group(1)):.1f} decode_ms_per_token "
      f"{ms[len(ms)//2]:.1f} (min {ms[0]:.1f}) bytes/token/rank {moved} "
      f"({100*moved/weights:.2f}% of {weights/1e6:.1f} MB weights held) "
      f"{json.dumps(comm)} kv_cache/rank {cache_rank/1e6:.2f} MB of {cache/1e6:.2f} MB "
      f"same_ids {same}")
PY
done

# The generator: one executable, greedy against Hugging Face's ids and
# logits, then a seeded draw compared with the first grid's.
for grid in "${grids[@]}"; do
  IFS=, read -r q1 q2 d <<<"$grid"
  np=$((q1 * q2 * d))
  "$bin/summa-compile" "$work/$f.mlir" --generate --prompt-length 16 \
    --grid "$grid" -o "$work/gen.$grid"
  echo "generator [$grid]:"
  "${mpirun[@]}" -np $np "$work/gen.$grid" --inputs "$work/gen.inputs.safetensors" \
    --prompt "$work/gen.inputs.safetensors" --save-logits \
    --expect "$work/gen.expect.safetensors" | grep -v '^sequence'
  # Rows of different lengths (left-padded as the export wrote them).
  "${mpirun[@]}" -np $np "$work/gen.$grid" --inputs "$work/gen.inputs.safetensors" \
    --prompt "$work/gen.padded.safetensors" --save-logits \
    --expect "$work/gen.padded.safetensors" | grep '^expect' |
    sed 's/^/  left-padded prompt: /'
  "${mpirun[@]}" -np $np "$work/gen.$grid" --inputs "$work/gen.inputs.safetensors" \
    --prompt "$work/gen.inputs.safetensors" --temperature 0.8 --top-k 50 \
    --top-p 0.95 --seed 1 | grep -E '^(sequence|generate: prefill)' >"$work/sample.$grid"
  grep '^generate: prefill' "$work/sample.$grid" | sed 's/^/  sampled: /'
  if [ "$grid" != "${grids[0]}" ]; then
    if diff <(grep '^sequence' "$work/sample.${grids[0]}") \
        <(grep '^sequence' "$work/sample.$grid") >/dev/null; then
      echo "  sampled ids: the same as [${grids[0]}]"
    else
      echo "  sampled ids: DIFFER from [${grids[0]}]"
    fi
  fi
done
