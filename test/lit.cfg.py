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
mpirun = config.mpiexec or "mpirun"
config.substitutions.append(
    ("%mpirun", mpirun + " --oversubscribe --allow-run-as-root")
)
config.environment["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
# summa-run launches with the same mpiexec.
config.environment["SUMMA_MPIRUN"] = mpirun

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.summa_tools_dir, config.llvm_tools_dir]
tools = ["summa-opt", "summa-compile", "summa-run"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Multi-rank runs oversubscribe the machine: run them one at a time.
lit_config.parallelism_groups["mpi"] = 1

import sys
config.substitutions.append(("%python", sys.executable))

# --target=cuda: compiling needs the GPU backend; running needs a device.
import subprocess
if config.summa_cuda_backend:
    config.available_features.add("cuda-backend")
    devices = 0
    if config.summa_device_query and os.path.exists(config.summa_device_query):
        try:
            out = subprocess.run([config.summa_device_query],
                                 capture_output=True, text=True, timeout=60)
            first = out.stdout.strip().splitlines()[:1]
            devices = int(first[0]) if first and first[0].isdigit() else 0
        except (OSError, subprocess.TimeoutExpired):
            devices = 0
    if devices > 0:
        config.available_features.add("gpu")
