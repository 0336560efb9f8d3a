#!/usr/bin/env python3
"""The README's "Layout of the repository" section, made from the tree.

usage: scripts/repo-layout.py [--check | --write]

LAYOUT below says what each folder holds. The script compares it with the
folders git tracks: every tracked folder must be described, by its own entry
or by an entry marked as covering its subfolders, and every described folder
must exist. It then renders the section between the README's
`<!-- layout:begin -->` and `<!-- layout:end -->` markers:
  --check  (default) exits 1 if the tree and LAYOUT disagree or the README
           section differs from the rendering (ctest: summa.docs.readme_layout)
  --write  rewrites the README section (after moving a folder, describe it
           here and run this)
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
BEGIN, END = "<!-- layout:begin -->", "<!-- layout:end -->"

# (folder, covers its subfolders, what it holds)
LAYOUT = [
    ("include/summa", False, "public headers; InitAllSumma.h: what every tool registers"),
    ("include/summa/Dialect/Summa", True, "ODS: dialect, ops, layout attribute, layout-rule interface, passes"),
    ("include/summa/Dialect/TMTensor", True, "ODS: the tm_tensor ops of torch-mlir's exports that summa reads"),
    ("include/summa/Transforms", False, "passes on linalg, before and after partitioning (tablegen)"),
    ("include/summa/Conversion", False, "conversion passes: the import, collectives and GEMMs to runtime calls (tablegen)"),
    ("include/summa/Codegen", False, "code generation passes of the CPU and GPU targets (tablegen)"),
    ("include/summa/Pipelines", False, "the pipelines every tool runs, with typed options"),
    ("include/summa/Driver", False, "the compiler driver's API (CompileOptions, compileModel)"),
    ("include/summa/Planner", False, "the grid planner's API (summa-plan, summa-compile --grid=auto)"),
    ("include/summa/Tools", False, "command-line options the tools share"),
    ("include/summa/Support", False, "Functions.h: the functions a module defines, a tool's entry; "
     "IndexingMaps.h: windowed loops; Sizes.h: element bytes, loop iterations"),
    ("lib/Dialect/Summa/IR", False, "the dialect: ops, verifiers, bufferization, layout rules"),
    ("lib/Dialect/Summa/Analysis", False, "what op rules and passes read of linalg ops: gathers, reduction combiners"),
    ("lib/Dialect/Summa/OpRules", False, "the op families' rules: layout, partition, derivative, planner split model"),
    ("lib/Dialect/Summa/Transforms", False, "passes on summa ops: assign layouts, partition, SUMMA loops, overlap"),
    ("lib/Dialect/TMTensor", True, "the tm_tensor ops: verifiers"),
    ("lib/Transforms", False, "passes on linalg: normalize, lift constants, differentiate; fuse elementwise, tile attention"),
    ("lib/Conversion/SummaToRuntime", False, "collectives and GEMMs to runtime calls; the runtime ABI"),
    ("lib/Conversion/TMTensorToLinalg", False, "the import: torch-mlir's tm_tensor ops as linalg"),
    ("lib/Codegen/CPU", False, "CPU code: dispatch functions, fast math, early deallocation, f64 reference"),
    ("lib/Codegen/GPU", False, "GPU code: kernel forms of local ops, host-code checks"),
    ("lib/Pipelines", False, "the pass pipelines (one definition)"),
    ("lib/Driver", False, "the compiler driver as a library: summa-compile's phases, generated main, machine code"),
    ("lib/Planner", False, "the planner: model description, cost model, report"),
    ("tools/summa-opt", False, "mlir-opt with summa's dialect, passes and pipelines"),
    ("tools/summa-compile", False, "a model file to a distributed binary or library"),
    ("tools/summa-plan", False, "chooses the grid"),
    ("runtime/include/summa/Runtime", False, "the C ABI (SummaRuntime.h, SummaModel.h, SummaRuntimeKernels.h)"),
    ("runtime/common", False, "the ABI core both backends share: grid state, errors, profile, element types"),
    ("runtime/tooling", False, "the harness of compiled programs: options, tensor files, data loader, checks, model object"),
    ("runtime/cpu", False, "libsumma_runtime.so: MPI collectives, OpenBLAS GEMMs"),
    ("runtime/calibrate", False, "summa-calibrate: measures the machine for summa-plan --calibrate"),
    ("runtime/ckpt", False, "summa-ckpt: sharded checkpoints to and from one whole safetensors file"),
    ("runtime/gpu", True, "libsumma_runtime_cuda.so: NCCL, cuBLAS(Lt), device pool; its tests"),
    ("runtime/test", True, "runtime tests: unit, driver, fatal paths, fault injection"),
    ("test", True, "lit + FileCheck: dialect, passes, pipelines, plans, end-to-end; "
     "test/lib: test-only passes"),
    ("fuzz", True, "the IR fuzz target, its dictionary and regression inputs"),
    ("examples", False, "example models"),
    ("examples/fixtures", False, "models exported from PyTorch and JAX, with weights"),
    ("examples/export", False, "the export scripts"),
    ("examples/data", False, "a text to train on"),
    ("examples/lib", False, "the compiled model and a generator as libraries, from Python"),
    ("python", False, "the Python package (pip install ./python; docs/Python.md)"),
    ("python/summa", False, "import summa: export, compile, train, load, save_pretrained; python -m summa"),
    ("python/tests", False, "the Python front door end to end against PyTorch's own loop"),
    ("bench", False, "benchmarks and measured results (RESULTS.md)"),
    ("docs", False, "design notes; Architecture.md follows one op through the tree"),
    ("docs/images", False, "the README's pictures, from real runs (bench/readme_pictures.sh)"),
    ("scripts", False, "setup, tests, format and document checks; summa-run, plot_run.py"),
]


def tracked_folders():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    if not files:
        raise SystemExit("repo-layout: git tracks no file here")
    folders = set()
    for f in files:
        parts = f.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folders.add("/".join(parts[:i]))
    return {f for f in folders if not f.startswith(".")}


def problems(folders):
    described = {path for path, _, _ in LAYOUT}
    deep = [path for path, covers, _ in LAYOUT if covers]
    out = [f"LAYOUT names `{path}`, which is not a tracked folder"
           for path in sorted(described - folders)]
    for folder in sorted(folders):
        if folder in described or any(folder.startswith(d + "/") for d in deep):
            continue
        # A folder on the way to described ones needs no entry of its own.
        if any(d.startswith(folder + "/") for d in described):
            continue
        out.append(f"the tracked folder `{folder}` is not described in "
                   f"scripts/repo-layout.py")
    return out


def render():
    width = max(len(path) for path, _, _ in LAYOUT) + 2
    lines = [BEGIN, "```"]
    for path, covers, what in LAYOUT:
        name = path + ("/..." if covers else "")
        lines.append(f"{name:<{width + 4}}{what}".rstrip())
    lines += ["```", END]
    return "\n".join(lines)


def main(argv):
    mode = argv[1] if len(argv) > 1 else "--check"
    if mode not in ("--check", "--write"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    found = problems(tracked_folders())
    for p in found:
        print("repo-layout: " + p, file=sys.stderr)
    with open(README, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        print(f"repo-layout: README.md has no {BEGIN} ... {END} section",
              file=sys.stderr)
        return 1
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    updated = head + render() + tail
    if mode == "--write":
        with open(README, "w", encoding="utf-8") as f:
            f.write(updated)
        return 1 if found else 0
    if updated != text:
        print("repo-layout: README.md's layout section is out of date; run "
              "scripts/repo-layout.py --write", file=sys.stderr)
        return 1
    if found:
        return 1
    print(f"repo-layout: {len(LAYOUT)} folders described, README up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
