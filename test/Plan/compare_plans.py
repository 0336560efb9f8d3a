#!/usr/bin/env python3
"""Compare two summa-plan --json outputs: one counted on the IR of a model,
one from --describe of the same model.

    compare_plans.py IR.json DESCRIBED.json

Every strategy (grids, 1D, DP) must agree on feasibility and, where
feasible, on the collectives (op, group, group size, count, bytes), the
GEMMs (count, flops), the memory per rank (parameters, activations, peak
intermediates, panels) and the predicted seconds; the model summaries must
agree on their sizes. A grid --describe does not model (one the model does
not divide evenly: its reason says "not modelled") is left out, and the best
strategies are compared among the others. Exit status 0 if they agree, 1
otherwise.
"""

import json
import math
import sys

MODEL_KEYS = ("tokens", "hidden", "batch", "seq", "vocab", "matmuls", "weight_matrices",
              "layers", "parameters", "flops", "element_bytes")
MEMORY_KEYS = ("parameters", "activations", "results", "peak_intermediates",
               "panels")


def collectives(s):
    return [(c["op"], c["group"], c["group_size"], c["count"], c["bytes"], c["link"])
            for c in s["collectives"]]


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        ir = json.load(f)
    with open(argv[2]) as f:
        described = json.load(f)
    errors = []
    for key in MODEL_KEYS:
        u, v = ir["model"][key], described["model"][key]
        if key == "flops" and math.isclose(u, v, rel_tol=1e-12):
            continue  # a double: summed per matmul against one product
        if u != v:
            errors.append("model %s: IR %s, described %s"
                          % (key, ir["model"][key], described["model"][key]))
    a = {s["name"]: s for s in ir["strategies"]}
    b = {s["name"]: s for s in described["strategies"]}
    if list(a) != list(b):
        errors.append("strategies: IR %s, described %s" % (list(a), list(b)))
    feasible = 0
    unmodelled = set()
    for name in a:
        if name not in b:
            continue
        x, y = a[name], b[name]
        if not y["feasible"] and "not modelled" in y.get("reason", ""):
            unmodelled.add(name)
            continue
        if x["feasible"] != y["feasible"]:
            errors.append("%s: feasible IR %s (%s), described %s (%s)"
                          % (name, x["feasible"], x.get("reason", ""),
                             y["feasible"], y.get("reason", "")))
            continue
        if not x["feasible"]:
            continue
        feasible += 1
        if collectives(x) != collectives(y):
            errors.append("%s: collectives IR %s, described %s"
                          % (name, collectives(x), collectives(y)))
        if x["matmul"] != y["matmul"]:
            errors.append("%s: GEMMs IR %s, described %s"
                          % (name, x["matmul"], y["matmul"]))
        for key in MEMORY_KEYS:
            if x["memory"][key] != y["memory"][key]:
                errors.append("%s: memory %s IR %d, described %d"
                              % (name, key, x["memory"][key], y["memory"][key]))
        for key in ("comm", "gemm", "local", "total"):
            u, v = x["seconds"][key], y["seconds"][key]
            if not math.isclose(u, v, rel_tol=1e-9, abs_tol=1e-18):
                errors.append("%s: seconds %s IR %g, described %g" % (name, key, u, v))
    def best(plan):
        # The plan's own choice where both model it, else the fastest grid
        # both model (the planner chooses among grids).
        if plan["best"] not in unmodelled:
            return plan["best"]
        totals = [(s["seconds"]["total"], s["name"]) for s in plan["strategies"]
                  if s["feasible"] and s["name"].startswith("[")
                  and s["name"] not in unmodelled]
        return min(totals)[1] if totals else None
    if best(ir) != best(described):
        errors.append("best: IR %s, described %s" % (best(ir), best(described)))
    for e in errors:
        print(e)
    if errors:
        print("FAIL: %d differences" % len(errors))
        return 1
    print("agree: %d ranks, %d strategies, %d feasible%s, best %s"
          % (ir["ranks"], len(a), feasible,
             " (%d not modelled)" % len(unmodelled) if unmodelled else "", best(ir)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
