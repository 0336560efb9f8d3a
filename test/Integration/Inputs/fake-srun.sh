#!/bin/sh
# A stand-in for Slurm's srun in the tests: appends its command line (and
# the SUMMA_RESTART_COUNT it was given) to $FAKE_SRUN_LOG, then runs the
# job on this machine with $FAKE_SRUN_MPIRUN, as srun -n N would run it in
# an allocation.
echo "srun $* (SUMMA_RESTART_COUNT=${SUMMA_RESTART_COUNT:-unset})" >>"$FAKE_SRUN_LOG"
n=
while [ $# -gt 0 ]; do
  case $1 in
  -n) n=$2; shift 2 ;;
  -*) shift ;;
  *) break ;;
  esac
done
exec $FAKE_SRUN_MPIRUN -np "$n" "$@"
