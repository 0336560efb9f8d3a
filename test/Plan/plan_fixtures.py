#!/usr/bin/env python3
"""Run summa-plan on models and their derived training steps, and report
the 1D Megatron and data-parallel rows of each.

    plan_fixtures.py SUMMA_PLAN SUMMA_OPT RANKS TMPDIR MODEL.mlir...

For every model: summa-plan --ranks RANKS --json; then, where
summa-differentiate derives a training step from it (sgd-lr=0.01
params=floats), the same on the step's <name>_grad function. Prints one line
per plan ("<model>: 1D model, DP no: <reason>") and a summary line:
"planned N forward models and M training steps; K rows not modelled".
Exit status 0 unless a tool crashed or printed no JSON.
"""

import json
import os
import re
import subprocess
import sys


def plan(summa_plan, path, ranks, entry=None):
    args = [summa_plan, path, "--ranks", str(ranks), "--json"]
    if entry:
        args += ["--entry", entry]
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode not in (0, 2):
        return None, "summa-plan exited with %d: %s" % (run.returncode,
                                                      run.stderr.strip())
    try:
        return json.loads(run.stdout), None
    except json.JSONDecodeError as e:
        return None, "summa-plan printed no JSON: %s" % e


def rows(result):
    out = []
    for s in result["strategies"]:
        if s["kind"] not in ("1d", "dp"):
            continue
        status = "model" if s["feasible"] else "no: " + s["reason"]
        out.append("%s %s" % (s["name"], status))
    return out


def main(argv):
    if len(argv) < 6:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    summa_plan, summa_opt, ranks, tmp = argv[1:5]
    os.makedirs(tmp, exist_ok=True)
    forward = steps = not_modelled = 0
    failed = False
    for path in argv[5:]:
        name = os.path.basename(path)
        todo = [(name, path, None)]
        step = os.path.join(tmp, name.replace(".mlir", ".step.mlir"))
        derive = subprocess.run(
            [summa_opt, path, "--summa-differentiate=sgd-lr=0.01 params=floats",
             "-o", step], capture_output=True, text=True)
        if derive.returncode == 0:
            with open(step) as f:
                grad = re.search(r"func\.func (?:\w+ )?@(\w+_grad)\(", f.read())
            if grad:
                todo.append((name + " (step)", step, grad.group(1)))
        for label, file, entry in todo:
            result, error = plan(summa_plan, file, ranks, entry)
            if error:
                print("%s: %s" % (label, error))
                failed = True
                continue
            if entry:
                steps += 1
            else:
                forward += 1
            strategies = rows(result)
            not_modelled += sum("not modelled" in r for r in strategies)
            print("%s: %s" % (label, ", ".join(strategies)))
    print("planned %d forward models and %d training steps; %d rows not "
          "modelled" % (forward, steps, not_modelled))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
