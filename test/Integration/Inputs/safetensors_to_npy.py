#!/usr/bin/env python3
"""Writes every tensor of a safetensors file as DIR/<name>.npy (format 1.0),
with the Python standard library only: the test of `--inputs DIR`."""

import json
import os
import struct
import sys

DESCR = {"F32": "<f4", "F64": "<f8", "F16": "<f2", "I64": "<i8", "I32": "<i4"}


def main(src, dst):
    with open(src, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    data = blob[8 + n:]
    os.makedirs(dst, exist_ok=True)
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        begin, end = entry["data_offsets"]
        shape = entry["shape"]
        # A Python tuple: (4, 8), (96,), ().
        dims = ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "")
        text = f"{{'descr': '{DESCR[entry['dtype']]}', 'fortran_order': False, 'shape': ({dims}), }}"
        # Magic, version, header length; the header padded to 64 bytes.
        pad = 64 - (10 + len(text) + 1) % 64
        text = text + " " * pad + "\n"
        with open(os.path.join(dst, name + ".npy"), "wb") as out:
            out.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)))
            out.write(text.encode("latin1"))
            out.write(data[begin:end])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
