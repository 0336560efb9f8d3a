# Shared set-up of scripts/demo.sh and scripts/test.sh: install the Debian
# packages that are missing, then configure (once) and build with CMake and
# Ninja into build/. Idempotent: quick when everything is there.
set -euo pipefail

SUMMA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SUMMA_BUILD=${SUMMA_BUILD_DIR:-$SUMMA_ROOT/build}
LLVM_PREFIX=/usr/lib/llvm-22

SUMMA_PACKAGES=(
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  libopenmpi-dev openmpi-bin libopenblas-dev libgtest-dev
  ninja-build cmake g++ python3
)

summa_install_missing() {
  local missing=()
  for p in "${SUMMA_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
      missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    return
  fi
  echo "summa: installing ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
}

summa_build() {
  if [ ! -f "$SUMMA_BUILD/build.ninja" ]; then
    cmake -S "$SUMMA_ROOT" -B "$SUMMA_BUILD" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit"
  fi
  ninja -C "$SUMMA_BUILD" "$@"
}

# MPI as root needs these; --oversubscribe lets more ranks than cores run.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
SUMMA_MPIRUN=(mpirun --oversubscribe)
if [ "$(id -u)" -eq 0 ]; then SUMMA_MPIRUN+=(--allow-run-as-root); fi

summa_setup() {
  summa_install_missing
  summa_build "$@"
}
