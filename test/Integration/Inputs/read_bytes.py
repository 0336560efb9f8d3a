#!/usr/bin/env python3
"""Prints the bytes each rank read from files (the "io" entry of its
SUMMA_PROFILE counters) and their total, one line each:

    read_bytes.py PROFILE_PATTERN NRANKS
    rank 0 read_bytes 128
    ...
    total read_bytes 1024

PROFILE_PATTERN is the SUMMA_PROFILE path with "%r" where the rank goes."""

import json
import sys


def main(pattern, nranks):
    total = 0
    for rank in range(int(nranks)):
        with open(pattern.replace("%r", str(rank))) as f:
            read = json.load(f).get("io", {}).get("read_bytes", 0)
        print(f"rank {rank} read_bytes {read}")
        total += read
    print(f"total read_bytes {total}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
