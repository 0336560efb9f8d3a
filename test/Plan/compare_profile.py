#!/usr/bin/env python3
"""Compare summa-plan's prediction with the runtime's SUMMA_PROFILE counters.

    compare_profile.py PLAN.json PROFILE_PATTERN NRANKS

PLAN.json is `summa-plan --json --grid q,q,d` output; PROFILE_PATTERN is the
SUMMA_PROFILE path with "%r" where the rank goes (one file per rank). For
every rank the set of (op, group) entries must be the same as the plan's,
with equal count and bytes, and the GEMM count and flops must be equal.
Exit status 0 if all ranks agree, 1 otherwise (every mismatch is printed).
"""

import json
import sys


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    plan_path, pattern, nranks = argv[1], argv[2], int(argv[3])
    with open(plan_path) as f:
        plan = json.load(f)
    grids = [s for s in plan["strategies"] if s["kind"] == "grid"]
    if len(grids) != 1:
        print("error: the plan must hold exactly one grid (use --grid), has %d"
              % len(grids))
        return 1
    grid = grids[0]
    if not grid["feasible"]:
        print("error: the plan says %s is infeasible: %s"
              % (grid["name"], grid["reason"]))
        return 1
    if not grid["counted"]:
        print("error: the plan of %s is not counted on the IR" % grid["name"])
        return 1
    want = {(c["op"], c["group"]): (c["count"], c["bytes"])
            for c in grid["collectives"]}
    want_mm = (grid["matmul"]["count"], grid["matmul"]["flops"])
    if nranks != plan["ranks"]:
        print("error: %d profiles for a plan of %d ranks" % (nranks, plan["ranks"]))
        return 1

    errors = 0
    for rank in range(nranks):
        path = pattern.replace("%r", str(rank))
        with open(path) as f:
            prof = json.load(f)
        if prof["grid"] != grid["grid"]:
            print("rank %d: profile of grid %s, plan of %s"
                  % (rank, prof["grid"], grid["grid"]))
            errors += 1
        got = {(c["op"], c["group"]): (c["count"], c["bytes"])
               for c in prof["collectives"]}
        for key in sorted(set(want) | set(got)):
            if want.get(key) != got.get(key):
                print("rank %d: %s over %s: plan (count, bytes) = %s, runtime = %s"
                      % (rank, key[0], key[1], want.get(key), got.get(key)))
                errors += 1
        got_mm = (prof["matmul"]["count"], prof["matmul"]["flops"])
        if got_mm != want_mm:
            print("rank %d: GEMMs: plan (count, flops) = %s, runtime = %s"
                  % (rank, want_mm, got_mm))
            errors += 1
    if errors:
        print("FAIL: %d mismatches" % errors)
        return 1
    total = sum(b for _, b in want.values())
    print("exact: %s on %d ranks: %d collective entries, %d bytes, %d GEMMs "
          "per rank agree" % (grid["name"], nranks, len(want), total, want_mm[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
