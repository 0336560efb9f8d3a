#!/usr/bin/env python3
"""summa against upstream MLIR's shard dialect on the same MLP and grid.

Annotates examples/mlp.mlir with the 2D block layout of summa's [q,q,1]
grid (tokens over grid axis 0, hidden over axis 1; weights in over 0, out
over 1) for upstream's `sharding-propagation` and `shard-partition`, runs
both compilers, and counts from the partitioned IR, per rank: collectives,
the bytes each rank receives, and the largest tensor it holds. Prints a
markdown table (bench/upstream.md keeps the last one).

  python3 bench/upstream.py [--q 2] [--summa-opt build/bin/summa-opt]
"""
import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TENSOR = re.compile(r"tensor<((?:\d+x)+)(f32|f16|bf16|f64)>")
BYTES = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8}


def tensor_bytes(text):
    m = TENSOR.search(text)
    if not m:
        return 0
    n = 1
    for d in m.group(1).rstrip("x").split("x"):
        n *= int(d)
    return n * BYTES[m.group(2)]


def all_tensor_bytes(text):
    out = []
    for m in TENSOR.finditer(text):
        n = 1
        for d in m.group(1).rstrip("x").split("x"):
            n *= int(d)
        out.append(n * BYTES[m.group(2)])
    return out


def annotate(q):
    src = (ROOT / "examples/mlp.mlir").read_text()
    body = src[src.index("func.func @mlp"):]
    body = body.replace(
        "  %zero = arith.constant 0.000000e+00 : f32\n",
        "  %blk = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding\n"
        "  %col = shard.sharding @grid split_axes = [[1]] : !shard.sharding\n"
        "  %xs = shard.shard %x to %blk : tensor<192x96xf32>\n"
        "  %w1s = shard.shard %w1 to %blk : tensor<96x384xf32>\n"
        "  %w2s = shard.shard %w2 to %blk : tensor<384x96xf32>\n"
        "  %b1s = shard.shard %b1 to %col : tensor<384xf32>\n"
        "  %b2s = shard.shard %b2 to %col : tensor<96xf32>\n"
        "  %zero = arith.constant 0.000000e+00 : f32\n", 1)
    for a, b in [("ins(%x, %w1 :", "ins(%xs, %w1s :"),
                 ("ins(%mm0, %b1 :", "ins(%mm0, %b1s :"),
                 ("ins(%g, %w2 :", "ins(%g, %w2s :"),
                 ("ins(%mm1, %b2, %x :", "ins(%mm1, %b2s, %xs :")]:
        assert a in body, a
        body = body.replace(a, b)
    body = body.replace(
        "  return %y : tensor<192x96xf32>",
        "  %ys = shard.shard %y to %blk : tensor<192x96xf32>\n"
        "  return %ys : tensor<192x96xf32>")
    return ("#id = affine_map<(d0, d1) -> (d0, d1)>\n"
            "#bias = affine_map<(d0, d1) -> (d1)>\n"
            f"shard.grid @grid(shape = {q}x{q})\n" + body)


def count_upstream(ir, q):
    stats = {"collectives": 0, "recv": 0, "largest": 0, "ops": {}}
    for line in ir.splitlines():
        m = re.search(r"shard\.(\w+) ", line)
        if m and m.group(1) not in ("grid", "sharding", "shard"):
            kind = m.group(1)
            sizes = all_tensor_bytes(line.split(":")[-1])
            stats["collectives"] += 1
            stats["ops"][kind] = stats["ops"].get(kind, 0) + 1
            if kind == "all_gather":
                # Receives the other (n-1) slices of the result.
                stats["recv"] += sizes[-1] - sizes[0]
            else:
                stats["recv"] += sizes[-1]
        for b in all_tensor_bytes(line):
            stats["largest"] = max(stats["largest"], b)
    return stats


def count_summa(ir, q):
    stats = {"collectives": 0, "recv": 0, "largest": 0, "ops": {}}
    depth = 0
    loop_depths = []
    for line in ir.splitlines():
        if "scf.for" in line:
            loop_depths.append(depth)
        mult = q ** len(loop_depths)
        m = re.search(r"summa\.(broadcast|reduce|all_reduce|all_gather|reduce_scatter) ", line)
        if m:
            kind = m.group(1)
            tile = tensor_bytes(line.split(":")[-1])
            stats["collectives"] += mult
            stats["ops"][kind] = stats["ops"].get(kind, 0) + mult
            # A broadcast over q ranks: a rank receives the panel unless it is
            # the root, i.e. (q-1)/q of the steps.
            stats["recv"] += mult * tile * (q - 1) // q
        for b in all_tensor_bytes(line):
            stats["largest"] = max(stats["largest"], b)
        depth += line.count("{") - line.count("}")
        while loop_depths and depth <= loop_depths[-1]:
            loop_depths.pop()
    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--q", type=int, default=2)
    ap.add_argument("--summa-opt", default=str(ROOT / "build/bin/summa-opt"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    args = ap.parse_args()
    q = args.q
    upstream = subprocess.run(
        [args.mlir_opt, "-",
         "--pass-pipeline=builtin.module(func.func(sharding-propagation,shard-partition))"],
        input=annotate(q), capture_output=True, text=True, check=True).stdout
    summa = subprocess.run(
        [args.summa_opt, str(ROOT / "examples/mlp.mlir"),
         f"--summa-assign-layouts=grid={q},{q},1", "--summa-partition",
         "--summa-expand-matmul", "--canonicalize"],
        capture_output=True, text=True, check=True).stdout
    u, s = count_upstream(upstream, q), count_summa(summa, q)
    print(f"examples/mlp.mlir (X 192x96, W1 96x384, W2 384x96, f32) on a "
          f"{q}x{q} grid, per rank, counted from the partitioned IR:\n")
    print("| | upstream shard (sharding-propagation, shard-partition) | summa [%d,%d,1] |" % (q, q))
    print("| --- | --- | --- |")
    print(f"| collectives per call | {u['collectives']} ({', '.join(f'{v} {k}' for k, v in u['ops'].items())}) "
          f"| {s['collectives']} ({', '.join(f'{v} {k}' for k, v in s['ops'].items())}) |")
    print(f"| bytes received per rank | {u['recv']} | {s['recv']} |")
    print(f"| largest tensor held by a rank | {u['largest']} B | {s['largest']} B |")
    print("\nUpstream all-gathers whole panels (and even an uninitialised "
          "tensor.empty that feeds an elementwise init) and multiplies them "
          "locally; summa moves one panel per SUMMA step and never holds a "
          "gathered operand. Bytes: all_gather counts the slices a rank "
          "receives; a broadcast counts its panel on the (q-1)/q of the steps "
          "where the rank is not the root.")


if __name__ == "__main__":
    sys.exit(main())
