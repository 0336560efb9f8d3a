#!/bin/sh
#===- metrics.sh - run a program with --metrics and --tensorboard, check -===#
#
# usage: metrics.sh [-C SUMMA_COMPILE -i MODEL.mlir -g q,q,d] [-s STEPS]
#                   [-T] [-p PYTHON] WORKDIR -- LAUNCHER... [PROGRAM]
#
# Compiles MODEL.mlir with SUMMA_COMPILE for the grid (-C, -i, -g; else the
# last argument is the program), runs it under LAUNCHER for STEPS steps
# (default 5) with --metrics WORKDIR/metrics.jsonl and --tensorboard
# WORKDIR/tb, then checks with check-metrics.py (beside this script) that
# every line is a JSON object with the documented fields and that the event
# file decodes (framing, CRCs, Event protobufs) to the same steps and loss.
# With -T the event file is read by TensorBoard's own reader and tbparse
# instead (PYTHON, default python3, must have them: the test fails when it
# does not, since it was asked for).
#
#===----------------------------------------------------------------------===#

set -eu
here=$(cd "$(dirname "$0")" && pwd)
compile= model= grid= steps=5 tensorboard=0 python=python3
while [ $# -gt 0 ]; do
  case $1 in
  -C) compile=$2; shift 2 ;;
  -i) model=$2; shift 2 ;;
  -g) grid=$2; shift 2 ;;
  -s) steps=$2; shift 2 ;;
  -T) tensorboard=1; shift ;;
  -p) python=$2; shift 2 ;;
  --) shift; break ;;
  *) work=$1; shift ;;
  esac
done
rm -rf "$work" && mkdir -p "$work"
if [ "$tensorboard" = 1 ] &&
  ! "$python" -c "import tensorboard, tbparse" 2>/dev/null; then
  echo "metrics.sh: FAILED: $python has no tensorboard and tbparse" \
    "(pip install tensorboard tbparse, or configure without" \
    "-DSUMMA_TENSORBOARD_PYTHON)"
  exit 1
fi
if [ -n "$compile" ]; then
  "$compile" "$model" --grid="$grid" -O0 -o "$work/program"
  set -- "$@" "$work/program"
fi
"$@" --steps "$steps" --iters 0 --metrics "$work/metrics.jsonl" \
  --tensorboard "$work/tb"
if [ "$tensorboard" = 1 ]; then
  "$python" "$here/check-metrics.py" tensorboard "$work/tb" --steps "$steps"
else
  python3 "$here/check-metrics.py" metrics "$work/metrics.jsonl" \
    --steps "$steps"
  python3 "$here/check-metrics.py" events "$work/tb" \
    --same-as "$work/metrics.jsonl"
fi
echo "metrics.sh: PASS"
