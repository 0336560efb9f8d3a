#!/usr/bin/env python3
"""Tokenise a text at byte level for a compiled training step's --data.

Writes the text's bytes as little-endian uint16 token ids (vocabulary 256),
the raw format nanoGPT's prepare.py writes and `--data FILE` reads; with
--val FRACTION the last FRACTION of the ids go to a second file instead.
Python standard library only.

    python3 examples/data/prepare.py examples/data/TEXT.txt train.bin [--val 0.1 val.bin]
"""

import argparse
import array
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("text", help="the text file (any bytes)")
    ap.add_argument("out", help="the token file to write (uint16, little-endian)")
    ap.add_argument("--val", nargs=2, metavar=("FRACTION", "FILE"), default=None,
                    help="write the last FRACTION of the ids to FILE")
    args = ap.parse_args()
    with open(args.text, "rb") as f:
        data = f.read()
    ids = array.array("H", list(data))
    if sys.byteorder != "little":
        ids.byteswap()
    split = len(ids)
    if args.val:
        fraction = float(args.val[0])
        if not 0 < fraction < 1:
            ap.error("--val FRACTION must be between 0 and 1")
        split = len(ids) - int(len(ids) * fraction)
        with open(args.val[1], "wb") as f:
            ids[split:].tofile(f)
    with open(args.out, "wb") as f:
        ids[:split].tofile(f)
    print(f"{args.out}: {split} ids" + (f"; {args.val[1]}: {len(ids) - split} ids"
                                        if args.val else ""), file=sys.stderr)


if __name__ == "__main__":
    main()
