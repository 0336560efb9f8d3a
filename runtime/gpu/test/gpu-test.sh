#!/bin/sh
#===- gpu-test.sh - run a test only where a CUDA device exists -----------===#
#
# usage: gpu-test.sh DEVICE_QUERY -- COMMAND [ARG]...
#
# Runs COMMAND when DEVICE_QUERY (summa-gpu-device-query) counts at least one
# CUDA device; exits 77, which CTest reports as a skipped test
# (SKIP_RETURN_CODE), only when the query ran and counted none. A query that
# does not run (a library it links, the ones libsumma_runtime_cuda.so
# needs, does not load) or prints no count fails the test (exit 1): that
# machine is broken, not without a GPU.
#
#===----------------------------------------------------------------------===#

query=$1
shift
[ "$1" = "--" ] && shift
out=$("$query" 2>&1)
status=$?
count=$(printf '%s\n' "$out" | head -n 1)
case $count in
'' | *[!0-9]*)
  echo "gpu-test.sh: $query did not run (exit $status); this is a failure, not a missing GPU:"
  printf '%s\n' "$out"
  exit 1
  ;;
esac
if [ "$status" -ne 0 ]; then
  echo "gpu-test.sh: $query exited $status:"
  printf '%s\n' "$out"
  exit 1
fi
if [ "$count" -lt 1 ]; then
  echo "skipped: no CUDA device (cudaGetDeviceCount reports none); this test needs a GPU"
  exit 77
fi
exec "$@"
