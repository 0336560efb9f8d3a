#!/bin/sh
#===- expect.sh - run a command, check its status and output -------------===#
#
# usage: expect.sh [-s zero|nonzero|N] [-m REGEX]... [-n REGEX]...
#                  [-c COUNT:REGEX]... [-l REGEX] -- COMMAND [ARG]...
#
#   -s   expected exit status (default zero)
#   -m   an (extended) regex that some line of stdout+stderr must match
#   -n   an (extended) regex that no line may match
#   -c   COUNT lines must match REGEX
#   -l   the last line of stdout must match REGEX
#
# Prints the command's output, then every failed expectation; exits 1 if any
# failed. Used by CTest for "fails non-zero AND prints this message" checks.
#
#===----------------------------------------------------------------------===#

set -u
status=zero
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/must"
: >"$tmp/mustnot"
: >"$tmp/counts"
last=
while [ $# -gt 0 ]; do
  case $1 in
  -s) status=$2; shift 2 ;;
  -m) printf '%s\n' "$2" >>"$tmp/must"; shift 2 ;;
  -n) printf '%s\n' "$2" >>"$tmp/mustnot"; shift 2 ;;
  -c) printf '%s\n' "$2" >>"$tmp/counts"; shift 2 ;;
  -l) last=$2; shift 2 ;;
  --) shift; break ;;
  *) echo "expect.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "expect.sh: no command" >&2; exit 2; }

"$@" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err" >"$tmp/all"
echo "--- command: $*"
echo "--- exit status: $rc"
cat "$tmp/all"
echo "---"

failed=0
fail() { echo "expect.sh: FAILED: $*"; failed=1; }
case $status in
zero) [ "$rc" -eq 0 ] || fail "exit status $rc, expected 0" ;;
nonzero) [ "$rc" -ne 0 ] || fail "exit status 0, expected non-zero" ;;
*) [ "$rc" -eq "$status" ] || fail "exit status $rc, expected $status" ;;
esac
while IFS= read -r re; do
  grep -Eq -- "$re" "$tmp/all" || fail "no line matches /$re/"
done <"$tmp/must"
while IFS= read -r re; do
  ! grep -Eq -- "$re" "$tmp/all" || fail "a line matches /$re/"
done <"$tmp/mustnot"
while IFS= read -r spec; do
  want=${spec%%:*}
  re=${spec#*:}
  got=$(grep -Ec -- "$re" "$tmp/all")
  [ "$got" -eq "$want" ] || fail "$got lines match /$re/, expected $want"
done <"$tmp/counts"
if [ -n "$last" ]; then
  tail -n 1 "$tmp/out" | grep -Eq -- "$last" ||
    fail "the last line of stdout does not match /$last/"
fi
[ "$failed" -eq 0 ] && echo "expect.sh: all expectations met"
exit "$failed"
