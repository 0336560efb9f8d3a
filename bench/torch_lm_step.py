#!/usr/bin/env python3
"""PyTorch's own training step of a model of examples/export/export_torch.py,
timed: the baseline of bench/real_size.sh.

Builds the same module with the same weights the export writes (same model
kind, sizes and seed), then times what a PyTorch user runs per step:

    opt.zero_grad(set_to_none=True); loss = model(ids, labels);
    loss.backward(); opt.step()      # torch.optim.SGD(lr)

after --warmup steps, --iters times, on the CPU with --threads threads.
Prints one line:

    torch step: median 2612.3 ms (min 2590.1, max 2701.2) over 5 steps; peak RSS 2362 MB
"""

import argparse
import os
import resource
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "examples", "export"))
import export_torch  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("export_args", nargs=argparse.REMAINDER,
                    help="the model and its sizes, as export_torch.py takes them")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    margs = export_torch.parse_args(list(args.export_args) + ["-o", os.devnull])
    model, inputs, _, _ = export_torch.build(margs)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=args.lr)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = model(*inputs)
        loss.backward()
        opt.step()
        return loss

    for _ in range(args.warmup):
        step()
    times = []
    for _ in range(args.iters):
        start = time.perf_counter()
        step()
        times.append((time.perf_counter() - start) * 1e3)
    times.sort()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"torch step: median {times[len(times) // 2]:.1f} ms (min {times[0]:.1f}, "
          f"max {times[-1]:.1f}) over {len(times)} steps; peak RSS {rss:.0f} MB")


if __name__ == "__main__":
    main()
