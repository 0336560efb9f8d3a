#!/usr/bin/env python3
"""Drive a compiled training step from Python: a model library from
`summa-compile --emit=lib`, loaded with ctypes (standard library only).

Every rank runs this script (`mpirun -np P python3 train.py ...`, P the
grid's ranks). The script owns the loop: it sets the initial weights from a
safetensors file, then for each step draws a batch of token ids from a token
file (the sampling of the binaries' --data, runtime/tooling/DataLoader.h),
sets the model's two integer inputs, runs the step (summaModelRun: the
updated weights replace the old ones) and reads the loss back.

    python3 examples/lib/train.py libmodel.so --init INIT.safetensors --data train.bin \\
        --steps 20 [--seed 42] [--compare OUTPUTS.safetensors]

--compare checks that every tensor of OUTPUTS (what the compiled binary's
--outputs wrote after as many steps) equals the model's output of that name
byte for byte: the binary's driver and this script run the same model.
"""

import argparse
import ctypes
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, HERE)
from summa.batches import batch_offset  # noqa: E402
from summa_library import I64, Library  # noqa: E402

WHOLE = 0  # SUMMA_LAYOUT_WHOLE
DTYPES = {0: ("F32", 4), 1: ("F64", 8), 4: ("I64", 8), 5: ("I32", 4)}


def read_safetensors(path):
    """{name: (dtype, shape, bytes)}."""
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    header.pop("__metadata__", None)
    data = blob[8 + n:]
    return {name: (e["dtype"], e["shape"], data[e["data_offsets"][0]:e["data_offsets"][1]])
            for name, e in header.items()}


class Model(Library):
    """The summaModel calls of summa/Runtime/SummaModel.h on one model library."""

    def __init__(self, path):
        I32, NAME, P = ctypes.c_int32, ctypes.c_char_p, ctypes.POINTER
        super().__init__(path, "summa_program", "summaModel", {
            "NumInputs": ([], I32),
            "NumOutputs": ([], I32),
            "InputName": ([I32], NAME),
            "OutputName": ([I32], NAME),
            "TensorInfo": ([NAME, P(I32), P(I32), P(I64), ctypes.c_void_p], I32),
            "SetInput": ([NAME, ctypes.c_void_p, I32], I32),
            "GetOutput": ([NAME, ctypes.c_void_p, I32], I32),
            "Run": ([], I32),
        })

    def info(self, name):
        rank, dtype = ctypes.c_int32(), ctypes.c_int32()
        shape = (I64 * 4)()
        self.call("TensorInfo", name.encode(), ctypes.byref(rank), ctypes.byref(dtype), shape,
                  None)
        return dtype.value, list(shape[:rank.value])

    def inputs(self):
        return [self.lib.summaModelInputName(self.handle, i).decode()
                for i in range(self.lib.summaModelNumInputs(self.handle))]

    def set_input(self, name, data):
        buf = ctypes.create_string_buffer(bytes(data), len(data))
        self.call("SetInput", name.encode(), buf, WHOLE)

    def get_output(self, name):
        dtype, shape = self.info(name)
        count = 1
        for n in shape:
            count *= n
        buf = ctypes.create_string_buffer(count * DTYPES[dtype][1])
        self.call("GetOutput", name.encode(), buf, WHOLE)
        return dtype, buf.raw

    def run(self):
        self.call("Run")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library")
    ap.add_argument("--init", required=True, help="safetensors of the initial inputs")
    ap.add_argument("--data", required=True, help="token file (raw uint16)")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--compare", default=None, metavar="OUTPUTS")
    args = ap.parse_args()

    with open(args.data, "rb") as f:
        ids = f.read()
    n_ids = len(ids) // 2
    model = Model(args.library)
    stored = read_safetensors(args.init)
    # The integer [rows, seq] inputs take the batches; the rest the file.
    fed = [name for name in model.inputs() if model.info(name)[0] in (4, 5)]
    for name in model.inputs():
        if name not in fed:
            model.set_input(name, stored[name][2])
    dtype, (rows, seq) = model.info(fed[0])
    fmt = "<%d%s" % (rows * seq, "q" if dtype == 4 else "i")
    for step in range(args.steps):
        offsets = [batch_offset(args.seed, step, r, n_ids, seq) for r in range(rows)]
        for shift, name in enumerate(fed):
            batch = [struct.unpack_from("<H", ids, 2 * (o + s + shift))[0]
                     for o in offsets for s in range(seq)]
            model.set_input(name, struct.pack(fmt, *batch))
        model.run()
        _, loss = model.get_output("result0")
        if model.rank == 0:
            print(f"lib: step {step + 1}/{args.steps} loss {struct.unpack('<f', loss)[0]:.4f}",
                  flush=True)
    if args.compare:
        differ = []
        for name, (_, _, want) in read_safetensors(args.compare).items():
            if model.get_output(name)[1] != want:
                differ.append(name)
        if model.rank == 0:
            print("lib: outputs " + ("DIFFER: " + ", ".join(differ) if differ else
                                      "identical to " + args.compare), flush=True)
    model.finalize()


if __name__ == "__main__":
    main()
