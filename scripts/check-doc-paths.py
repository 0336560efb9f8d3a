#!/usr/bin/env python3
"""Checks that every repository path a document names exists.

usage: scripts/check-doc-paths.py DOC.md [DOC.md...]

A path is a `code span` that starts with one of the repository's top-level
folders (include/, lib/, tools/, runtime/, test/, docs/, scripts/, fuzz/,
examples/, bench/). Prints each missing one with its line and exits 1; prints
the count checked otherwise.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOP = ("include/", "lib/", "tools/", "runtime/", "test/", "docs/", "scripts/",
       "fuzz/", "examples/", "bench/")
SPAN = re.compile(r"`([^`\s]+)`")


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    missing, checked = [], 0
    for doc in argv[1:]:
        with open(doc, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                for path in SPAN.findall(line):
                    if not path.startswith(TOP):
                        continue
                    checked += 1
                    if not os.path.exists(os.path.join(ROOT, path)):
                        missing.append(f"{doc}:{number}: `{path}` does not exist")
    if checked == 0:
        print("check-doc-paths: no repository path found in " + " ".join(argv[1:]),
              file=sys.stderr)
        return 1
    for m in missing:
        print(m, file=sys.stderr)
    if missing:
        return 1
    print(f"check-doc-paths: {checked} paths exist")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
