#!/usr/bin/env python3
"""What the Python front door says about bad input: a SummaError that names
the problem (and, from a tool, its located diagnostic), never a traceback
from deep inside torch-mlir or a silent wrong result.

    python/tests/errors.py
"""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
try:
    import summa  # the package pip installed (scripts/python-env.sh)
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(HERE)))
    import summa

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402


class Histogram(nn.Module):
    """An op torch-mlir's linalg export does not take (aten.histc)."""

    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(8, 8))

    def forward(self, x):
        return torch.histc(x @ self.w, bins=4)


class Linear(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(6, 6)

    def forward(self, x):
        return (self.lin(x) ** 2).mean()


def expect(what, fn, *needles):
    """fn() must raise SummaError whose message holds every needle."""
    try:
        fn()
    except summa.SummaError as e:
        missing = [n for n in needles if n not in str(e)]
        if missing:
            print(f"FAIL {what}: the message lacks {missing}:\n{e}")
            return False
        print(f"PASS {what}: {str(e).splitlines()[0][:150]}")
        return True
    except Exception as e:  # anything else is a defect
        print(f"FAIL {what}: {type(e).__name__} instead of SummaError: {e}")
        return False
    print(f"FAIL {what}: no error")
    return False


def main():
    work = tempfile.mkdtemp(prefix="summa-errors-")
    ok = True
    ok &= expect("an op torch-mlir cannot export",
                 lambda: summa.export(Histogram(), torch.randn(4, 8), out=work),
                 "histc")
    ok &= expect("not a module", lambda: summa.export(lambda x: x, torch.randn(2)),
                 "expected a torch.nn.Module")
    ok &= expect("a non-tensor argument", lambda: summa.export(Linear(), 3.0),
                 "example argument 0")
    ok &= expect("causal_lm of a plain module",
                 lambda: summa.export(Linear(), torch.randn(4, 6), loss="causal_lm"),
                 "not a transformers model")
    exported = summa.export(Linear(), torch.randn(4, 6), name="linear", out=work)
    ok &= expect("a grid that is not [q, q, d]",
                 lambda: summa.compile(exported, grid=(2, 1, 1)), "[q, q, d]")
    ok &= expect("an unknown optimizer",
                 lambda: summa.compile(exported, train=summa.TrainingOptions(optimizer="lamb")),
                 "optimizer='lamb'")
    forward = summa.compile(exported, grid=(1, 1, 1))
    ok &= expect("training a forward", lambda: summa.train(forward, [1, 2, 3], 5),
                 "not a training step")
    ok &= expect("the wrong number of inputs", lambda: forward.run((torch.randn(4, 6),) * 2),
                 "takes 1 input(s)")
    ok &= expect("an input of the wrong shape", lambda: forward.run(torch.randn(5, 6)),
                 "running linear", "'x'")
    ok &= expect("a missing checkpoint", lambda: summa.load(Linear(), os.path.join(work, "no")),
                 "no checkpoint")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
