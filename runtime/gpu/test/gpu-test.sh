#!/bin/sh
#===- gpu-test.sh - run a test only where a CUDA device exists -----------===#
#
# usage: gpu-test.sh DEVICE_QUERY -- COMMAND [ARG]...
#
# Runs COMMAND when DEVICE_QUERY (summa-gpu-device-query) counts at least one
# CUDA device; otherwise prints why and exits 77, which CTest reports as a
# skipped test (SKIP_RETURN_CODE).
#
#===----------------------------------------------------------------------===#

query=$1
shift
[ "$1" = "--" ] && shift
count=$("$query" 2>/dev/null | head -n 1)
case $count in
'' | *[!0-9]*) count=0 ;;
esac
if [ "$count" -lt 1 ]; then
  echo "skipped: no CUDA device (cudaGetDeviceCount reports none); this test needs a GPU"
  exit 77
fi
exec "$@"
