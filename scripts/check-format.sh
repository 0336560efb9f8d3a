#!/usr/bin/env bash
# Checks that the C, C++ and CUDA sources follow .clang-format, with
# clang-format-22 (the LLVM version the project builds with, so that every
# machine formats alike). Lists the files that differ and exits non-zero.
#
# usage: scripts/check-format.sh [--fix]   (--fix rewrites them in place)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
format=${CLANG_FORMAT:-clang-format-22}
if ! command -v "$format" >/dev/null 2>&1; then
  echo "check-format: $format is not installed (scripts/test.sh installs it)" >&2
  exit 2
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.c' '*.cpp' '*.h' '*.cu')
else
  mapfile -t files < <(find include lib tools runtime fuzz bench examples \
    -name '*.c' -o -name '*.cpp' -o -name '*.h' -o -name '*.cu' | sort)
fi
if [ "${1:-}" = "--fix" ]; then
  "$format" -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$format" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -ne 0 ]; then
  echo "check-format: ${#bad[@]} of ${#files[@]} files differ from .clang-format" \
    "(scripts/check-format.sh --fix rewrites them):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files follow .clang-format"
