#!/usr/bin/env python3
"""The GPT layer of examples/generate.py (`layer`) in PyTorch, timed.

The same pre-LN GPT-2 block as `generate.py layer` writes in linalg:

    h = x + (softmax(causal(Q·Kᵀ / sqrt(d))) · V) · Wo + bo,
        Q, K, V = LN1(x)·Wq + bq, ...
    y = h + GeLU_tanh(LN2(h)·W1 + b1) · W2 + b2

on the same shapes and dtype, written as a PyTorch user would (nn.functional:
layer_norm, linear, scaled_dot_product_attention with is_causal, gelu with
approximate="tanh"). Prints one line per mode, eager and torch.compile:

    torch eager bf16 tokens=8192 hidden=1536 heads=24 ffn=6144: 1.234 ms/iter

Forward only, no autograd (torch.inference_mode), after warm-up calls;
timed with CUDA events over --iters calls. With --train, the training step
of `generate.py gpt_train --layers 1` instead: the layer, a final LayerNorm,
the MSE loss against a target, autograd's backward and an SGD update of
every parameter. scripts/gpu-check.sh compares
these with the compiled layer's `time:` line from the same GPU.
"""

import argparse
import math
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--seq", type=int, default=1024)
    ap.add_argument("--hidden", type=int, default=1536)
    ap.add_argument("--heads", type=int, default=24)
    ap.add_argument("--ffn", type=int, default=6144)
    ap.add_argument("--dtype", default="bf16", choices=["f32", "f16", "bf16"])
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--modes", default="eager,compile")
    ap.add_argument("--train", action="store_true",
                    help="time a training step (forward, MSE loss, backward, SGD)")
    ap.add_argument("--threads", type=int, default=0,
                    help="CPU threads of PyTorch (torch.set_num_threads; default: its own)")
    args = ap.parse_args()

    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        print("torch_layer: PyTorch is not installed", file=sys.stderr)
        return 3
    if args.device == "cuda" and not torch.cuda.is_available():
        print("torch_layer: no CUDA device for PyTorch", file=sys.stderr)
        return 3
    if args.hidden % args.heads:
        print("torch_layer: --hidden must be a multiple of --heads", file=sys.stderr)
        return 2

    if args.threads > 0:
        torch.set_num_threads(args.threads)
    dtype = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[args.dtype]
    dev = torch.device(args.device)
    b, s, h, nh, f = args.batch, args.seq, args.hidden, args.heads, args.ffn
    d = h // nh
    gen = torch.Generator(device="cpu").manual_seed(0)

    def param(*shape, scale):
        return (torch.rand(*shape, generator=gen) * 2 - 1).mul(scale).to(dev, dtype)

    p = {
        "ln1_g": param(h, scale=1.0), "ln1_b": param(h, scale=0.1),
        "wq": param(h, h, scale=h ** -0.5), "bq": param(h, scale=0.1),
        "wk": param(h, h, scale=h ** -0.5), "bk": param(h, scale=0.1),
        "wv": param(h, h, scale=h ** -0.5), "bv": param(h, scale=0.1),
        "wo": param(h, h, scale=h ** -0.5), "bo": param(h, scale=0.1),
        "ln2_g": param(h, scale=1.0), "ln2_b": param(h, scale=0.1),
        "w1": param(h, f, scale=h ** -0.5), "b1": param(f, scale=0.1),
        "w2": param(f, h, scale=f ** -0.5), "b2": param(h, scale=0.1),
    }
    x = param(b * s, h, scale=1.0)

    def layer(x, p):
        ln = F.layer_norm(x, (h,), p["ln1_g"], p["ln1_b"], 1e-5)
        # Weights are [in, out] as in the linalg model: x·W, not x·Wᵀ.
        q = (ln @ p["wq"] + p["bq"]).view(b, s, nh, d).transpose(1, 2)
        k = (ln @ p["wk"] + p["bk"]).view(b, s, nh, d).transpose(1, 2)
        v = (ln @ p["wv"] + p["bv"]).view(b, s, nh, d).transpose(1, 2)
        ctx = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        ctx = ctx.transpose(1, 2).reshape(b * s, h)
        hid = x + ctx @ p["wo"] + p["bo"]
        ln2 = F.layer_norm(hid, (h,), p["ln2_g"], p["ln2_b"], 1e-5)
        u = F.gelu(ln2 @ p["w1"] + p["b1"], approximate="tanh")
        return hid + u @ p["w2"] + p["b2"]

    if args.train:
        p["lnf_g"] = param(h, scale=1.0)
        p["lnf_b"] = param(h, scale=0.1)
        for t in p.values():
            t.requires_grad_(True)
        target = param(b * s, h, scale=1.0)
        forward = layer

        def layer(x, p):  # noqa: F811 (the training step in its place)
            y = F.layer_norm(forward(x, p), (h,), p["lnf_g"], p["lnf_b"], 1e-5)
            loss = ((y - target) ** 2).mean()
            loss.backward()
            with torch.no_grad():
                for t in p.values():
                    t -= 1e-3 * t.grad
                    t.grad = None
            return loss

    def timed(fn, warmup=3):
        import contextlib
        with contextlib.nullcontext() if args.train else torch.inference_mode():
            for _ in range(warmup):
                fn(x, p)
            if dev.type == "cuda":
                torch.cuda.synchronize()
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(args.iters):
                    fn(x, p)
                end.record()
                torch.cuda.synchronize()
                return start.elapsed_time(end) / args.iters
            import time
            t0 = time.perf_counter()
            for _ in range(args.iters):
                fn(x, p)
            return (time.perf_counter() - t0) * 1e3 / args.iters

    rc = 0
    shape = "tokens=%d hidden=%d heads=%d ffn=%d%s" % (b * s, h, nh, f,
                                                        " train" if args.train else "")
    for mode in args.modes.split(","):
        if mode == "eager":
            fn = layer
        elif mode == "compile":
            try:
                fn = torch.compile(layer)
            except Exception as e:  # no compiler backend on this machine
                print("torch compile %s %s: unavailable (%s)" % (args.dtype, shape, e))
                rc = 1
                continue
        else:
            print("torch_layer: unknown mode %r" % mode, file=sys.stderr)
            return 2
        try:
            ms = timed(fn)
        except Exception as e:
            print("torch %s %s %s: failed (%s)" % (mode, args.dtype, shape, str(e).splitlines()[0]))
            rc = 1
            continue
        print("torch %s %s %s: %.3f ms/iter" % (mode, args.dtype, shape, ms))
    return rc


if __name__ == "__main__":
    sys.exit(main())
