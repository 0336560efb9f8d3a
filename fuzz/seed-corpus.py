#!/usr/bin/env python3
"""Writes the seed corpus of summa-fuzz: every .mlir under test/ and examples/,
split at `// -----` lines (as summa-opt --split-input-file does).

usage: fuzz/seed-corpus.py OUT_DIR [--max-size BYTES] [--root REPO]

Each chunk becomes OUT_DIR/<path with / as _>.<n>.mlir. The fuzz target takes
the grid from the first "grid=A,B,C" in its input; the RUN lines at the top of
a file carry it, so every chunk after the first gets a comment line with the
file's first grid. Chunks larger than --max-size are skipped (libFuzzer's
-max_len follows the largest seed; big seeds make every run slow). The output
is a pure function of the sources: OUT_DIR is emptied of *.mlir first.
"""

import argparse
import os
import re
import sys

SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)
GRID = re.compile(r"grid=\s*-?\d+\s*,\s*-?\d+\s*,\s*-?\d+")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--max-size", type=int, default=0,
                        help="skip chunks larger than this (0: no limit)")
    parser.add_argument("--root", default=os.path.dirname(here))
    args = parser.parse_args()

    os.makedirs(args.out, exist_ok=True)
    for name in os.listdir(args.out):
        if name.endswith(".mlir"):
            os.remove(os.path.join(args.out, name))

    written = skipped = 0
    for top in ("test", "examples"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(args.root, top)):
            dirnames.sort()
            for filename in sorted(filenames):
                if not filename.endswith(".mlir"):
                    continue
                path = os.path.join(dirpath, filename)
                with open(path, encoding="utf-8", errors="surrogateescape") as f:
                    text = f.read()
                grid = GRID.search(text)
                rel = os.path.relpath(path, args.root).replace(os.sep, "_")
                for n, chunk in enumerate(SPLIT.split(text)):
                    if n > 0 and grid:
                        chunk = "// fuzz seed: " + grid.group(0) + "\n" + chunk
                    data = chunk.encode("utf-8", errors="surrogateescape")
                    if args.max_size and len(data) > args.max_size:
                        skipped += 1
                        continue
                    out = os.path.join(args.out, "%s.%d.mlir" % (rel[:-5], n))
                    with open(out, "wb") as f:
                        f.write(data)
                    written += 1
    print("seed-corpus: %d seeds in %s (%d larger than %d bytes skipped)"
          % (written, args.out, skipped, args.max_size))
    return 0


if __name__ == "__main__":
    sys.exit(main())
