#!/usr/bin/env python3
"""Check that a machine file written by `summa-plan --calibrate` is well
formed: the format and version, what computed the local products
(`kernels`: the BLAS and its kernel set), one GEMM and one local entry per
number of ranks calibrated, every collective kind over every group size of
each run with more than one rank, positive rates. It does not judge the
numbers.

    check_machine.py MACHINE.json RANKS,RANKS,...

Prints "machine file OK: ..." and exits 0, or prints what is wrong and
exits 1.
"""

import json
import sys

OPS = ("broadcast", "reduce", "all_reduce", "all_gather", "reduce_scatter")


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        m = json.load(f)
    ranks = [int(r) for r in argv[2].split(",")]
    errors = []
    if m.get("format") != "summa-machine" or m.get("version") != 1:
        errors.append("format/version: %s %s" % (m.get("format"), m.get("version")))
    if "kernels '" not in m.get("kernels", ""):
        errors.append("kernels: %r names no kernel set" % m.get("kernels"))
    if sorted(g["ranks"] for g in m["gemm"]) != sorted(ranks):
        errors.append("gemm entries for ranks %s" % [g["ranks"] for g in m["gemm"]])
    if sorted(l["ranks"] for l in m["local"]) != sorted(ranks):
        errors.append("local entries for ranks %s" % [l["ranks"] for l in m["local"]])
    for g in m["gemm"]:
        if not g["flops_per_s"] > 0 or g["overhead_s"] < 0 or not g["samples"]:
            errors.append("gemm entry %s" % g)
    for l in m["local"]:
        for key in ("bytes_per_s", "stream_bytes_per_s", "one_rank_bytes_per_s",
                    "iterations_per_s", "strided_iterations_per_s", "cache_bytes_per_s"):
            if not l.get(key, 0) > 0:
                errors.append("local entry for %d ranks: %s" % (l["ranks"], key))
    groups = 0
    for r in ranks:
        if r < 2:
            continue
        sizes = {c["group_size"] for c in m["collectives"] if c["ranks"] == r}
        if not sizes or r not in sizes:
            errors.append("no collectives over the %d ranks of a run" % r)
        for size in sizes:
            ops = {c["op"] for c in m["collectives"]
                   if c["ranks"] == r and c["group_size"] == size}
            if set(OPS) != ops:
                errors.append("%d ranks, groups of %d: ops %s" % (r, size, sorted(ops)))
            groups += 1
    for c in m["collectives"]:
        if not c["bytes_per_s"] > 0 or c["alpha_s"] < 0 or not c["samples"]:
            errors.append("collective entry %s" % c)
    for e in errors:
        print(e)
    if errors:
        return 1
    print("machine file OK: %d GEMM, %d local, %d collective entries (%d group sizes)"
          % (len(m["gemm"]), len(m["local"]), len(m["collectives"]), groups))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
