#!/usr/bin/env python3
"""Check that panel reuse saves the broadcast bytes summa-plan predicts.

    compare_reuse.py PLAN.json WITHOUT_PATTERN WITH_PATTERN NRANKS

PLAN.json is `summa-plan --json --grid q,q,d --reuse-panels` (or
--memory-budget) output: its grid holds the broadcast bytes with reuse and,
under "without_panel_reuse", without. The patterns are SUMMA_PROFILE paths
("%r" for the rank) of one call of the program compiled without and with
--reuse-panels. On every rank, the broadcast bytes the runtime counted
without reuse minus those with reuse must equal the plan's difference.
"""

import json
import sys


def broadcast_bytes(path):
    with open(path) as f:
        prof = json.load(f)
    return sum(c["bytes"] for c in prof["collectives"] if c["op"] == "broadcast")


def main(argv):
    if len(argv) != 5:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    plan_path, without, with_, nranks = argv[1], argv[2], argv[3], int(argv[4])
    with open(plan_path) as f:
        plan = json.load(f)
    grids = [s for s in plan["strategies"] if s["kind"] == "grid"]
    if len(grids) != 1 or "without_panel_reuse" not in grids[0]:
        print("error: the plan must hold one grid planned with panel reuse")
        return 1
    grid = grids[0]
    planned_with = sum(c["bytes"] for c in grid["collectives"]
                       if c["op"] == "broadcast")
    planned_without = grid["without_panel_reuse"]["broadcast_bytes"]
    planned = planned_without - planned_with
    errors = 0
    for rank in range(nranks):
        a = broadcast_bytes(without.replace("%r", str(rank)))
        b = broadcast_bytes(with_.replace("%r", str(rank)))
        if (a, b) != (planned_without, planned_with):
            print("rank %d: broadcast bytes without / with reuse: runtime %d / %d, plan %d / %d"
                  % (rank, a, b, planned_without, planned_with))
            errors += 1
    if errors:
        return 1
    print("reuse exact: %s on %d ranks: broadcast bytes per rank %d -> %d (%d saved, as planned)"
          % (grid["name"], nranks, planned_without, planned_with, planned))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
