"""Where summa's tools are, and running them with errors that say what
failed.

The tools are the repository's C++ build (`scripts/demo.sh` or
`scripts/test.sh` builds them into build/bin): summa-opt, summa-compile,
summa-plan, summa-run, summa-ckpt. They are found, in this order, in
`$SUMMA_BIN` (a folder holding them), `$SUMMA_BUILD_DIR/bin`, the build
folder of the repository this package was installed from (or is imported
from, with PYTHONPATH=python), and PATH.
"""

import os
import shutil
import subprocess

TOOLS = ("summa-opt", "summa-compile", "summa-plan", "summa-run", "summa-ckpt")


class SummaError(RuntimeError):
    """A step of summa failed: the message says which and why (a tool's own
    diagnostic, with its location, is part of it)."""


def _candidates():
    if os.environ.get("SUMMA_BIN"):
        yield os.environ["SUMMA_BIN"]
    if os.environ.get("SUMMA_BUILD_DIR"):
        yield os.path.join(os.environ["SUMMA_BUILD_DIR"], "bin")
    try:
        from . import _install  # written by setup.py

        yield os.path.join(_install.REPO, "build", "bin")
    except ImportError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(os.path.dirname(os.path.dirname(here)), "build", "bin")


def tool(name):
    """The path of summa tool `name`; SummaError naming where it looked."""
    looked = []
    for folder in _candidates():
        path = os.path.join(folder, name)
        if os.access(path, os.X_OK):
            return path
        looked.append(folder)
    found = shutil.which(name)
    if found:
        return found
    raise SummaError(
        f"summa: cannot find the tool {name} (looked in {', '.join(looked)} and PATH); "
        "build the repository with scripts/demo.sh or scripts/test.sh, or set SUMMA_BIN "
        "to the folder that holds it")


def run(argv, what, quiet=True, env=None):
    """Runs argv (argv[0] a tool name or a path) and returns its stdout;
    SummaError with `what` and the tool's output when it fails."""
    argv = [tool(argv[0]) if os.sep not in argv[0] else argv[0]] + [str(a) for a in argv[1:]]
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=env)
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.strip().splitlines()[-40:])
        raise SummaError(f"summa: {what} failed (exit status {proc.returncode}):\n"
                         f"  $ {' '.join(argv)}\n{tail}")
    if not quiet and proc.stdout:
        print(proc.stdout, end="")
    return proc.stdout
