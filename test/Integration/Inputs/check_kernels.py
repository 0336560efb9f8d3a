#!/usr/bin/env python3
"""Check the BLAS kernel set the CPU runtime chose (runtime/cpu/BlasLibrary.h)
against this machine's CPU flags (/proc/cpuinfo), from the `-v` output of a
compiled program run as the machine comes (CHOSEN) and with
OPENBLAS_CORETYPE=Prescott (FORCED, stdout and stderr):

  * CHOSEN names kernels chosen from the CPU's flags that OpenBLAS picks
    itself on the CPUs it knows: Cooperlake with AVX512-BF16, SkylakeX with
    AVX-512 (F, VL, BW, DQ), Zen (AMD) or Haswell with AVX2 and FMA; on a
    CPU with none of these, OpenBLAS's own detection. No warning.
  * FORCED runs the 'Prescott' kernels (set by OPENBLAS_CORETYPE), and warns
    exactly when the CPU has AVX.

    check_kernels.py CHOSEN FORCED

Prints "kernels OK: ..." and exits 0, or what is wrong and exits 1.
"""

import re
import sys


def cpu():
    """The first CPU's vendor, model name and flags (/proc/cpuinfo)."""
    vendor, model, flags = "", "", set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            key = key.strip()
            if key == "vendor_id" and not vendor:
                vendor = value.strip()
            elif key == "model name" and not model:
                model = value.strip()
            elif key == "flags" and not flags:
                flags = set(value.split())
    return vendor, model, flags


def expected_core(vendor, flags):
    """The kernel set the runtime must choose from the CPU's flags
    (BlasLibrary.cpp's coreFromFlags, written again here as its check)."""
    avx512 = {"avx512f", "avx512vl", "avx512bw", "avx512dq"} <= flags
    if avx512 and "avx512_bf16" in flags:
        return "Cooperlake"
    if avx512:
        return "SkylakeX"
    if {"avx2", "fma"} <= flags:
        return "Zen" if vendor == "AuthenticAMD" else "Haswell"
    return None


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    chosen, forced = (open(p).read() for p in argv[1:])
    vendor, _, flags = cpu()
    errors = []
    line = re.search(r"summa: local products: .*kernels '([^']*)' \(([^)]*)\)", chosen)
    if not line:
        errors.append("no 'summa: local products' line naming the kernels in -v's output")
    else:
        core, how = line.groups()
        want = expected_core(vendor, flags)
        if want and (core != want or how != "the CPU's flags"):
            errors.append(f"kernels '{core}' ({how}); expected '{want}' (the CPU's flags)")
        if not want and how != "OpenBLAS's own detection":
            errors.append(f"kernels '{core}' ({how}) on a CPU without AVX2 and FMA")
    if "warning" in chosen:
        errors.append("a warning with the kernels summa chose")
    if "kernels 'Prescott' (OPENBLAS_CORETYPE)" not in forced:
        errors.append("OPENBLAS_CORETYPE=Prescott is not what runs")
    warned = "summa: warning: the BLAS runs kernels for narrower vectors" in forced
    if warned != ("avx" in flags):
        errors.append("the Prescott kernels on a CPU %s AVX: %s warning"
                      % ("with" if "avx" in flags else "without",
                         "a" if warned else "no"))
    for e in errors:
        print(e)
    if errors:
        return 1
    print("kernels OK: %s, forced Prescott %s" % (line.group(1), "warned" if warned else "silent"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
