#!/usr/bin/env bash
# Sets everything up and runs every test: the sources' format
# (scripts/check-format.sh), lit (check-summa: dialect, passes, pipelines,
# end-to-end multi-rank runs), ctest (runtime unit tests under mpirun,
# driver behaviour), the Python front door against PyTorch (python/tests)
# and the fuzz corpus replay.
source "$(dirname "$0")/common.sh"
source "$SUMMA_ROOT/scripts/python-env.sh"

# scripts/test.sh --sanitize: the same tests built with ASan + UBSan in
# build-asan/ (scripts/sanitize.sh) instead of the Release build.
if [ "${1:-}" = "--sanitize" ]; then
  shift
  exec bash "$SUMMA_ROOT/scripts/sanitize.sh" "$@"
fi

# The format check needs clang-format of the LLVM version the project uses;
# the Python test a virtual environment.
SUMMA_PACKAGES+=(clang-format-22 python3-venv)
summa_setup
echo "summa: format (scripts/check-format.sh)"
bash "$SUMMA_ROOT/scripts/check-format.sh"
echo "summa: lit (check-summa)"
# Where nvcc is installed the GPU backend is built, and the tests that
# compile every model for --target=cuda must run (lit stops otherwise).
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  export SUMMA_REQUIRE_CUDA_BACKEND=1
fi
ninja -C "$SUMMA_BUILD" check-summa
echo "summa: ctest"
(cd "$SUMMA_BUILD" && ctest --output-on-failure)
echo "summa: the Python front door (python/tests: roundtrip.py, errors.py)"
if summa_python_env; then
  for t in roundtrip errors; do
    SUMMA_BUILD_DIR="$SUMMA_BUILD" "$SUMMA_PYTHON_ENV/bin/python" \
      "$SUMMA_ROOT/python/tests/$t.py"
  done
fi

# The fuzz target (fuzz/) replays its corpus once: the seeds from test/ and
# examples/, fuzz/corpus/ and fuzz/regressions/. Where clang-22 can link
# libFuzzer with ASan/UBSan it is built in build-fuzz/ (only the summa
# libraries and the target are compiled); otherwise (no clang-22, or one
# without its fuzzer runtime: fuzz/CMakeLists.txt then leaves the target
# out) the same target with a plain main (summa-fuzz-replay) is built in the
# main build with the default compiler, so that every machine replays the
# corpus. docs/Reliability.md says how to fuzz for longer.
fuzz_replayed=0
if command -v clang++-22 >/dev/null 2>&1 && command -v clang-22 >/dev/null 2>&1; then
  SUMMA_FUZZ_BUILD=${SUMMA_FUZZ_BUILD_DIR:-$SUMMA_ROOT/build-fuzz}
  if [ ! -f "$SUMMA_FUZZ_BUILD/build.ninja" ]; then
    cmake -S "$SUMMA_ROOT" -B "$SUMMA_FUZZ_BUILD" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
      -DSUMMA_BUILD_FUZZER=ON -DSUMMA_ENABLE_RUNTIME=OFF >/dev/null
  fi
  if ninja -C "$SUMMA_FUZZ_BUILD" -t targets all 2>/dev/null |
    grep -q '^summa-fuzz:'; then
    echo "summa: fuzz target (build-fuzz/bin/summa-fuzz) and corpus replay"
    ninja -C "$SUMMA_FUZZ_BUILD" summa-fuzz
    bash "$SUMMA_ROOT/fuzz/replay.sh" "$SUMMA_FUZZ_BUILD/bin/summa-fuzz"
    fuzz_replayed=1
  fi
fi
if [ "$fuzz_replayed" = 0 ]; then
  echo "summa: corpus replay (no clang-22 with libFuzzer: build/bin/summa-fuzz-replay, no sanitizers)"
  cmake "$SUMMA_BUILD" -DSUMMA_BUILD_FUZZER=ON >/dev/null
  ninja -C "$SUMMA_BUILD" summa-fuzz-replay
  bash "$SUMMA_ROOT/fuzz/replay.sh" "$SUMMA_BUILD/bin/summa-fuzz-replay"
fi
