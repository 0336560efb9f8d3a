#!/usr/bin/env python3
"""Generate bench/paper.md: summa-plan's predictions for the configurations of
the 2.5D paper (Wang, Xu, Bian, You, arXiv 2105.14500, "Tesseract") beside
the published figures listed in issue 5.

    python3 bench/paper.py [--plan build/bin/summa-plan] [-o bench/paper.md]

Every number in a "planner" column comes from running summa-plan: on the IR
of a training step that examples/generate.py writes (forward, MSE loss,
backward, SGD update; the summa grids are counted on the partitioned IR),
with --describe for forward passes, or on the IR of one linalg.matmul.
Standard library only; takes about a minute on a 2-core VM.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GiB = 2.0 ** 30

# A100-like links and GEMM rate for the configurations measured on A100s
# (NVLink 3: 300 GB/s per direction; 200 Gb/s HDR InfiniBand per GPU;
# 312 TFLOP/s dense bf16; 80 GB).
A100 = ["--nvlink-gbps", "300", "--ib-gbps", "25", "--gemm-tflops", "312",
        "--memory-gb", "80"]


class Planner:
    def __init__(self, binary, tmp):
        self.binary = binary
        self.tmp = tmp
        self.calls = 0
        self.files = {}

    def run(self, args):
        self.calls += 1
        proc = subprocess.run([self.binary] + args + ["--json"],
                              capture_output=True, text=True)
        if proc.returncode not in (0, 2):
            sys.exit("summa-plan %s failed:\n%s" % (" ".join(args), proc.stderr))
        return json.loads(proc.stdout)

    def describe(self, ranks, grid=None, extra=(), **model):
        spec = ",".join("%s=%s" % kv for kv in model.items())
        args = ["--describe", spec, "--ranks", str(ranks)]
        if grid:
            args += ["--grid", ",".join(map(str, grid))]
        return self.run(args + list(extra))

    def train(self, ranks, extra=(), **model):
        """Plans the generated training step (SGD) of a GPT model."""
        key = tuple(sorted(model.items()))
        if key not in self.files:
            path = os.path.join(self.tmp, "train%d.mlir" % len(self.files))
            cmd = [sys.executable, os.path.join(ROOT, "examples", "generate.py"),
                   "gpt_train", "-o", path]
            for k, v in model.items():
                cmd += ["--" + k, str(v)]
            subprocess.run(cmd, check=True)
            self.files[key] = path
        return self.run([self.files[key], "--ranks", str(ranks)] + list(extra))


def strategy(plan, name):
    for s in plan["strategies"]:
        if s["name"] == name:
            return s
    raise KeyError(name)


def t(s):
    return s["seconds"]["total"]


def ms(seconds):
    return "%.1f ms" % (seconds * 1e3)


def gib(b):
    return "%.2f GiB" % (b / GiB)


def ratio(a, b):
    return "%.2fx" % (a / b)


def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join(" --- " for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def gpt(h, layers, seq, batch, heads=None):
    return dict(layers=layers, hidden=h, heads=heads or h // 128, seq=seq,
                batch=batch, dtype="bf16")


# --------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------

def weak_scaling(p, out):
    """[8,8,1] against [4,4,4] on 64 GPUs at the same (weak-scaled) work."""
    rows, ratios, fwd = [], [], []
    for h in (2048, 4096, 8192):
        for per_gpu in (1, 4):
            m = gpt(h, 24, 1024, 64 * per_gpu)
            tr = p.train(64, **m)
            ta = p.train(64, A100, **m)
            a, b = strategy(tr, "[8,8,1]"), strategy(tr, "[4,4,4]")
            aa, bb = strategy(ta, "[8,8,1]"), strategy(ta, "[4,4,4]")
            fa = strategy(p.describe(64, (8, 8, 1), **m), "[8,8,1]")
            fb = strategy(p.describe(64, (4, 4, 4), **m), "[4,4,4]")
            ratios.append(t(a) / t(b))
            fwd.append(t(fa) / t(fb))
            rows.append([
                "h=%d, %d heads" % (h, h // 128), m["batch"] * 1024,
                gib(a["payload_bytes"]), gib(b["payload_bytes"]),
                ms(t(a)), ms(t(b)), "**%s**" % ratio(t(a), t(b)),
                ratio(t(aa), t(bb)), ratio(t(fa), t(fb)),
                gib(a["memory"]["total"]), gib(b["memory"]["total"])])
    out["weak"] = table(
        ["model (24 layers, seq 1024, bf16)", "tokens", "payload [8,8,1]",
         "payload [4,4,4]", "step [8,8,1]", "step [4,4,4]",
         "[8,8,1]/[4,4,4] H200", "A100-like", "forward only",
         "memory [8,8,1]", "memory [4,4,4]"], rows)
    out["rmin"], out["rmax"] = "%.2f" % min(ratios), "%.2f" % max(ratios)
    out["fmin"], out["fmax"] = "%.2f" % min(fwd), "%.2f" % max(fwd)


def crossover(p, out):
    """Tokens at which [4,4,4] starts to move fewer bytes than [8,8,1]."""
    rows = []
    h = 4096
    for batch in (16, 32, 48, 64, 128):
        m = gpt(h, 1, 256, batch, heads=32)
        fa = strategy(p.describe(64, (8, 8, 1), **m), "[8,8,1]")
        fb = strategy(p.describe(64, (4, 4, 4), **m), "[4,4,4]")
        tr = p.train(64, **m)
        a, b = strategy(tr, "[8,8,1]"), strategy(tr, "[4,4,4]")
        tok = batch * 256

        def fewer(x, y):
            return "[4,4,4]" if y < x else ("equal" if x == y else "[8,8,1]")
        rows.append(["%d (%.2f h)" % (tok, tok / h),
                     "%.0f / %.0f MiB" % (fa["payload_bytes"] / 2 ** 20,
                                          fb["payload_bytes"] / 2 ** 20),
                     fewer(fa["payload_bytes"], fb["payload_bytes"]),
                     "%.0f / %.0f MiB" % (a["payload_bytes"] / 2 ** 20,
                                          b["payload_bytes"] / 2 ** 20),
                     fewer(a["payload_bytes"], b["payload_bytes"])])
    out["crossover"] = table(
        ["tokens (one layer, h = 4096)", "forward [8,8,1] / [4,4,4]",
         "fewer bytes", "training step [8,8,1] / [4,4,4]", "fewer bytes"],
        rows)


def strong_scaling(p, out):
    """Best 2.5D grid against 1D and 2D at a fixed model and batch."""
    rows = []
    m = gpt(4096, 24, 1024, 64, heads=64)
    for ranks in (16, 64):
        plan = p.train(ranks, **m)
        grids = [s for s in plan["strategies"]
                 if s["kind"] == "grid" and s["feasible"]]
        two_d = [s for s in grids if s["grid"][2] == 1]
        two_half = [s for s in grids if s["grid"][2] > 1 and s["grid"][0] > 1]
        one_d, dp = strategy(plan, "1D"), strategy(plan, "DP")
        b25 = min(two_half, key=t)
        rows.append([
            ranks, "%s %s" % (b25["name"], ms(t(b25))),
            "%s %s" % (two_d[0]["name"], ms(t(two_d[0]))) if two_d else "infeasible",
            ms(t(one_d)) if one_d["feasible"] else "infeasible",
            "%s%s" % (ms(t(dp)), "" if dp["fits_memory"] else " (does not fit)"),
            ratio(t(one_d), t(b25)) if one_d["feasible"] else "-",
            ratio(t(two_d[0]), t(b25)) if two_d else "-",
            "%s (%s)" % (plan["best"], ms(t(strategy(plan, plan["best"])))),
        ])
    out["strong"] = table(
        ["GPUs", "best 2.5D (d > 1, q > 1)", "2D [q,q,1]", "1D", "DP",
         "2.5D speed-up over 1D", "over 2D", "planner's choice"], rows)


def colossal(p, out):
    """ColossalAI's normalised formulas beside the planner's bytes."""
    def bw(kind, q=1, d=1, P=1):
        if kind == "1D":
            return 2 * (P - 1) / P
        if kind == "2D":
            return 6 * (q - 1) / q
        return 3 * (q - 1) * (d + 1) / (d * q)

    rows = []
    for label, batch in (("8 h", 32), ("128 h", 512)):
        plan = p.train(64, **gpt(4096, 1, 1024, batch, heads=64))
        ref = strategy(plan, "[8,8,1]")["payload_bytes"]
        for name, kind, q, d in (("1D", "1D", 0, 0), ("[8,8,1]", "2D", 8, 1),
                                 ("[4,4,4]", "2.5D", 4, 4),
                                 ("[2,2,16]", "2.5D", 2, 16)):
            s = strategy(plan, name)
            f = bw(kind, q, d, 64)
            rows.append([label, name, "%.3f" % f, "%.2f" % (f / bw("2D", 8, 1)),
                         gib(s["payload_bytes"]) if s["feasible"] else "infeasible",
                         "%.2f" % (s["payload_bytes"] / ref) if s["feasible"] else "-"])
    out["colossal"] = table(
        ["tokens", "strategy", "ColossalAI bandwidth term", "formula / 2D",
         "planner payload per rank (training step)", "planner / [8,8,1]"], rows)


def memory(p, out):
    m = gpt(8192, 24, 1024, 64)
    plan = p.describe(64, **m)
    train = p.train(64, **m)
    rows = []
    full_p = plan["model"]["parameters"] * 2
    full_a = plan["model"]["tokens"] * plan["model"]["hidden"] * 2
    for name, pf, af in (("1D", "1/P = 1/64", "1"),
                         ("[8,8,1]", "1/q^2 = 1/64", "1/q^2 = 1/64"),
                         ("[4,4,4]", "1/q^2 = 1/16", "1/(d q^2) = 1/64"),
                         ("[2,2,16]", "1/q^2 = 1/4", "1/(d q^2) = 1/64"),
                         ("[1,1,64]", "1 (replicated)", "1/64")):
        s, st = strategy(plan, name), strategy(train, name)
        if not s["feasible"]:
            rows.append([name, pf, "infeasible", af, "infeasible", "", ""])
            continue
        rows.append([name, pf, "1/%.0f" % (full_p / s["memory"]["parameters"]),
                     af, "1/%.0f" % (full_a / s["memory"]["activations"]),
                     gib(s["memory"]["total"]),
                     gib(st["memory"]["total"]) if st["feasible"] else "-"])
    out["memory"] = table(
        ["strategy", "ColossalAI parameters", "planner parameters",
         "ColossalAI activations", "planner input tile",
         "planner total, forward", "planner total, training step"], rows)


def a100_node(p, out):
    """The 8xA100 user measurement (GPT 4B, global batch 8)."""
    measured = [("1D over 4", 7.61), ("1D over 8", 7.62), ("2D over 4", 9.89),
                ("2D over 8", 8.47), ("2.5D over 4", 10.31)]
    planned = {"1D over 4": (4, "1D"), "1D over 8": (8, "1D"),
               "2D over 4": (4, "[2,2,1]"), "2D over 8": (8, "[2,2,2]"),
               "2.5D over 4": (4, "[2,2,1]")}
    rows = []
    base = None
    plans = {}
    for label, value in measured:
        ranks, name = planned[label]
        if ranks not in plans:
            plans[ranks] = p.train(ranks, A100,
                                   **gpt(3072, 36, 1024, ranks, heads=24))
        s = strategy(plans[ranks], name)
        # Throughput of the node: 8 / ranks groups of `ranks` sequences.
        thr = 8 / t(s)
        if base is None:
            base = thr
        rows.append([label, "%s, %d sequences" % (name, ranks), value,
                     "%.2f" % (value / measured[0][1]), ms(t(s)),
                     "%.2f" % (thr / base)])
    for ranks, name in ((4, "[1,1,4]"), (8, "[1,1,8]")):
        s = strategy(plans[ranks], name)
        rows.append(["(DP over %d, not measured)" % ranks,
                     "%s, %d sequences" % (name, ranks), "-", "-", ms(t(s)),
                     "%.2f" % (8 / t(s) / base)])
    out["a100"] = table(
        ["configuration (user)", "planned as", "measured throughput",
         "measured / 1D-4", "planner step time", "planner / 1D-4"], rows)


def solomonik(p, out):
    """One square matmul on the grids of 64 ranks against n^2/sqrt(cP)."""
    n = 8192
    text = """// One linear layer Y = X*W, X [n, n], W [n, n], bf16 (bench/paper.py).
func.func @linear(%x: tensor<{n}x{n}xbf16> {{summa.role = "activation"}},
                  %w: tensor<{n}x{n}xbf16> {{summa.role = "weight"}})
    -> tensor<{n}x{n}xbf16> {{
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<{n}x{n}xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<{n}x{n}xbf16>) -> tensor<{n}x{n}xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<{n}x{n}xbf16>, tensor<{n}x{n}xbf16>)
                     outs(%f : tensor<{n}x{n}xbf16>) -> tensor<{n}x{n}xbf16>
  return %y : tensor<{n}x{n}xbf16>
}}
""".format(n=n)
    path = os.path.join(p.tmp, "linear.mlir")
    with open(path, "w") as f:
        f.write(text)
    plan = p.run([path, "--ranks", "64"])
    rows = []
    for s in plan["strategies"]:
        if s["kind"] != "grid" or not s["feasible"]:
            continue
        q, _, d = s["grid"]
        words = s["payload_bytes"] // 2
        bound = n * n / math.sqrt(d * 64)
        rows.append([s["name"], d, words,
                     "%d + %d" % ((n * n // (d * q), n * n // q) if q > 1 else (0, 0)),
                     "%.0f" % bound, "%.2f" % (words / bound),
                     "yes" if d <= 4 else "no (c > P^(1/3))"])
    out["solomonik"] = table(
        ["grid", "copies c = d", "planner words per rank (counted)",
         "= X panels + W panels", "bound n^2/sqrt(cP)", "planner / bound",
         "bound applies"], rows)


# --------------------------------------------------------------------------
# The page.

TEMPLATE = """# summa-plan beside the 2.5D paper

Generated by `python3 bench/paper.py` ({calls} runs of `summa-plan`); do not
edit by hand. The paper is Wang, Xu, Bian, You, *2.5-dimensional distributed
model training* (arXiv 2105.14500; ICPP 2022 as "Tesseract"). The published
figures are those listed in issue 5; the planner and its model are described
in `docs/Planner.md`.

## What is compared, and what is not

* **Training steps are planned on their IR.** `examples/generate.py
  gpt_train` writes one training step (forward, MSE loss, the backward op by
  op, SGD update) of a GPT model; summa-plan partitions it for every grid and
  counts what the compiled step sends: the forward's SUMMA broadcasts, the
  backward's broadcast-and-reduce products, the LayerNorm all-reduces and the
  depth all-reduce of the weight gradients. These counts are exact for
  summa's program (test/Plan/exact-train.mlir). 1D Megatron and data
  parallelism are models on the same IR (docs/Planner.md); their backward
  all-reduces are found in the IR, not assumed.
* Forward-only columns use `summa-plan --describe` (closed formulas, equal to
  the IR counts of the generated forward, test/Plan/describe-agrees.mlir).
* **Times are an alpha-beta model**, not measurements: ring / pipelined
  collectives, NVLink inside a node of 8, InfiniBand across nodes, GEMMs at
  70 % of peak, no overlap. Not modelled: overlap of communication with
  GEMMs, the elementwise / softmax / LayerNorm kernels, memory bandwidth,
  NCCL's algorithm choice, NIC sharing, pipeline parallelism, optimizers
  other than the SGD in the step, mixed-precision master weights.
* Hardware: H200 defaults (NVLink 4: 2 us, 450 GB/s per direction; 400 Gb/s
  InfiniBand per GPU: 5 us, 50 GB/s; bf16 989 TFLOP/s x 0.7; 141 GB). The
  "A100-like" columns use NVLink 300 GB/s, 25 GB/s per GPU across nodes,
  312 TFLOP/s and 80 GB.
* **Model sizes.** I could not verify the exact model configurations of the
  paper's experiments (hidden sizes, layers, sequence length, batch per GPU,
  and the cluster). The tables therefore use GPT-style stand-ins (pre-LN
  layers as `examples/generate.py` emits them, ffn = 4h, heads = h/128,
  sequence 1024, bf16) over a range of hidden sizes and tokens. For the
  8xA100 user measurement (GPT, 4B parameters) the stand-in is 36 layers of
  hidden 3072 (4.1B parameters), 24 heads, sequence 1024.

## 1. Weak scaling: 2.5D [4,4,4] against 2D [8,8,1] on 64 GPUs

Published: 2.5D `[4,4,4]` scales **1.45x** more efficiently than 2D
`[8,8,1]` (weak scaling, 64 GPUs, training). In weak scaling both runs on 64
GPUs do the same work, so the ratio of efficiencies is the inverse ratio of
step times; the planner's analogue is `time[8,8,1] / time[4,4,4]` for the
same model and batch (1 and 4 sequences per GPU below).

{weak}

For a training step the planner's ratio ranges from {rmin}x to {rmax}x (the
forward alone: {fmin}x to {fmax}x): **2.5D wins when the tokens per step are
large against the hidden size** and loses otherwise. Per linear `K -> N` and
per rank, the forward moves the activation panels `T*K/(d*q)` along rows and
the weight panels `K*N/q` along columns (Q, K and V share their activation
panels); the backward's two products (`dX = dY W^T`, `dW = X^T dY`) add one
broadcast and one reduce of each size, and the depth all-reduce of the
weight gradients (`K*N/q^2` per linear over `d` ranks). Going from
`[8,8,1]` to `[4,4,4]` halves the activation traffic (`d*q` doubles),
doubles the weight traffic (`q` halves) and adds the depth all-reduce.
Where the bytes cross:

{crossover}

Per layer the forward moves `T*7h/(d*q)` activation and `12 h^2/q` weight
elements, so `[4,4,4]` moves fewer bytes once `T > 24/7 h`, about `3.4 h`;
the training step crosses between `3 h` and `4 h` too (DESIGN.md §1
estimates `3.4 h` for forward + backward).

Why the numbers differ from 1.45x: (a) unknown model sizes and batch (the
ratio depends on tokens against hidden size, above); (b) different hardware
(the A100-like column shows how the ratio moves with the link / compute
balance); (c) different implementation: ColossalAI's legacy
`parallel_2p5d`, whose depth layers stopped splitting the batch after 2021
and which never all-reduced weight gradients over depth (DESIGN.md §1), so
its `[4,4,4]` is not the algorithm planned here; (d) the model ignores
overlap and the non-GEMM kernels. Memory per rank is higher for `[4,4,4]`:
weights are split `q*q = 16` ways instead of 64.

## 2. Strong scaling against 1D and 2D

Published (ICPP 2022, training): strong scaling 1.38x over 1D and 1.53x
over 2D; weak scaling up to 4.0x / 1.7x inference speed-up and 3.4x / 1.7x
throughput over 1D / 2D. Planner, training step of 24 layers, h = 4096,
64 heads, 64 sequences of 1024 tokens, on 16 and 64 GPUs:

{strong}

1D Megatron all-reduces the whole `[tokens, hidden]` activation four times
per layer in a training step (two forward, two backward), independent of P;
at 64k tokens that is 512 MiB each, over InfiniBand once P > 8. That is why
1D is slow here; with few tokens it is competitive (section 5). Data
parallelism all-reduces every gradient once per step (the whole model) and
needs every weight on every GPU.

## 3. ColossalAI's normalised formulas

ColossalAI's documentation gives, for forward + backward with ring
collectives, the bandwidth term 1D `2(P-1)/P`, 2D `6(q-1)/q`, 2.5D
`3(q-1)(d+1)/(d q)`, 3D `6(q-1)/q^3` (latency `2(P-1)` for 1D and `6(q-1)`
for the others). Beside them, the planner's payload per rank for one
training step of one layer (h = 4096, 64 heads) on 64 GPUs, at two token
counts:

{colossal}

The formulas count traffic in units of **one rank's block** (activation and
weight blocks of the same size), so they cannot show that a `[4,4,4]` weight
block is 4x a `[8,8,1]` one, nor how the answer depends on tokens against
hidden size: with many tokens (activations dominate) the planner's ratios
approach the formula's, with few tokens 2.5D's advantage shrinks or turns.
The planner's payload is what the runtime counts (each call's buffer,
section "Counting" in docs/Planner.md), not ring-normalised traffic; the
ring factors `(p-1)/p` and the latency terms (`2(p-1)` alphas per
all-reduce, `log2 p` per pipelined broadcast) are in its time model. 3D is
not a summa strategy and is not planned.

## 4. Memory per rank

ColossalAI: parameters 1D `1/P`, 2D `1/q^2`, 2.5D `1/q^2`, 3D `1/q^3`;
activations 1D `1`, 2D `1/q^2`, 2.5D `1/(d q^2)`, 3D `1/q^3`. The planner's
tiles for 24 layers, h = 8192, 64 sequences of 1024 tokens, on 64 GPUs, as
fractions of the whole model / whole activation, and its totals:

{memory}

The fractions agree: summa replicates weights over depth (`1/q^2`) and
splits the batch over depth and rows (`1/(d q^2)`). The totals add the
results and the peak of intermediate tiles (and SUMMA panels) in a liveness
walk of the function; for the training step that includes the activations
the backward keeps and the gradients. Optimizer state other than SGD's
(none) and fp32 master weights are not in the generated step.

## 5. One 8xA100 node, GPT 4B, global batch 8 (a user's measurement)

Measured throughput (training, higher is better): 1D over 4 GPUs 7.61,
1D over 8 7.62, 2D over 4 9.89, 2D over 8 8.47, 2.5D over 4 10.31. Planner:
training step with A100-like parameters; groups of 4 GPUs take 4 sequences
each (two data-parallel groups fill the node; their gradient all-reduce is
not included); "2D over 8" is planned as `[2,2,2]` (8 is not a square).

{a100}

**They disagree.** The planner ranks 1D over 4 first: with 4096 tokens
against h = 3072, the 2D weight panels (`K*N/q` per linear, three products
per linear in a step) cost more than 1D's four activation all-reduces per
layer on NVLink. The measurement comes from another implementation and an
unknown model shape, and includes what the model leaves out (kernel time,
overlap, framework overhead, the data-parallel gradient all-reduce). The
planner also sees no difference between "2D over 4" and "2.5D over 4":
with 4 GPUs the only 2.5D grids are `[2,2,1]` (= 2D) and `[1,1,4]` (= data
parallel), so the measured 9.89 against 10.31 cannot come from the
communication pattern.

## 6. Against the Solomonik-Demmel lower bound

Solomonik & Demmel: 2.5D matrix multiplication with `c` copies of the data
moves `O(n^2 / sqrt(c P))` words per rank (for `c <= P^(1/3)`). The planner
on the IR of one square linear layer `Y = X W` (forward), `n = 8192`, bf16,
P = 64 (words = payload bytes / 2, counted on the partitioned IR):

{solomonik}

summa's 2.5D is **not** Solomonik-Demmel's algorithm: it keeps `d` copies of
the weight only, splits the activations (batch) over depth, and runs an
independent 2D SUMMA in each depth layer. Its words per rank are
`n^2/(d q) + n^2/q`, `(d + 1)` times the bound with `c = d`: the activation
term meets the bound, the weight term does not shrink with `d`. This is the
trade the paper makes for transformers: the weight copies are set up once
and kept consistent by the depth all-reduce of the gradients, rather than
moved every step. `[1,1,64]` moves nothing because the weight is fully
replicated beforehand.
"""


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plan", default=os.path.join(ROOT, "build", "bin", "summa-plan"))
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "bench", "paper.md"))
    args = ap.parse_args(argv)
    if not os.access(args.plan, os.X_OK):
        sys.exit("error: %s is not built (ninja -C build summa-plan)" % args.plan)
    with tempfile.TemporaryDirectory() as tmp:
        p = Planner(args.plan, tmp)
        sections = {}
        for section in (weak_scaling, crossover, strong_scaling, colossal,
                        memory, a100_node, solomonik):
            section(p, sections)
        sections["calls"] = p.calls
    with open(args.output, "w") as f:
        f.write(TEMPLATE.format(**sections))
    print("wrote %s (%d summa-plan runs)" % (args.output, p.calls))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
