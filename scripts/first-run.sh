#!/usr/bin/env bash
#===- first-run.sh - the first minutes of a GPU machine, staged ----------===#
#
# usage: bash device-bundle/first-run.sh [--budget SECONDS] [--only N[,N...]]
#
# scripts/device-bundle.sh writes this file into device-bundle/ beside the
# bundle (device-bundle/summa-device.tar.gz). On a GPU machine that has the
# repository and device-bundle/ carried, it unpacks the bundle under
# /tmp/summa-device and runs, most informative first, each stage under its
# own time limit, the whole within --budget seconds (default 420, under 8
# minutes):
#
#   1. libraries load and the device is seen: the CUDA, cuBLAS and NCCL
#      libraries (found in the nvidia-* wheels or the toolkit), their
#      versions, nvidia-smi and summa-gpu-device-query;
#   2. the runtime's device tests: GEMMs in every form and type, NCCL, the
#      pool, the device fill, and the driver's programs on [1,1,1];
#   3. one compiled GPT layer under compute-sanitizer (memcheck);
#   4. the compiled examples on [1,1,1] with --check, and the training
#      steps derived from nanoGPT and Llama (f32 and bf16) with --check and
#      --expect against PyTorch's autograd;
#   5. the one-GPU MPI mode: the device tests on [2,2,1] and compiled
#      programs on [2,2,1] (4 ranks sharing the GPU), integer collectives
#      among them;
#   6. timings: the compiled GPT-2-XL-size layer against PyTorch eager.
#
# A stage that cannot start for want of a device says "no device" (the
# machine has none), not FAIL; a library that does not load is a FAIL.
# Logs (one per stage) and summary.txt go to $OUT/first-run (or
# ./first-run-out). Exit status 0 when no stage failed.
#
#===----------------------------------------------------------------------===#

set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SELF=$HERE/$(basename "${BASH_SOURCE[0]}")
PREFIX=/tmp/summa-device
EXAMPLES=$PREFIX/examples
BUILD=$PREFIX/build-gpu
LOGS=${OUT:-$ROOT/first-run-out}/first-run
BUDGET=420
ONLY=""

# Exit statuses of a stage.
PASS=0
NODEV=3
SKIP=4

#===----------------------------------------------------------------------===#
# Stages (each runs as `first-run.sh --stage N` under `timeout`)
#===----------------------------------------------------------------------===#

devices() { cat "$LOGS/devices" 2>/dev/null || echo 0; }
need_device() {
  if [ "$(devices)" -lt 1 ]; then
    echo "no CUDA device: stage not run"
    exit $NODEV
  fi
}

# run_program EXE RANKS MODE [ARGS...]: runs a compiled program with --check
# (and the arguments of EXE.args: --inputs, --expect, --tol) and says PASS or
# FAIL on one line; returns non-zero on failure.
run_program() {
  local exe=$1 ranks=$2 mode=$3
  shift 3
  local extra=() steps=1
  case $exe in *train*) steps=2 ;; esac
  if [ -f "$exe.args" ]; then
    read -r -a extra <"$exe.args"
    steps=1
  fi
  local out=$LOGS/programs/$(basename "$exe").$mode.log
  mkdir -p "$LOGS/programs"
  (cd "$EXAMPLES" && timeout 60 env SUMMA_GPU_COLLECTIVES=$mode mpiexec -np "$ranks" \
    -x SUMMA_GPU_COLLECTIVES -x LD_LIBRARY_PATH "$exe" --check --steps $steps \
    "${extra[@]}" "$@") >"$out" 2>&1
  local status=$?
  local verdict=PASS
  if [ $status -ne 0 ] || ! grep -q '^check: PASS' "$out" ||
    { [ ${#extra[@]} -gt 0 ] && ! grep -q '^expect: PASS' "$out"; }; then
    verdict=FAIL
  fi
  echo "$verdict $(basename "$exe") ($mode, $ranks ranks): $(grep -E '^(check|expect): (PASS|FAIL)' "$out" | tr '\n' ' ')"
  [ $verdict = PASS ]
}

stage_1() {
  nvidia-smi -L 2>&1 || echo "nvidia-smi: not found or failed"
  echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  echo "== ldd libsumma_runtime_cuda.so"
  ldd "$BUILD/lib/libsumma_runtime_cuda.so"
  local missing
  missing=$(ldd "$BUILD/lib/libsumma_runtime_cuda.so" | grep -c 'not found')
  echo "== summa-gpu-device-query -v"
  local query=$BUILD/gpu/test/summa-gpu-device-query
  if ! "$query" -v >"$LOGS/query.txt" 2>&1; then
    cat "$LOGS/query.txt"
    echo "FAIL: summa-gpu-device-query did not run (a library does not load)"
    exit 1
  fi
  cat "$LOGS/query.txt"
  head -n 1 "$LOGS/query.txt" >"$LOGS/devices"
  if [ "$missing" -gt 0 ]; then
    echo "FAIL: $missing libraries of libsumma_runtime_cuda.so not found"
    exit 1
  fi
  grep '^versions:' "$LOGS/query.txt" >"$LOGS/versions" || true
  need_device
}

stage_2() {
  need_device
  cd "$BUILD" && ctest -R 'summa_gpu\.(device\.nccl|driver\..*\.1x1x1$|fatal\.)' \
    --timeout 100 --output-on-failure -j 2
}

stage_3() {
  need_device
  local sanitizer
  sanitizer=$(command -v compute-sanitizer || true)
  for candidate in /usr/local/cuda/bin/compute-sanitizer \
    "$(python3 -c 'import nvidia, os; print(list(nvidia.__path__)[0])' 2>/dev/null)"/cuda_sanitizer_api/compute-sanitizer/compute-sanitizer; do
    [ -z "$sanitizer" ] && [ -x "$candidate" ] && sanitizer=$candidate
  done
  if [ -z "$sanitizer" ]; then
    echo "no compute-sanitizer (CUDA toolkit or the nvidia-cuda-sanitizer-api wheel)"
    exit $SKIP
  fi
  echo "$sanitizer"
  cd "$EXAMPLES" && mpiexec -np 1 -x LD_LIBRARY_PATH "$sanitizer" --tool memcheck \
    --error-exitcode 9 --print-limit 20 ./gpt_layer.111.cuda --check
}

stage_4() {
  need_device
  local failed=0 exe
  # The training steps first: what no CPU test can show.
  for exe in "$EXAMPLES"/step.*.111.cuda; do
    [ -f "$exe" ] && { run_program "$exe" 1 nccl || failed=1; }
  done
  for exe in "$EXAMPLES"/*.111.cuda; do
    case $(basename "$exe") in step.*) continue ;; esac
    [ -f "$exe" ] && { run_program "$exe" 1 nccl || failed=1; }
  done
  exit $failed
}

stage_5() {
  need_device
  local failed=0 exe
  (cd "$BUILD" && ctest -R 'summa_gpu\.device\.mpi_mode\.2x2x1' --timeout 100 \
    --output-on-failure) || failed=1
  for exe in "$EXAMPLES"/step.gpt_small.f32.221.cuda \
    "$EXAMPLES"/fixtures_gpt_lm_train_step_jax.221.cuda "$EXAMPLES"/gpt_layer.221.cuda \
    "$EXAMPLES"/step.hf_llama_lm.f32.221.cuda; do
    [ -f "$exe" ] || continue
    run_program "$exe" 4 mpi || failed=1
  done
  exit $failed
}

stage_6() {
  need_device
  cd "$EXAMPLES" && timeout 60 mpiexec -np 1 -x LD_LIBRARY_PATH ./layer_xl.cuda --iters 10 ||
    exit 1
  if ! python3 -c 'import torch' 2>/dev/null; then
    echo "no PyTorch: the comparison is not made"
    exit $SKIP
  fi
  timeout 90 python3 "$ROOT/bench/torch_layer.py" --batch 8 --seq 1024 --hidden 1536 \
    --heads 24 --ffn 6144 --dtype bf16 --iters 20 --modes eager
}

STAGE_NAMES=(""
  "libraries load, device seen"
  "runtime device tests [1,1,1]"
  "compiled GPT layer under compute-sanitizer"
  "compiled examples and training steps [1,1,1]"
  "MPI mode [2,2,1] (4 ranks, one GPU)"
  "timings: GPT layer vs PyTorch eager")
# The most each stage may take (seconds); the budget cuts the last ones.
STAGE_LIMITS=(0 45 100 60 110 75 90)

#===----------------------------------------------------------------------===#
# Environment: the bundle's MPI and runtime, CUDA libraries the loader misses
#===----------------------------------------------------------------------===#

setup_environment() {
  export PATH=$PREFIX/mpi/bin:/usr/local/cuda/bin:$PATH
  export LD_LIBRARY_PATH=$BUILD/lib:${LD_LIBRARY_PATH:-}
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_rmaps_base_oversubscribe=1
  local roots=() dir name found
  dir=$(timeout 30 python3 -c 'import nvidia, os; print(list(nvidia.__path__)[0])' 2>/dev/null || true)
  [ -n "$dir" ] && roots+=("$dir")
  for dir in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$dir" ] && roots+=("$dir")
  done
  [ ${#roots[@]} -gt 0 ] || return 0
  for lib in "$BUILD/lib/libsumma_runtime_cuda.so" "$BUILD/gpu/test/summa-gpu-device-query"; do
    for name in $(ldd "$lib" 2>/dev/null | awk '/not found/ { print $1 }'); do
      found=$(timeout 30 find "${roots[@]}" -name "$name" 2>/dev/null | head -n 1)
      if [ -n "$found" ]; then
        export LD_LIBRARY_PATH=$(dirname "$found"):$LD_LIBRARY_PATH
        echo "first-run: $name from $(dirname "$found")"
      fi
    done
  done
}

#===----------------------------------------------------------------------===#
# Main
#===----------------------------------------------------------------------===#

if [ "${1:-}" = "--stage" ]; then
  "stage_$2"
  exit $?
fi
while [ $# -gt 0 ]; do
  case $1 in
  --budget) BUDGET=$2; shift 2 ;;
  --only) ONLY=,$2,; shift 2 ;;
  -h | --help) sed -n '2,/^#===-/p' "$SELF" | sed '$d'; exit 0 ;;
  *) echo "first-run: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

START=$(date +%s)
mkdir -p "$LOGS"
rm -f "$LOGS"/*.log "$LOGS/devices" "$LOGS/summary.txt"
if [ ! -x "$BUILD/gpu/test/summa-gpu-device-query" ] ||
  [ "$HERE/summa-device.tar.gz" -nt "$PREFIX" ]; then
  echo "first-run: unpacking the bundle into $PREFIX"
  rm -rf "$PREFIX"
  tar xzf "$HERE/summa-device.tar.gz" -C /tmp || exit 1
  touch "$PREFIX"
fi
setup_environment 2>&1 | tee "$LOGS/environment.log"
# setup_environment ran in a pipe's subshell: take its exports again here.
setup_environment >/dev/null 2>&1
export LOGS EXAMPLES BUILD PREFIX ROOT

SUMMARY=()
failed=0
for n in 1 2 3 4 5 6; do
  [ -n "$ONLY" ] && [[ $ONLY != *",$n,"* ]] && continue
  name=${STAGE_NAMES[$n]}
  log=$LOGS/$n-$(echo "$name" | tr -c 'A-Za-z0-9\n' '-' | tr -s '-' | cut -c1-40).log
  left=$((BUDGET - ($(date +%s) - START)))
  limit=${STAGE_LIMITS[$n]}
  [ $left -lt $limit ] && limit=$left
  if [ $limit -lt 10 ]; then
    SUMMARY+=("$n|$name|NOT RUN|the budget of $BUDGET s is spent")
    continue
  fi
  echo "first-run [$(($(date +%s) - START))s]: stage $n: $name (at most $limit s)"
  t0=$(date +%s)
  timeout -k 5 "$limit" bash "$SELF" --stage $n >"$log" 2>&1
  status=$?
  seconds=$(($(date +%s) - t0))
  case $status in
  $PASS) result=PASS ;;
  $NODEV) result="no device" ;;
  $SKIP) result=SKIP ;;
  124 | 137) result=TIMEOUT; failed=1 ;;
  *) result=FAIL; failed=1 ;;
  esac
  detail="$seconds s, $(basename "$log")"
  case $n in
  1) detail="$detail; $(cat "$LOGS/versions" 2>/dev/null || tail -n 1 "$log")" ;;
  4 | 5) detail="$detail; $(grep -c '^PASS ' "$log") programs passed, $(grep -c '^FAIL ' "$log") failed" ;;
  6) detail="$detail; $(grep -E '^time:|ms/iter' "$log" | tr '\n' ' ')" ;;
  esac
  SUMMARY+=("$n|$name|$result|$detail")
  echo "first-run: stage $n: $result ($seconds s)"
  [ "$result" = FAIL ] && tail -n 15 "$log" | sed 's/^/  | /'
done

{
  echo "== summa first run, $(date -u '+%Y-%m-%d %H:%M UTC'), $(($(date +%s) - START)) s of $BUDGET =="
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1
  printf '%-3s %-46s %-10s %s\n' "" "stage" "result" "detail"
  for entry in "${SUMMARY[@]}"; do
    IFS='|' read -r n name result detail <<<"$entry"
    printf '%-3s %-46s %-10s %s\n' "$n" "$name" "$result" "$detail"
  done
} | tee "$LOGS/summary.txt"
exit $failed
