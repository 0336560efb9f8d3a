#!/usr/bin/env bash
# Builds everything with AddressSanitizer + UndefinedBehaviorSanitizer (the
# CMake preset `asan`, into build-asan/) and runs lit (check-summa, incl. the
# end-to-end mpirun runs) and ctest under it. Any sanitizer report fails the
# test that produced it. Also run by `scripts/test.sh --sanitize`.
#
# usage: scripts/sanitize.sh [lit|ctest] [CTEST_ARGS...]
#   no argument: both; `lit` or `ctest`: only that half (CTEST_ARGS go to
#   ctest, e.g. -R fault).
#
# Settings (override by exporting them first; log_path is always added:
# every report is also a file in build-asan/sanitizer-reports/, and any
# file there fails the run):
#   ASAN_OPTIONS   detect_leaks=1; allow_user_poisoning=0: summa's code is
#                  instrumented, Debian's libMLIR is not, and the inline
#                  llvm::BumpPtrAllocator code in summa's objects poisons
#                  slabs that libMLIR's copy then hands out (reports that are
#                  not bugs; heap, stack and global checks stay on);
#                  fast_unwind_on_malloc=0: whole allocation stacks, through
#                  libraries built without frame pointers, so that the
#                  suppressions below match (7x slower mallocs);
#                  allocator_may_return_null=1: a failing allocation returns
#                  null, as without ASan, so that the runtime's own
#                  out-of-memory handling (a fault test) runs
#   LSAN_OPTIONS   suppressions=fuzz/lsan.supp: leaks allocated under Open
#                  MPI's frames only (MPI_Init keeps memory until exit)
#   UBSAN_OPTIONS  print_stacktrace=1 (the build does not recover from UB)
#
# Binaries that summa-compile links during the tests link against the
# instrumented libsumma_runtime.so, so they need libasan too: `c++` on the
# PATH of the tests is a wrapper that adds -fsanitize=address,undefined.
source "$(dirname "$0")/common.sh"

what=${1:-all}
case $what in
lit | ctest) shift ;;
all) ;;
-*) what=all ;;
*) echo "usage: scripts/sanitize.sh [lit|ctest] [CTEST_ARGS...]" >&2; exit 2 ;;
esac

SUMMA_BUILD=${SUMMA_ASAN_BUILD_DIR:-$SUMMA_ROOT/build-asan}
summa_install_missing
if [ ! -f "$SUMMA_BUILD/build.ninja" ]; then
  if [ "$SUMMA_BUILD" = "$SUMMA_ROOT/build-asan" ]; then
    (cd "$SUMMA_ROOT" && cmake --preset asan)
  else
    (cd "$SUMMA_ROOT" && cmake --preset asan -B "$SUMMA_BUILD")
  fi
fi
echo "summa: building with ASan + UBSan in $SUMMA_BUILD"
ninja -C "$SUMMA_BUILD"

wrappers="$SUMMA_BUILD/sanitize-bin"
mkdir -p "$wrappers"
cat >"$wrappers/c++" <<'EOF'
#!/bin/sh
# Links summa-compile's output against the instrumented runtime.
exec g++ -fsanitize=address,undefined -fno-omit-frame-pointer "$@"
EOF
chmod +x "$wrappers/c++"
export PATH="$wrappers:$PATH"
unset SUMMA_CXX

# Every report also goes to a file under $reports, so that one from a
# process a test expects to fail (`not summa-opt ...`) is not lost.
reports="$SUMMA_BUILD/sanitizer-reports"
rm -rf "$reports" && mkdir -p "$reports"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:fast_unwind_on_malloc=0:allow_user_poisoning=0:allocator_may_return_null=1:strict_string_checks=1:check_initialization_order=1}:log_path=$reports/asan
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$SUMMA_ROOT/fuzz/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}:log_path=$reports/ubsan
echo "summa: ASAN_OPTIONS=$ASAN_OPTIONS"
echo "summa: LSAN_OPTIONS=$LSAN_OPTIONS"
echo "summa: UBSAN_OPTIONS=$UBSAN_OPTIONS"

status=0
if [ "$what" != ctest ]; then
  echo "summa: lit (check-summa) under ASan + UBSan"
  ninja -C "$SUMMA_BUILD" check-summa || status=1
fi
if [ "$what" != lit ]; then
  echo "summa: ctest under ASan + UBSan"
  (cd "$SUMMA_BUILD" && ctest --output-on-failure "$@") || status=1
fi
# A report is a file with an error (ASan/LSan "ERROR:", UBSan "runtime
# error:"); ASan's warnings alone (the out-of-memory fault test's "failed to
# allocate", with allocator_may_return_null=1) are listed, not failures.
count=0
for report in "$reports"/*; do
  [ -f "$report" ] || continue
  if grep -qE 'ERROR: |runtime error:' "$report"; then
    echo "=== $report"
    head -80 "$report"
    count=$((count + 1))
  else
    echo "summa: warning only, in $report: $(head -n 1 "$report")"
  fi
done
if [ "$count" -ne 0 ]; then
  echo "summa: $count sanitizer reports (in $reports)"
  status=1
else
  echo "summa: no sanitizer reports"
fi
if [ "$status" -ne 0 ]; then
  echo "summa: sanitizer run FAILED"
fi
exit "$status"
