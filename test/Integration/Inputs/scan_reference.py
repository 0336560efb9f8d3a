#!/usr/bin/env python3
"""Inputs and expected outputs of Inputs/scan.mlir, computed here by a
sequential loop with the Python standard library only (no summa code): the
independent reference of the tm_tensor.scan test.

    scan_reference.py INPUTS EXPECTED

writes INPUTS (x [4, 6] i64, y [4, 6] f32) and EXPECTED (result0..result3)
as safetensors files."""

import json
import struct
import sys


def write_safetensors(path, tensors):
    """tensors: name -> (dtype, shape, flat values)."""
    header, blobs, offset = {}, [], 0
    for name, (dtype, shape, values) in tensors.items():
        fmt = {"I64": "q", "F32": "f"}[dtype]
        blob = struct.pack("<%d%s" % (len(values), fmt), *values)
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def main(inputs, expected):
    rows, cols = 4, 6
    x = [[(3 * r + 5 * c) % 7 - 2 for c in range(cols)] for r in range(rows)]
    # Quarters: every partial sum is exact in f32.
    y = [[((r * cols + c) % 9) / 4 - 1 for c in range(cols)] for r in range(rows)]

    # Inclusive along the rows, f(prev, next) = 2 * prev + next.
    out0 = []
    for r in range(rows):
        row = [x[r][0]]
        for c in range(1, cols):
            row.append(2 * row[-1] + x[r][c])
        out0.append(row)
    acc0 = [row[-1] for row in out0]

    # Exclusive down the columns from 10: out[0] = 10, out[i] = out[i-1] + y[i-1].
    out1 = [[10.0] * cols]
    for r in range(1, rows):
        out1.append([out1[-1][c] + y[r - 1][c] for c in range(cols)])
    acc1 = out1[-1]

    flat = lambda m: [v for row in m for v in row]
    write_safetensors(inputs, {"x": ("I64", [rows, cols], flat(x)),
                               "y": ("F32", [rows, cols], flat(y))})
    write_safetensors(expected, {
        "result0": ("I64", [rows, cols], flat(out0)),
        "result1": ("I64", [rows], acc0),
        "result2": ("F32", [rows, cols], flat(out1)),
        "result3": ("F32", [cols], acc1),
    })


if __name__ == "__main__":
    main(*sys.argv[1:])
