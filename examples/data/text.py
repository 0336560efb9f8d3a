#!/usr/bin/env python3
"""Byte-level text to and from a generator's files (summa-compile --generate).

  prompt: writes each TEXT's bytes as a row of `input_ids` (i64) of a
          safetensors file, the generator's --prompt; shorter rows are
          padded with byte 0 on the left, as Hugging Face pads prompts for
          generation, and an `attention_mask` (i64: 0 on the padding, 1 on
          the text) says where (--padding-side right pads on the right,
          which the generator refuses).
  show:   prints each row of `sequences` in a generator's --outputs file as
          text (the vocabulary of examples/data/prepare.py: a token is a
          byte), the prompt in brackets, without the left padding.

Python standard library only.

    python3 examples/data/text.py prompt prompt.safetensors "Of Mans First" "Hail holy light"
    python3 examples/data/text.py show out.safetensors --prompt-length 13
"""

import argparse
import array
import json
import struct
import sys


def write_ids(path, tensors):
    """Writes each (name, rows) of `tensors` as an I64 [rows, width] tensor."""
    header, data = {}, b""
    for name, rows in tensors:
        ids = array.array("q", [t for row in rows for t in row])
        if sys.byteorder != "little":
            ids.byteswap()
        header[name] = {"dtype": "I64", "shape": [len(rows), len(rows[0])],
                        "data_offsets": [len(data), len(data) + len(ids.tobytes())]}
        data += ids.tobytes()
    header = json.dumps(header).encode()
    header += b" " * (-len(header) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(header)) + header + data)


def read_ids(path, name):
    with open(path, "rb") as f:
        blob = f.read()
    (size,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + size])
    if name not in header or header[name]["dtype"] != "I64":
        raise SystemExit(f"{path}: no I64 tensor named {name}")
    rows, width = header[name]["shape"]
    begin, end = header[name]["data_offsets"]
    ids = array.array("q", blob[8 + size + begin:8 + size + end])
    if sys.byteorder != "little":
        ids.byteswap()
    return [list(ids[r * width:(r + 1) * width]) for r in range(rows)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prompt", help="texts -> input_ids")
    p.add_argument("out")
    p.add_argument("texts", nargs="+")
    p.add_argument("--padding-side", choices=("left", "right"), default="left")
    s = sub.add_parser("show", help="sequences -> text")
    s.add_argument("outputs")
    s.add_argument("--prompt-length", type=int, default=0)
    args = ap.parse_args()
    if args.command == "prompt":
        rows = [list(t.encode()) for t in args.texts]
        if min(len(r) for r in rows) == 0:
            raise SystemExit("an empty prompt")
        width = max(len(r) for r in rows)
        ids, mask = [], []
        for r in rows:
            pad = [0] * (width - len(r))
            ones = [1] * len(r)
            left = args.padding_side == "left"
            ids.append(pad + r if left else r + pad)
            mask.append(pad + ones if left else ones + pad)
        write_ids(args.out, [("input_ids", ids), ("attention_mask", mask)])
        return
    for row in read_ids(args.outputs, "sequences"):
        cut = args.prompt_length
        pad = 0
        while pad < min(cut, len(row)) and row[pad] == 0:
            pad += 1
        text = bytes(t & 0xFF for t in row[pad:]).decode("utf-8", "replace")
        cut = max(cut - pad, 0)
        print(f"[{text[:cut]}]{text[cut:]}" if args.prompt_length else text)


if __name__ == "__main__":
    main()
