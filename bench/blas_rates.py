#!/usr/bin/env python3
"""GEMM rates of OpenBLAS's kernel sets on this machine, one thread, at the
GPT-2-small layer's shapes (512 tokens: batch 4 x sequence 128, hidden 768),
against torch.mm on the same shapes and thread count, in one run.

    bench/blas_rates.py [PYTHON_WITH_TORCH]

For each kernel set (the one the summa runtime chooses from the CPU's flags,
runtime/cpu/BlasLibrary.h, then OpenBLAS's generic and older ones) a child
process loads the system's OpenBLAS (libopenblas.so.0) through ctypes with
OPENBLAS_CORETYPE set, as summa's runtime does before it loads it, and times
cblas_sgemm (row-major, f32) on each shape; BLIS (libblis.so.4, Debian's
libblis4-pthread) the same where it is installed. Prints GFLOP/s per shape
and the ratio of each row's total time to OpenBLAS's own detection's;
torch.mm's row comes from PYTHON_WITH_TORCH when given.
Standard library only (and torch in the interpreter given).
"""

import ctypes
import json
import os
import subprocess
import sys
import time

# The CPU's flags and the kernel set summa's runtime chooses from them: the
# check test/Integration/blas-kernels.mlir runs.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test",
                                "Integration", "Inputs"))
from check_kernels import cpu, expected_core as summa_choice  # noqa: E402

# (m, n, k) of the layer's products: QKV, attention's output projection,
# the MLP's two products.
SHAPES = [(512, 2304, 768), (512, 768, 768), (512, 3072, 768), (512, 768, 3072)]
SECONDS = 0.4


def time_blas(library):
    """In the child: cblas_sgemm's seconds per call for each shape."""
    lib = ctypes.CDLL(library)
    if hasattr(lib, "openblas_get_corename"):
        lib.openblas_get_corename.restype = ctypes.c_char_p
        core = lib.openblas_get_corename().decode()
    else:  # BLIS
        lib.bli_arch_string.restype = ctypes.c_char_p
        core = lib.bli_arch_string(lib.bli_arch_query_id()).decode()
    f = ctypes.c_float
    result = {"core": core, "seconds": []}
    for m, n, k in SHAPES:
        a, b, c = (f * (m * k))(), (f * (k * n))(), (f * (m * n))()
        for i in range(0, m * k, 7):
            a[i] = 0.5
        for i in range(0, k * n, 5):
            b[i] = 0.25
        args = (101, 111, 111, m, n, k, f(1.0), a, k, b, n, f(0.0), c, n)
        lib.cblas_sgemm(*args)
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < SECONDS:
            lib.cblas_sgemm(*args)
            calls += 1
        result["seconds"].append((time.perf_counter() - start) / calls)
    print(json.dumps(result))


def time_torch():
    import torch
    torch.set_num_threads(1)
    seconds = []
    for m, n, k in SHAPES:
        a, b = torch.randn(m, k), torch.randn(k, n)
        torch.mm(a, b)
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < SECONDS:
            torch.mm(a, b)
            calls += 1
        seconds.append((time.perf_counter() - start) / calls)
    print(json.dumps({"core": "torch.mm", "seconds": seconds}))


def child(core, python=sys.executable, what=("--blas", "libopenblas.so.0")):
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
               MKL_NUM_THREADS="1", BLIS_NUM_THREADS="1")
    env.pop("OPENBLAS_CORETYPE", None)
    if core:
        env["OPENBLAS_CORETYPE"] = core
    out = subprocess.run([python, os.path.abspath(__file__), *what], env=env,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv):
    if argv[1:2] == ["--blas"]:
        return time_blas(argv[2])
    if argv[1:] == ["--torch"]:
        return time_torch()
    vendor, model, flags = cpu()
    chosen = summa_choice(vendor, flags)
    vectors = " ".join(sorted(f for f in flags if f in (
        "avx", "fma", "avx2", "avx512f", "avx512_bf16", "avx512_fp16", "amx_bf16")))
    print(f"CPU: {model} ({vendor}; {vectors}); one thread; f32 row-major")
    print(f"summa's runtime sets OPENBLAS_CORETYPE={chosen} from the flags"
          if chosen else "summa's runtime leaves the choice to OpenBLAS here")
    rows = [("OpenBLAS's own detection", child(None))]
    for core in ([chosen] if chosen else []) + ["Haswell", "Sandybridge", "Prescott"]:
        if core and core not in [r[1]["core"] for r in rows[1:]]:
            rows.append((f"OPENBLAS_CORETYPE={core}", child(core)))
    # BLIS (Debian's libblis4-pthread), where it is installed.
    try:
        ctypes.CDLL("libblis.so.4")
        rows.append(("BLIS (libblis.so.4)", child(None, what=("--blas", "libblis.so.4"))))
    except OSError:
        pass
    if len(argv) > 1:
        rows.append(("PyTorch", child(None, argv[1], ("--torch",))))
    base = sum(rows[0][1]["seconds"])
    header = "".join(f"{'%dx%dx%d' % s:>16}" for s in SHAPES)
    print(f"{'':34}{'kernels':>12}{header}   total vs own detection")
    for name, r in rows:
        rates = "".join(f"{2 * m * n * k / t / 1e9:>11.1f} GF/s"
                        for (m, n, k), t in zip(SHAPES, r["seconds"]))
        print(f"{name:34}{r['core'][:12]:>12}{rates}   {sum(r['seconds']) / base:.2f}x")


if __name__ == "__main__":
    main(sys.argv)
