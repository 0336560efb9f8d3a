#!/usr/bin/env bash
# Sets everything up and runs every test: lit (check-summa: dialect, passes,
# pipelines, end-to-end multi-rank runs) and ctest (runtime unit tests under
# mpirun, driver behaviour).
source "$(dirname "$0")/common.sh"

summa_setup
echo "summa: lit (check-summa)"
ninja -C "$SUMMA_BUILD" check-summa
echo "summa: ctest"
(cd "$SUMMA_BUILD" && ctest --output-on-failure)
