#!/usr/bin/env bash
#===- gpu-check.sh - check the GPU backend on a machine with a GPU -------===#
#
# usage: scripts/gpu-check.sh [--build-dir DIR] [--tokens T] [--skip-build]
#                             [--bundle DIR] [--list-examples] [--list-steps]
#                             [--compile-steps DIR]
#
# --bundle DIR: use what scripts/device-bundle.sh built elsewhere (the MPI,
# the runtime build and the compiled examples in DIR) instead of building
# here: for a GPU machine with no MPI, no MLIR and no network.
# --list-examples: print the names of the compiled examples and stop.
# --list-steps: print the training steps (model:dtype:tolerance) and stop.
# --compile-steps DIR: compile the training steps into DIR with
# $SUMMA_COMPILE (and the summa-opt beside it), and stop.
#
# For a machine with an NVIDIA GPU (written for one H200; under 8 minutes):
#   1. builds the runtime alone (runtime/, no LLVM needed) with the GPU
#      backend into build-gpu/ (or DIR);
#   2. runs every GPU test through CTest (ctest -R summa_gpu): the host-side
#      unit tests; the device tests (cuBLAS GEMMs in all forms and types,
#      pool, device fill, f16/bf16) on [1,1,1] through NCCL and cuBLAS, the
#      collectives on [2,2,1] and [1,1,2] in the one-GPU MPI test mode;
#      hand-written programs through the GPU driver (double, SUMMA matmul)
#      on [1,1,1] with NCCL and on [2,2,1], [1,1,2], [2,2,2] in the MPI test
#      mode, f32/bf16/f16; the fatal-error paths;
#   3. times the local GEMMs of a GPT layer (h = 1536, 24 heads, seq 1024)
#      through summaRtMatmul against cuBLAS's own rate for the same shapes;
#   4. compiles every example with `summa-compile --target=cuda` (from
#      $SUMMA_COMPILE, build/, or built here into DIR-compiler when MLIR 22
#      is installed) and runs `--check` on [1,1,1] through NCCL and on
#      [2,2,1] in the one-GPU test mode, f32, and the GPT layer in bf16 and
#      f16; the training steps summa-differentiate derives from nanoGPT
#      (gpt_small) and Llama (hf_llama_lm), f32 and bf16, on [1,1,1] and
#      [2,2,1] with --check and --expect against PyTorch's autograd (the
#      fixtures' *.sgd.safetensors; bf16: examples/export/convert_dtype.py
#      of the f32 export, inputs and results); times the compiled GPT layer
#      (bf16, h = 1536, 24 heads, seq 1024) against bench/torch_layer.py
#      (PyTorch eager and torch.compile, same shapes and dtype) when
#      PyTorch is installed.
#   5. prints one table last. Exit status 0 only if every test passed.
#
# Needs: nvcc, CMake >= 3.20, Ninja, an MPI (mpirun, headers), GoogleTest,
# OpenBLAS (the CPU backend is configured alongside), NCCL >= 2.18 (found
# with the CUDA toolkit, in NCCL_HOME, or in the nvidia-nccl Python wheel).
#
#===----------------------------------------------------------------------===#

set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${SUMMA_GPU_BUILD_DIR:-$ROOT/build-gpu}
TOKENS=8192
SKIP_BUILD=0
BUNDLE=""
COMPILE_STEPS=""
# The examples compiled for the GPU: each on [1,1,1] and [2,2,1]; those in
# fixtures/ are exports (Llama with its rotary tables inlined, nanoGPT with
# every weight a constant, the JAX language model's training step on i32
# token ids, Hugging Face's LlamaModel on i64 token ids with its
# tm_tensor.scan).
EXAMPLES=(mlp mlp_erf attention gpt_layer gpt mlp_loss gpt_loss mlp_train_step
  mlp_train_adam gpt_train_step gpt_layer_bf16 gpt_layer_f16
  fixtures/llama_layer fixtures/nanogpt_block_const fixtures/gpt_lm_train_step_jax
  fixtures/hf_llama_model)
# The training steps derived by summa-differentiate: model:dtype:tolerance of
# --check and --expect (empty: the driver's default). nanoGPT's export
# writes GELU-tanh with 0.797724 for sqrt(2/pi) (--tol 1e-4 in f32, as in
# test/Integration/torch-train-step.mlir); bf16 steps are compared with the
# f32 autograd results rounded to bf16 (every op of the step rounds).
STEPS=(gpt_small:f32:1e-4 gpt_small:bf16:5e-2 hf_llama_lm:f32: hf_llama_lm:bf16:5e-2)
while [ $# -gt 0 ]; do
  case $1 in
  --build-dir) BUILD=$2; shift 2 ;;
  --tokens) TOKENS=$2; shift 2 ;;
  --skip-build) SKIP_BUILD=1; shift ;;
  --bundle) BUNDLE=$(cd "$2" && pwd); shift 2 ;;
  --list-examples) echo "${EXAMPLES[@]}"; exit 0 ;;
  --list-steps) echo "${STEPS[@]}"; exit 0 ;;
  --compile-steps) COMPILE_STEPS=$2; shift 2 ;;
  -h | --help) sed -n '2,/^#===-/p' "$0" | sed '$d'; exit 0 ;;
  *) echo "gpu-check: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

CHIP=${SUMMA_CUDA_CHIP:-sm_90}
# compile_step step.MODEL.DTYPE GRID EXE: the training step summa-differentiate
# derives from examples/fixtures/MODEL.mlir (bf16: converted from the f32
# export), compiled, with its --inputs and --expect files (converted for
# bf16) beside EXE and the arguments in EXE.args.
compile_step() {
  local name=$1 grid=$2 exe=$3
  local model dtype tol="" spec fixtures=$ROOT/examples/fixtures
  IFS=. read -r _ model dtype <<<"$name"
  for spec in "${STEPS[@]}"; do
    [ "${spec%:*}" = "$model:$dtype" ] && tol=${spec##*:}
  done
  local base data
  base=$(dirname "$exe")/step.$model.$dtype
  # The tensor files (shared by the grids: written aside, then renamed).
  for data in inputs:inputs expect:sgd; do
    local file=$base.${data%%:*}.safetensors source=$fixtures/$model.${data##*:}.safetensors
    if [ "$dtype" = f32 ]; then
      cp "$source" "$exe.tmp" || return 1
    else
      python3 "$ROOT/examples/export/convert_dtype.py" safetensors --dtype "$dtype" \
        "$source" "$exe.tmp" || return 1
    fi
    mv "$exe.tmp" "$file"
  done
  if [ "$dtype" = f32 ]; then
    cp "$fixtures/$model.mlir" "$exe.fwd.mlir"
  else
    python3 "$ROOT/examples/export/convert_dtype.py" mlir --dtype "$dtype" \
      "$fixtures/$model.mlir" "$exe.fwd.mlir" || return 1
  fi
  "$(dirname "$COMPILE")/summa-opt" "$exe.fwd.mlir" \
    --summa-differentiate="sgd-lr=0.01 params=floats" -o "$exe.mlir" &&
    "$COMPILE" "$exe.mlir" --entry="${model}_grad" --grid="$grid" --target=cuda \
      --cuda-chip="$CHIP" -o "$exe" || return 1
  rm -f "$exe.fwd.mlir" "$exe.mlir"
  echo "--inputs $(basename "$base").inputs.safetensors --expect" \
    "$(basename "$base").expect.safetensors --iters 0${tol:+ --tol $tol}" >"$exe.args"
}

# --compile-steps DIR (for scripts/device-bundle.sh): the training steps on
# [1,1,1] and [2,2,1] compiled into DIR with $SUMMA_COMPILE, then stop.
if [ -n "$COMPILE_STEPS" ]; then
  COMPILE=${SUMMA_COMPILE:?--compile-steps needs SUMMA_COMPILE}
  mkdir -p "$COMPILE_STEPS"
  for spec in "${STEPS[@]}"; do
    IFS=: read -r model dtype _ <<<"$spec"
    for grid in 1,1,1 2,2,1; do
      echo "gpu-check: step.$model.$dtype [$grid]"
      compile_step "step.$model.$dtype" $grid \
        "$COMPILE_STEPS/step.$model.$dtype.${grid//,/}.cuda" || exit 1
    done
  done
  exit 0
fi

# The bundle's MPI first on the PATH, its runtime build, its compiled
# examples (which load the bundle's runtime library).
PRECOMPILED=""
if [ -n "$BUNDLE" ]; then
  BUILD=$BUNDLE/build-gpu
  SKIP_BUILD=1
  PRECOMPILED=$BUNDLE/examples
  export PATH=$BUNDLE/mpi/bin:$PATH
  export LD_LIBRARY_PATH=$BUILD/lib:${LD_LIBRARY_PATH:-}
fi

START=$(date +%s)
LOG=$BUILD/gpu-check
mkdir -p "$LOG"
ROWS=()
FAILED=0
row() { ROWS+=("$1|$2|$3"); }
elapsed() { echo $(($(date +%s) - START)); }
say() { echo "gpu-check [$(elapsed)s]: $*"; }

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export PATH=/usr/local/cuda/bin:$PATH
MLIR_PREFIX=${SUMMA_LLVM_PREFIX:-/usr/lib/llvm-22}

#===----------------------------------------------------------------------===#
# 0. Machine
#===----------------------------------------------------------------------===#

GPU_NAME=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
say "GPU: ${GPU_NAME:-none found by nvidia-smi}"
say "nvcc: $(nvcc --version 2>/dev/null | tail -n 1 || echo missing)"
missing=()
for tool in nvcc cmake ninja mpirun; do
  command -v $tool >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "missing tools: ${missing[*]}"
fi

# NCCL: with the toolkit, in NCCL_HOME, or from the nvidia-nccl wheel.
if [ -z "${NCCL_HOME:-}" ] && [ ! -f /usr/local/cuda/include/nccl.h ] &&
  [ ! -f /usr/include/nccl.h ]; then
  wheel=$(python3 -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))' 2>/dev/null ||
    python3 -c 'import nvidia.nccl, os; print(list(nvidia.nccl.__path__)[0])' 2>/dev/null)
  if [ -n "$wheel" ] && [ -f "$wheel/include/nccl.h" ]; then
    export NCCL_HOME=$wheel
    [ -e "$wheel/lib/libnccl.so" ] || ln -sf libnccl.so.2 "$wheel/lib/libnccl.so" 2>/dev/null
    export LD_LIBRARY_PATH=$wheel/lib:${LD_LIBRARY_PATH:-}
    say "NCCL from the Python wheel: $wheel"
  fi
fi

# Libraries the runtime needs that the loader does not find (a machine whose
# CUDA libraries come as Python wheels, or live in a toolkit folder outside
# its search path): looked up there and added to LD_LIBRARY_PATH.
find_missing_libraries() {
  local lib=$1 roots=() dir name found
  [ -f "$lib" ] || return 0
  dir=$(python3 -c 'import nvidia, os; print(list(nvidia.__path__)[0])' 2>/dev/null || true)
  [ -n "$dir" ] && roots+=("$dir")
  for dir in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$dir" ] && roots+=("$dir")
  done
  for name in $(ldd "$lib" 2>/dev/null | awk '/not found/ { print $1 }'); do
    found=$(find "${roots[@]}" -name "$name" 2>/dev/null | head -n 1)
    if [ -n "$found" ]; then
      export LD_LIBRARY_PATH=$(dirname "$found"):${LD_LIBRARY_PATH:-}
      say "$name from $(dirname "$found")"
    else
      say "$name: not found (the GPU tests will fail to start)"
    fi
  done
}

#===----------------------------------------------------------------------===#
# 1. Build
#===----------------------------------------------------------------------===#

if [ $SKIP_BUILD -eq 0 ]; then
  say "configuring $BUILD (runtime only)"
  if ! cmake -S "$ROOT/runtime" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DSUMMA_ENABLE_GPU=ON >"$LOG/configure.log" 2>&1; then
    tail -n 30 "$LOG/configure.log"
    row "configure (cmake -S runtime)" FAIL "see $LOG/configure.log"
    FAILED=1
  fi
  if [ $FAILED -eq 0 ]; then
    say "building"
    build_start=$(date +%s)
    if ninja -C "$BUILD" >"$LOG/build.log" 2>&1; then
      row "build (libsumma_runtime_cuda.so, tests)" PASS "$(($(date +%s) - build_start)) s"
    else
      tail -n 40 "$LOG/build.log"
      row "build (libsumma_runtime_cuda.so, tests)" FAIL "see $LOG/build.log"
      FAILED=1
    fi
  fi
fi

find_missing_libraries "$BUILD/lib/libsumma_runtime_cuda.so"

# The device query links what libsumma_runtime_cuda.so loads: if it does
# not run, a library is missing, which is a failure, not "no device".
QUERY=$BUILD/gpu/test/summa-gpu-device-query
DEVICES=0
if [ -x "$QUERY" ]; then
  if "$QUERY" -v >"$LOG/device-query.log" 2>&1; then
    sed 's/^/  /' "$LOG/device-query.log"
    DEVICES=$(head -n 1 "$LOG/device-query.log")
    row "libraries load (device query)" PASS "$(grep '^versions:' "$LOG/device-query.log" | cut -c11-)"
  else
    sed 's/^/  /' "$LOG/device-query.log"
    row "libraries load (device query)" FAIL "see device-query.log"
    FAILED=1
  fi
fi
if [ "${DEVICES:-0}" -lt 1 ]; then
  say "no CUDA device: the device tests will report 'skipped'"
fi

#===----------------------------------------------------------------------===#
# 2. Tests
#===----------------------------------------------------------------------===#

# ctest_group NAME REGEX: runs the matching tests, one table row.
ctest_group() {
  local name=$1 regex=$2 jobs=${3:-1}
  local out="$LOG/ctest-$(echo "$name" | tr -c 'A-Za-z0-9' '_').log"
  (cd "$BUILD" && ctest -R "$regex" -E 'summa_gpu.bench' -j "$jobs" \
    --output-on-failure --timeout 300) >"$out" 2>&1
  local total passed skipped failed
  total=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#' "$out")
  passed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#.* Passed' "$out")
  skipped=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#.*Skipped' "$out")
  failed=$((total - passed - skipped))
  local result=PASS
  if [ "$total" -eq 0 ]; then
    result=FAIL
    FAILED=1
  elif [ "$failed" -gt 0 ]; then
    result=FAIL
    FAILED=1
    grep -E '^ *[0-9]+/[0-9]+ Test +#' "$out" | grep -vE 'Passed|Skipped' | sed 's/^/  /'
  elif [ "$passed" -eq 0 ]; then
    result=SKIP
  fi
  row "$name" "$result" "$passed passed, $skipped skipped, $failed failed of $total ($(basename "$out"))"
  say "$name: $result ($passed/$total passed, $skipped skipped)"
}

if [ -d "$BUILD" ] && [ -f "$BUILD/CTestTestfile.cmake" ]; then
  say "tests"
  ctest_group "host unit tests (1, 2, 4, 8 ranks)" 'summa_gpu\.host\.' 4
  ctest_group "device tests [1,1,1]: GEMM, NCCL, pool, fill" 'summa_gpu\.device\.nccl'
  ctest_group "device tests [2,2,1] [1,1,2]: MPI test mode" 'summa_gpu\.device\.mpi_mode'
  ctest_group "driver [1,1,1] NCCL + cuBLAS (f32 bf16 f16)" 'summa_gpu\.driver\..*1x1x1$'
  ctest_group "driver [2,2,1] [1,1,2] [2,2,2] MPI test mode" 'summa_gpu\.driver\..*mpi_mode'
  ctest_group "driver options and refusals" 'summa_gpu\.driver\.(help|unknown|grid_mismatch|no_device)' 2
  ctest_group "fatal errors (message, all ranks end)" 'summa_gpu\.fatal\.' 2
fi

#===----------------------------------------------------------------------===#
# 3. Timings
#===----------------------------------------------------------------------===#

BENCH=$BUILD/gpu/test/summa-gpu-bench
GEMM_ROWS=()
if [ "${DEVICES:-0}" -ge 1 ] && [ -x "$BENCH" ]; then
  say "timing GEMMs (tokens = $TOKENS)"
  if timeout 240 "$BENCH" --tokens "$TOKENS" --iters 20 >"$LOG/bench.log" 2>&1; then
    while read -r kind name type m n k ta tb summa cublas ratio; do
      form="A·B"
      [ "$ta" = 1 ] && form="Aᵀ·B"
      [ "$tb" = 1 ] && form="A·Bᵀ"
      verdict=PASS
      awk -v r="$ratio" 'BEGIN { exit !(r < 0.90) }' && verdict=BELOW
      GEMM_ROWS+=("GEMM $type $name ${m}x${n}x${k} $form|$verdict $ratio|summa $summa, cuBLAS $cublas TFLOP/s")
    done < <(grep '^gemm ' "$LOG/bench.log")
  else
    tail -n 20 "$LOG/bench.log"
    row "GEMM timings" FAIL "see $LOG/bench.log"
    FAILED=1
  fi
else
  row "GEMM timings" SKIP "no CUDA device or no benchmark binary"
fi

#===----------------------------------------------------------------------===#
# 4. Compiled examples (summa-compile --target=cuda) and the GPT layer
#===----------------------------------------------------------------------===#

# summa-compile: $SUMMA_COMPILE, the project's build/, or built here when
# MLIR 22 is installed (the compiler needs it; the runtime above does not).
COMPILE=${SUMMA_COMPILE:-}
if [ -z "$COMPILE" ] && [ -x "$ROOT/build/bin/summa-compile" ] &&
  [ -f "$ROOT/build/runtime/lib/libsumma_runtime_cuda.so" ]; then
  COMPILE=$ROOT/build/bin/summa-compile
fi
if [ -z "$COMPILE" ] && [ $SKIP_BUILD -eq 0 ] && [ -d "$MLIR_PREFIX/lib/cmake/mlir" ]; then
  say "building summa-compile with the GPU backend in $BUILD-compiler"
  cstart=$(date +%s)
  if cmake -S "$ROOT" -B "$BUILD-compiler" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$MLIR_PREFIX/lib/cmake/mlir" -DSUMMA_ENABLE_GPU=ON \
    -DLLVM_EXTERNAL_LIT="$MLIR_PREFIX/bin/lit" >"$LOG/compiler-configure.log" 2>&1 &&
    ninja -C "$BUILD-compiler" summa-compile summa_runtime_cuda >"$LOG/compiler-build.log" 2>&1; then
    COMPILE=$BUILD-compiler/bin/summa-compile
    row "build summa-compile (--target=cuda)" PASS "$(($(date +%s) - cstart)) s"
  else
    row "build summa-compile (--target=cuda)" FAIL "see $LOG/compiler-*.log"
    FAILED=1
  fi
fi

# compile_example NAME GRID FILE: summa-compile --target=cuda in the
# background (the compiles run in parallel; run_example waits for its own).
declare -A COMPILE_PID
compile_example() {
  local name=$1 grid=$2 file=$3
  local exe="$LOG/${name//\//_}.${grid//,/}.cuda"
  if [ -n "$PRECOMPILED" ]; then
    # A training step brings its arguments and tensor files.
    if [ -f "$PRECOMPILED/$(basename "$exe").args" ]; then
      cp "$PRECOMPILED/$(basename "$exe").args" "$exe.args"
      cp "$PRECOMPILED/${name}".*.safetensors "$LOG/"
    fi
    cp "$PRECOMPILED/$(basename "$exe")" "$exe" >"$exe.compile.log" 2>&1 &
  elif [ -n "$file" ] && [ "${file%.args}" != "$file" ]; then
    # A training step: derived, compiled, and its tensor files beside it.
    compile_step "$name" "$grid" "$exe" >"$exe.compile.log" 2>&1 &
  else
    "$COMPILE" "$file" --grid="$grid" --target=cuda --cuda-chip="$CHIP" \
      -o "$exe" >"$exe.compile.log" 2>&1 &
  fi
  COMPILE_PID["$name.$grid"]=$!
}

# run_example NAME GRID RANKS MODE STEPS: runs the compiled example with
# --check (MODE nccl, or mpi: the one-GPU test mode), one table row.
run_example() {
  local name=$1 grid=$2 ranks=$3 mode=$4 steps=$5
  local exe="$LOG/${name//\//_}.${grid//,/}.cuda"
  local out="$LOG/${name//\//_}.${grid//,/}.$mode.log"
  if ! wait "${COMPILE_PID["$name.$grid"]}"; then
    row "compiled $name [$grid] ($mode)" FAIL "compile: see $(basename "$exe").compile.log"
    FAILED=1
    return
  fi
  # A training step's --inputs, --expect and --tol (paths relative to the
  # folder of the programs).
  local extra=()
  [ -f "$exe.args" ] && read -r -a extra <"$exe.args"
  if (cd "$LOG" && timeout 120 env SUMMA_GPU_COLLECTIVES=$mode mpirun -np "$ranks" \
    -x SUMMA_GPU_COLLECTIVES "$exe" --check --steps "$steps" "${extra[@]}") >"$out" 2>&1 &&
    grep -q '^check: PASS' "$out" &&
    { [ ${#extra[@]} -eq 0 ] || grep -q '^expect: PASS' "$out"; }; then
    row "compiled $name [$grid] ($mode)" PASS "$(grep -E '^(check|expect): PASS' "$out" | tr '\n' ' ')"
  else
    row "compiled $name [$grid] ($mode)" FAIL "see $(basename "$out")"
    FAILED=1
  fi
}

LAYER_MS=""
if [ -z "$COMPILE" ] && [ -z "$PRECOMPILED" ]; then
  row "compiled examples (--target=cuda)" SKIP "no summa-compile (needs MLIR 22; set SUMMA_COMPILE)"
elif [ "${DEVICES:-0}" -lt 1 ]; then
  row "compiled examples (--target=cuda)" SKIP "no CUDA device"
else
  say "compiled examples on the GPU (--target=cuda --cuda-chip=$CHIP)"
  for dt in bf16 f16; do
    python3 "$ROOT/examples/generate.py" layer --dtype $dt -o "$LOG/gpt_layer_$dt.mlir"
  done
  for ex in "${EXAMPLES[@]}"; do
    file=$ROOT/examples/$ex.mlir
    [ -f "$file" ] || file=$LOG/$ex.mlir
    compile_example "$ex" 1,1,1 "$file"
    compile_example "$ex" 2,2,1 "$file"
  done
  # The training steps: derived by summa-differentiate from the exports
  # (bf16: converted from f32), checked against PyTorch's autograd.
  STEP_NAMES=()
  for spec in "${STEPS[@]}"; do
    IFS=: read -r model dtype _ <<<"$spec"
    STEP_NAMES+=("step.$model.$dtype")
    compile_example "step.$model.$dtype" 1,1,1 ".args"
    compile_example "step.$model.$dtype" 2,2,1 ".args"
  done
  for ex in "${STEP_NAMES[@]}" "${EXAMPLES[@]}"; do
    steps=1
    case $ex in *train*) steps=2 ;; step.*) steps=1 ;; esac
    run_example "$ex" 1,1,1 1 nccl $steps
    run_example "$ex" 2,2,1 4 mpi $steps
  done

  # The GPT-2-XL-size layer (h = 1536, 24 heads, seq 1024), bf16, one GPU.
  say "timing the compiled GPT layer (bf16, tokens $TOKENS, h 1536) against PyTorch"
  BATCH=$((TOKENS / 1024))
  python3 "$ROOT/examples/generate.py" layer --batch $BATCH --seq 1024 --hidden 1536 \
    --heads 24 --ffn 6144 --dtype bf16 -o "$LOG/layer_xl.mlir"
  if [ -n "$PRECOMPILED" ] && [ "$TOKENS" = 8192 ]; then
    xl_compile=(cp "$PRECOMPILED/layer_xl.cuda" "$LOG/layer_xl.cuda")
  else
    xl_compile=("$COMPILE" "$LOG/layer_xl.mlir" --grid=1,1,1 --target=cuda
      --cuda-chip="$CHIP" -o "$LOG/layer_xl.cuda")
  fi
  if "${xl_compile[@]}" >"$LOG/layer_xl.log" 2>&1 &&
    timeout 240 mpirun -np 1 "$LOG/layer_xl.cuda" --iters 10 >>"$LOG/layer_xl.log" 2>&1; then
    LAYER_MS=$(sed -n 's/^time: \([0-9.]*\) ms\/iter.*/\1/p' "$LOG/layer_xl.log" | head -n 1)
    row "compiled GPT layer bf16 [1,1,1], tokens $TOKENS" "${LAYER_MS:-?} ms" "forward, --iters 10"
  else
    row "compiled GPT layer bf16 [1,1,1], tokens $TOKENS" FAIL "see layer_xl.log"
    FAILED=1
  fi
  if timeout 300 python3 "$ROOT/bench/torch_layer.py" --batch $BATCH --seq 1024 --hidden 1536 \
    --heads 24 --ffn 6144 --dtype bf16 --iters 20 >"$LOG/torch_layer.log" 2>&1 ||
    grep -q 'ms/iter' "$LOG/torch_layer.log"; then
    for mode in eager compile; do
      ms=$(sed -n "s/^torch $mode .*: \([0-9.]*\) ms\/iter/\1/p" "$LOG/torch_layer.log")
      if [ -n "$ms" ] && [ -n "$LAYER_MS" ]; then
        ratio=$(awk -v a="$LAYER_MS" -v b="$ms" 'BEGIN { printf "%.2f", a / b }')
        row "GPT layer: summa / torch $mode" "${ratio}x" "summa $LAYER_MS ms, torch $mode $ms ms (target for eager: <= 1.0)"
      else
        row "GPT layer: summa / torch $mode" SKIP "$(grep "torch $mode" "$LOG/torch_layer.log" | head -n 1)"
      fi
    done
  else
    row "GPT layer vs PyTorch" SKIP "$(tail -n 1 "$LOG/torch_layer.log")"
  fi
fi

#===----------------------------------------------------------------------===#
# Table
#===----------------------------------------------------------------------===#

echo
echo "== summa GPU check, $(date -u '+%Y-%m-%d %H:%M UTC'), ${GPU_NAME:-no GPU}, $(elapsed) s =="
printf '%-58s %-12s %s\n' "check" "result" "detail"
for entry in "${ROWS[@]}" "${GEMM_ROWS[@]}"; do
  IFS='|' read -r name result detail <<<"$entry"
  printf '%-58s %-12s %s\n' "$name" "$result" "$detail"
done
exit $FAILED
