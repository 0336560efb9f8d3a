# The Python environment of the front door's test (python/tests/): the
# pinned torch, torch-mlir and transformers wheels of
# examples/export/requirements-torch.txt from PyPI in a virtual environment
# cached under ~/.cache/summa (one per version of that file; several GB,
# installed once), with the summa package of this tree installed into it
# (`pip install ./python`) on every call. Sourced by scripts/test.sh after
# common.sh.

# Sets SUMMA_PYTHON_ENV. Returns 1, having said why, only where PyPI cannot
# be reached and the environment is not there yet; any other failure exits.
summa_python_env() {
  local req="$SUMMA_ROOT/examples/export/requirements-torch.txt"
  local key
  key=$(sha256sum "$req" | cut -c1-12)
  SUMMA_PYTHON_ENV=${SUMMA_PYTHON_ENV:-${XDG_CACHE_HOME:-$HOME/.cache}/summa/python-$key}
  if [ ! -f "$SUMMA_PYTHON_ENV/.complete" ]; then
    echo "summa: installing the pinned torch/torch-mlir/transformers wheels into $SUMMA_PYTHON_ENV (once)"
    rm -rf "$SUMMA_PYTHON_ENV"
    python3 -m venv "$SUMMA_PYTHON_ENV"
    if ! "$SUMMA_PYTHON_ENV/bin/pip" install -q --no-cache-dir -r "$req"; then
      if ! "$SUMMA_PYTHON_ENV/bin/pip" download -q --no-deps --no-cache-dir \
        -d "$SUMMA_PYTHON_ENV/probe" "safetensors==0.8.0" >/dev/null 2>&1; then
        echo "summa: PyPI cannot be reached: the Python front door's test (python/tests/roundtrip.py) is SKIPPED"
        rm -rf "$SUMMA_PYTHON_ENV"
        return 1
      fi
      echo "summa: error: pip could not install $req although PyPI can be reached" >&2
      exit 1
    fi
    touch "$SUMMA_PYTHON_ENV/.complete"
  fi
  # The package as this tree has it (no build isolation: the environment's
  # own setuptools builds it, nothing is downloaded).
  "$SUMMA_PYTHON_ENV/bin/pip" install -q --no-deps --no-build-isolation --force-reinstall \
    "$SUMMA_ROOT/python" >/dev/null
}
