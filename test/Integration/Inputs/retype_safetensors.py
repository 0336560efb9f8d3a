#!/usr/bin/env python3
"""Copies a safetensors file with the dtype of one tensor renamed (to one of
the same size, e.g. F32 -> I32), with the Python standard library only: the
test of the driver's element-type check on --inputs.

    retype_safetensors.py SRC DST NAME DTYPE
"""

import json
import struct
import sys


def main(src, dst, name, dtype):
    with open(src, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    if name not in header:
        sys.exit(f"error: {src} has no tensor {name!r}")
    header[name]["dtype"] = dtype
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(dst, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + blob[8 + n:])


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
