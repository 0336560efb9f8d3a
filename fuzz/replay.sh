#!/usr/bin/env bash
# Replays the fuzz corpus once through the fuzz target: the seeds generated
# from test/ and examples/ (fuzz/seed-corpus.py), the inputs the fuzzer kept
# (fuzz/corpus/) and the reproducers of fixed bugs (fuzz/regressions/).
# Every input must run without a crash, sanitizer report, assertion or leak.
#
# usage: fuzz/replay.sh BINARY [EXTRA_DIR...]
#
# BINARY is summa-fuzz (libFuzzer + ASan/UBSan: runs each input once, no
# fuzzing) or summa-fuzz-replay (plain build). Work files go to
# $SUMMA_FUZZ_WORK (default: a directory next to BINARY).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: fuzz/replay.sh BINARY [EXTRA_DIR...]  (BINARY: summa-fuzz or summa-fuzz-replay)" >&2
  exit 2
fi
binary=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
work=${SUMMA_FUZZ_WORK:-$(dirname "$binary")/../fuzz-replay}
mkdir -p "$work"
python3 "$here/seed-corpus.py" "$work/seeds" >/dev/null

dirs=("$work/seeds")
for dir in "$here/corpus" "$here/regressions" "$@"; do
  if [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ]; then dirs+=("$dir"); fi
done
count=$(find "${dirs[@]}" -type f | wc -l)
echo "fuzz replay: $count inputs from ${dirs[*]}"

start=$(date +%s)
case $(basename "$binary") in
summa-fuzz-replay*)
  "$binary" -q "${dirs[@]}"
  ;;
*)
  # libFuzzer runs every file it is given once; a directory would be read as
  # a corpus to fuzz, so pass the files. Same sanitizer defaults as fuzzing.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
  find "${dirs[@]}" -type f -print0 | sort -z |
    xargs -0 "$binary" -timeout=10 -rss_limit_mb=4096 >"$work/replay.log" 2>&1 || {
      grep -v '^INFO:\|^Running:\|^Executed ' "$work/replay.log" | tail -60
      echo "fuzz replay: FAILED (the input is on the last 'Running:' line of $work/replay.log)"
      grep '^Running:' "$work/replay.log" | tail -1
      exit 1
    }
  ;;
esac
echo "fuzz replay: $count inputs, no crash ($(($(date +%s) - start)) s)"
