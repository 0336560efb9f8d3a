# -*- Python -*-
# lit configuration of the summa regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "SUMMA"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.summa_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.txt", "lit.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%summa_src", config.summa_src_root))
# Multi-rank runs oversubscribe the machine: one runs at a time. Each
# mpiexec holds a lock while it runs (flock, util-linux), not the whole test,
# so that one test's compiles overlap another's run: a test directory's
# compiles and runs no longer wait for each other.
mpirun = config.mpiexec or "mpirun"
mpi_lock = os.path.join(config.summa_obj_root, "test", "mpiexec.lock")
os.makedirs(os.path.dirname(mpi_lock), exist_ok=True)
mpirun_one_at_a_time = "flock %s %s" % (mpi_lock, mpirun)
config.substitutions.append(
    ("%mpirun", mpirun_one_at_a_time + " --oversubscribe --allow-run-as-root")
)
config.environment["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
# summa-run and summa-plan --calibrate launch with the same mpiexec.
config.environment["SUMMA_MPIRUN"] = mpirun_one_at_a_time

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.summa_tools_dir, config.llvm_tools_dir]
tools = ["summa-opt", "summa-compile", "summa-plan", "summa-run", "summa-ckpt"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)


import sys
config.substitutions.append(("%python", sys.executable))

# The host's architecture (the CPU runtime's BLAS kernel choice is x86-64's).
import platform
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")

# --target=cuda: compiling needs the GPU backend; running needs a device.
import subprocess
# CI (scripts/test.sh on a machine with nvcc) sets SUMMA_REQUIRE_CUDA_BACKEND=1:
# the --target=cuda compile tests (cuda-backend) must then run, not be
# reported unsupported because the build lost its GPU backend.
if os.environ.get("SUMMA_REQUIRE_CUDA_BACKEND") == "1" and not config.summa_cuda_backend:
    lit_config.fatal("SUMMA_REQUIRE_CUDA_BACKEND=1 but this build has no GPU "
                     "backend (libsumma_runtime_cuda.so): configure with "
                     "-DSUMMA_ENABLE_GPU=ON")
if config.summa_cuda_backend:
    config.available_features.add("cuda-backend")
    # The query links what libsumma_runtime_cuda.so loads: if it does not
    # run, the GPU tests would be skipped on a machine that has a GPU, so
    # that is an error, not "no device".
    devices = 0
    if config.summa_device_query and os.path.exists(config.summa_device_query):
        try:
            out = subprocess.run([config.summa_device_query],
                                 capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as error:
            lit_config.fatal("%s did not run: %s" %
                             (config.summa_device_query, error))
        first = out.stdout.strip().splitlines()[:1]
        if out.returncode != 0 or not first or not first[0].isdigit():
            lit_config.fatal("%s did not run (exit %d): %s" %
                             (config.summa_device_query, out.returncode,
                              (out.stdout + out.stderr).strip()))
        devices = int(first[0])
    if devices > 0:
        config.available_features.add("gpu")
