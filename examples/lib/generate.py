#!/usr/bin/env python3
"""Drive a compiled generator from Python: a library from `summa-compile
--generate --emit=lib`, loaded with ctypes (standard library only).

Every rank runs this script (`mpirun -np P python3 generate.py ...`, P the
grid's ranks). It loads the weights (a safetensors file, a directory of .npy
files or a training checkpoint), reads the prompt (`input_ids` [B, L] and an
optional left-padded `attention_mask`, as the executable's --prompt), and
generates N tokens per row in one of two ways:

  * by steps (default): summaGeneratorPrefill on the first P tokens, the
    rest of the prompt through summaGeneratorDecode, then for each new
    token summaGeneratorSample (the token chosen where the logits are
    split) and summaGeneratorDecode; with --logits, each new token's
    logits (summaGeneratorLogits) compared with --expect's `scores`;
  * --whole: summaGeneratorGenerate, the executable's loop in one call.

    python3 examples/lib/generate.py libgen.so --weights W.safetensors \\
        --prompt PROMPT.safetensors [--max-new-tokens N] [--temperature T \\
        --top-k K --top-p P --seed S] [--eos ID] [--whole] \\
        [--expect EXPECT.safetensors [--logits] [--tol 1e-4]]

Rank 0 prints each row's ids (`sequence i: ...`) and, with --expect, whether
they are EXPECT's `sequences` (as Hugging Face's generate() returns them).
"""

import argparse
import ctypes
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summa_library import I64, Library  # noqa: E402
from train import read_safetensors  # noqa: E402


def ints(entry):
    """The values of a safetensors entry of I64 or I32 integers."""
    dtype, shape, data = entry
    code = {"I64": "q", "I32": "i"}.get(dtype)
    if code is None:
        sys.exit(f"error: expected I64 or I32 ids, got {dtype}")
    count = len(data) // struct.calcsize(code)
    return list(struct.unpack("<%d%s" % (count, code), data)), shape


class Generator(Library):
    """The summaGenerator calls of summa/Runtime/SummaModel.h on one library."""

    def __init__(self, path):
        P = ctypes.POINTER
        super().__init__(path, "summa_generator", "summaGenerator", {
            "Info": ([P(I64)] * 4, ctypes.c_int32),
            "Load": ([ctypes.c_char_p], ctypes.c_int32),
            "Prefill": ([P(I64), P(I64)], ctypes.c_int32),
            "Decode": ([P(I64)], ctypes.c_int32),
            "Logits": ([P(ctypes.c_float)], ctypes.c_int32),
            "Sample": ([ctypes.c_double, I64, ctypes.c_double, ctypes.c_uint64, P(I64)],
                       ctypes.c_int32),
            "Generate": ([P(I64), P(I64), I64, I64, ctypes.c_double, I64, ctypes.c_double,
                          ctypes.c_uint64, I64, I64, P(I64), P(I64)], ctypes.c_int32),
        })
        info = [I64() for _ in range(4)]
        self.call("Info", *[ctypes.byref(v) for v in info])
        self.rows, self.prompt_length, self.max_length, self.vocab = (v.value for v in info)

    def load(self, path):
        self.call("Load", path.encode())

    def prefill(self, ids, starts):
        self.call("Prefill", (I64 * len(ids))(*ids), (I64 * len(starts))(*starts))

    def decode(self, tokens):
        self.call("Decode", (I64 * len(tokens))(*tokens))

    def logits(self):
        out = (ctypes.c_float * (self.rows * self.vocab))()
        self.call("Logits", out)
        return list(out)

    def sample(self, temperature, top_k, top_p, seed):
        out = (I64 * self.rows)()
        self.call("Sample", temperature, top_k, top_p, seed, out)
        return list(out)

    def generate(self, ids, mask, length, new_tokens, temperature, top_k, top_p, seed, eos):
        room = length + (new_tokens if new_tokens >= 0 else self.max_length)
        out, total = (I64 * (self.rows * room))(), I64()
        self.call("Generate", (I64 * len(ids))(*ids),
                  (I64 * len(mask))(*mask) if mask else None, length, new_tokens, temperature,
                  top_k, top_p, seed, eos, -1, out, ctypes.byref(total))
        return list(out[:self.rows * total.value]), total.value


def left_starts(mask, rows, length):
    """Each row's number of leading 0s in a left-padded attention mask."""
    starts = []
    for r in range(rows):
        row = mask[r * length:(r + 1) * length]
        zeros = len(row) - sum(row)
        if row != [0] * zeros + [1] * (length - zeros) or zeros == length:
            sys.exit(f"error: row {r} of the attention_mask is not left-padded")
        starts.append(zeros)
    return starts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library")
    ap.add_argument("--weights", required=True)
    ap.add_argument("--prompt", required=True)
    ap.add_argument("--max-new-tokens", type=int, default=-1)
    ap.add_argument("--temperature", type=float, default=0.0)
    ap.add_argument("--top-k", type=int, default=0)
    ap.add_argument("--top-p", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eos", type=int, default=-1)
    ap.add_argument("--whole", action="store_true",
                    help="one summaGeneratorGenerate call instead of the steps")
    ap.add_argument("--expect", help="a file with Hugging Face's sequences (and scores)")
    ap.add_argument("--logits", action="store_true",
                    help="compare each new token's logits with --expect's scores")
    ap.add_argument("--tol", type=float, default=1e-4)
    args = ap.parse_args()

    gen = Generator(args.library)
    gen.load(args.weights)
    prompt = read_safetensors(args.prompt)
    ids, (rows, length) = ints(prompt["input_ids"])
    if rows != gen.rows:
        sys.exit(f"error: the prompt has {rows} rows; the generator takes {gen.rows}")
    mask = ints(prompt["attention_mask"])[0] if "attention_mask" in prompt else None
    new = args.max_new_tokens if args.max_new_tokens >= 0 else gen.max_length - length
    sampling = (args.temperature, args.top_k, args.top_p, args.seed)

    scores = []
    if args.whole:
        sequences, total = gen.generate(ids, mask, length, args.max_new_tokens, *sampling,
                                        args.eos)
    else:
        # The prefill on the first P tokens, the rest of the prompt through
        # the decode step, then each new token sampled and decoded.
        starts = left_starts(mask, rows, length) if mask else [0] * rows
        P = gen.prompt_length
        gen.prefill([ids[r * length + c] for r in range(rows) for c in range(P)], starts)
        for c in range(P, length):
            gen.decode([ids[r * length + c] for r in range(rows)])
        rows_out = [ids[r * length:(r + 1) * length] for r in range(rows)]
        ended = [False] * rows
        for n in range(new):
            if args.logits:
                scores.extend(gen.logits())
            tokens = gen.sample(*sampling)
            for r in range(rows):
                token = args.eos if ended[r] else tokens[r]
                rows_out[r].append(token)
                ended[r] = ended[r] or token == args.eos
            if n + 1 == new or (args.eos >= 0 and all(ended)):
                break
            gen.decode([row[-1] for row in rows_out])
        total = len(rows_out[0])
        sequences = [t for row in rows_out for t in row]

    status = 0
    if gen.rank == 0:
        for r in range(rows):
            print(f"sequence {r}: " + " ".join(map(str, sequences[r * total:(r + 1) * total])))
        if args.expect:
            expect = read_safetensors(args.expect)
            want, shape = ints(expect["sequences"])
            same = shape == [rows, total] and want == sequences
            print("expect: sequences " + ("PASS" if same else "FAIL"))
            status = 0 if same else 1
            if args.logits and "scores" in expect:
                dtype, _, data = expect["scores"]
                ref = struct.unpack("<%df" % (len(data) // 4), data)
                worst = max(abs(a - b) for a, b in zip(ref, scores)) if scores else float("inf")
                close = len(scores) > 0 and worst <= args.tol
                print(f"expect: scores max_abs_err={worst:.3e} " + ("PASS" if close else "FAIL"))
                status = status or (0 if close else 1)
        sys.stdout.flush()
    gen.finalize()
    sys.exit(status)


if __name__ == "__main__":
    main()
