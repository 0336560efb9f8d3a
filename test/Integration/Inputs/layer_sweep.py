#!/usr/bin/env python3
# ===- layer_sweep.py - every layer kind, forward and step, on every grid -=== #
#
# Part of the summa project.
#
# ===------------------------------------------------------------------------=== #
"""The differential sweep of layer-sweep.mlir: for each model of
Inputs/layers (examples/export/export_layers.py: one layer kind each, with
PyTorch's forward and SGD step committed), compiles and runs

  forward  the exported function: its loss and output against PyTorch's
           (--expect) and the unpartitioned program (--check);
  step     the SGD step summa-differentiate derives (params=floats: every
           float argument, the input included): the loss and every updated
           argument against PyTorch's autograd step, --check, and the
           derived gradients against finite differences (--gradcheck);

on each grid, and prints one line per run:

  MODEL MODE [GRID] PASS|FAIL ...verdict lines...

then `sweep: N passed, M failed`. Exits 1 if a run fails. A run listed
with --refused MODEL@GRID must instead be refused by summa-compile, with
its message printed.
"""

import argparse
import math
import os
import shlex
import subprocess
import sys


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--opt", required=True)
    p.add_argument("--compile", required=True)
    p.add_argument("--mpirun", required=True, help="the launcher command line")
    p.add_argument("--fixtures", required=True)
    p.add_argument("--work", required=True)
    # No [1,1,1]: every run checks the rules a one-rank run would (PyTorch's
    # output, finite differences) besides the partitioning (--check).
    p.add_argument("--grids", nargs="+", default=["2,2,1", "1,1,2", "2,2,2"])
    p.add_argument("--modes", nargs="+", default=["forward", "step"])
    p.add_argument("--refused", action="append", default=[], metavar="MODEL@GRID",
                   help="a run summa-compile must refuse (repeatable)")
    p.add_argument("--tol", default="1e-4")
    p.add_argument("models", nargs="+")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    mpirun = shlex.split(args.mpirun)
    passed = failed = 0
    for model in args.models:
        source = os.path.join(args.fixtures, model + ".mlir")
        inputs = os.path.join(args.fixtures, model + ".inputs.safetensors")
        expect = os.path.join(args.fixtures, model + ".torch.safetensors")
        for mode in args.modes:
            program, entry = source, model
            if mode == "step":
                program = os.path.join(args.work, model + ".step.mlir")
                derived = run([args.opt, source, "--summa-differentiate=sgd-lr=0.1 params=floats "
                               "gradients=false", "-o", program])
                if derived.returncode != 0:
                    print(f"{model} {mode} FAIL summa-differentiate: {derived.stderr.strip()[:300]}")
                    failed += 1
                    continue
                entry = model + "_grad"
            for grid in args.grids:
                tag = f"{model} {mode} [{grid}]"
                exe = os.path.join(args.work, f"{model}.{mode}.{grid.replace(',', 'x')}")
                compiled = run([args.compile, program, f"--entry={entry}", f"--grid={grid}", "-O0",
                                "-o", exe])
                if f"{model}@{grid}" in args.refused:
                    ok = compiled.returncode != 0
                    first = compiled.stderr.strip().splitlines()[:1]
                    print(f"{tag} {'REFUSED' if ok else 'FAIL (compiled, expected a refusal)'} "
                          f"{first[0] if first else ''}")
                    passed += ok
                    failed += not ok
                    continue
                if compiled.returncode != 0:
                    print(f"{tag} FAIL summa-compile: {compiled.stderr.strip()[:400]}")
                    failed += 1
                    continue
                ranks = math.prod(int(x) for x in grid.split(","))
                cmd = mpirun + ["-np", str(ranks), exe, "--inputs", inputs, "--expect", expect,
                                "--tol", args.tol, "--check", "--iters", "0"]
                if mode == "step":
                    cmd.append("--gradcheck")
                ran = run(cmd)
                verdicts = [line for line in ran.stdout.splitlines()
                            if line.startswith(("check: PASS", "check: FAIL", "expect: PASS",
                                                "expect: FAIL", "gradcheck: PASS", "gradcheck: FAIL"))]
                ok = ran.returncode == 0
                detail = "; ".join(verdicts) if verdicts else ran.stderr.strip()[-300:]
                print(f"{tag} {'PASS' if ok else 'FAIL'} {detail}", flush=True)
                if not ok:
                    print(ran.stdout)
                passed += ok
                failed += not ok
    print(f"sweep: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
