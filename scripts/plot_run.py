#!/usr/bin/env python3
"""Draws the loss and the throughput of a training run from its --metrics file.

usage: scripts/plot_run.py METRICS.jsonl [METRICS.jsonl...] -o loss.png
                           [--title TITLE] [--smooth N] [--dpi D]

METRICS.jsonl is what a compiled program's --metrics FILE wrote (one JSON
object per step). Two panels share the step axis: the loss (with a running
mean over --smooth steps when N > 1), and tokens per second (milliseconds per
step when the run had no --data). Several files draw one line each, labelled
by file name. Needs matplotlib (pip install matplotlib); the image format
follows the -o suffix (.png, .svg, .pdf).
"""
import argparse
import json
import os
import sys


def read(path):
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rows.append(json.loads(line))
            except ValueError as error:
                sys.exit(f"plot_run.py: {path}:{number}: not JSON: {error}")
    if not rows:
        sys.exit(f"plot_run.py: {path} has no steps")
    return rows


def running_mean(values, n):
    out, window = [], []
    for value in values:
        window.append(value)
        if len(window) > n:
            window.pop(0)
        out.append(sum(window) / len(window))
    return out


def main(argv):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("metrics", nargs="+", help="--metrics files")
    parser.add_argument("-o", "--output", required=True, help="image file")
    parser.add_argument("--title", default=None)
    parser.add_argument("--smooth", type=int, default=1,
                        help="running mean of the loss over N steps")
    parser.add_argument("--dpi", type=int, default=100)
    args = parser.parse_args(argv)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        sys.exit("plot_run.py: needs matplotlib (pip install matplotlib)")

    runs = [(os.path.basename(p), read(p)) for p in args.metrics]
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7, 5),
                                      gridspec_kw={"height_ratios": [2, 1]})
    # One quantity for every run: tokens/s where all of them have it.
    rates = all(any(r.get("tokens_per_s") is not None for r in rows)
                for _, rows in runs)
    rate_label = "tokens/s" if rates else "ms/step"
    for name, rows in runs:
        label = name if len(runs) > 1 else None
        lossy = [r for r in rows if r.get("loss") is not None]
        if lossy:
            steps = [r["step"] for r in lossy]
            loss = [r["loss"] for r in lossy]
            if args.smooth > 1:
                top.plot(steps, loss, color="0.75", linewidth=0.8)
                top.plot(steps, running_mean(loss, args.smooth), label=label)
            else:
                top.plot(steps, loss, label=label)
        if rates:
            pts = [(r["step"], r["tokens_per_s"]) for r in rows
                   if r.get("tokens_per_s") is not None]
        else:
            pts = [(r["step"], r["ms_per_step"]) for r in rows]
        bottom.plot([p[0] for p in pts], [p[1] for p in pts], label=label,
                    linewidth=0.8)
    top.set_ylabel("loss" + (f" (mean of {args.smooth})"
                             if args.smooth > 1 else ""))
    top.grid(True, alpha=0.3)
    bottom.set_ylabel(rate_label)
    bottom.set_xlabel("step")
    bottom.xaxis.set_major_locator(
        matplotlib.ticker.MaxNLocator(integer=True))
    bottom.grid(True, alpha=0.3)
    bottom.set_ylim(bottom=0)
    if len(runs) > 1:
        top.legend()
    last = runs[0][1][-1]
    title = args.title or (
        f"{len(runs)} runs" if len(runs) > 1 else
        f"{runs[0][0]}: {len(runs[0][1])} steps"
        + (f", final loss {last['loss']:.3f}" if last.get("loss") is not None
           else ""))
    top.set_title(title)
    fig.tight_layout()
    fig.savefig(args.output, dpi=args.dpi)
    print(f"plot_run.py: wrote {args.output}")


if __name__ == "__main__":
    main(sys.argv[1:])
