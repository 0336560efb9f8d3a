#!/bin/sh
#===- fault.sh - a fault test: expect.sh within a time bound -------------===#
#
# usage: fault.sh [-b SECONDS] [-L LINK=TARGET]... -- <expect.sh arguments>
#
#   -b  the bound: the command must end (every rank) within SECONDS (default
#       30), well inside CTest's TIMEOUT, so that a hang fails this check
#       with its own message instead of being killed by CTest
#   -L  create the symbolic link LINK -> TARGET first (e.g. a SUMMA_PROFILE
#       file that is /dev/full)
#
# Runs expect.sh (next to this directory) under `timeout`, then fails if it
# did not finish within the bound. Prints the elapsed time.
#
#===----------------------------------------------------------------------===#

set -u
here=$(cd "$(dirname "$0")" && pwd)
bound=30
while [ $# -gt 0 ]; do
  case $1 in
  -b) bound=$2; shift 2 ;;
  -L) ln -sfn "${2#*=}" "${2%%=*}" || exit 1; shift 2 ;;
  --) shift; break ;;
  *) echo "fault.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

start=$(date +%s)
# -k: if the launcher ignores SIGTERM, SIGKILL it 5 s later.
timeout -k 5 "$bound" sh "$here/../expect.sh" "$@"
rc=$?
elapsed=$(($(date +%s) - start))
echo "fault.sh: finished in ${elapsed} s (bound ${bound} s)"
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "fault.sh: FAILED: still running after ${bound} s (a rank hangs)"
  exit 1
fi
exit "$rc"
