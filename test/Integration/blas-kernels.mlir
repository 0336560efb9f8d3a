// The CPU runtime loads OpenBLAS itself, after setting its kernel set from
// the CPU's flags (runtime/cpu/BlasLibrary.h): -v names the kernels and how
// they were chosen, a kernel set narrower than the CPU's vectors (here
// forced with OPENBLAS_CORETYPE=Prescott) is a warning, and the results do
// not change. Inputs/check_kernels.py reads the CPU's flags from
// /proc/cpuinfo and checks the choice.
// REQUIRES: x86_64
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=1,1,1 -o %t
// RUN: %mpirun -np 1 %t -v --iters 0 --check > %t.chosen.txt 2>&1
// RUN: env OPENBLAS_CORETYPE=Prescott %mpirun -np 1 %t -v --iters 0 --check > %t.forced.txt 2>&1
// RUN: %python %S/Inputs/check_kernels.py %t.chosen.txt %t.forced.txt | FileCheck %s
// RUN: FileCheck %s --check-prefix=CHECKED < %t.forced.txt
// RUN: SUMMA_PROFILE=%t.profile %mpirun -np 1 %t --iters 0 && FileCheck %s --check-prefix=PROFILE < %t.profile.rank0.json

// CHECK: kernels OK:
// CHECKED: check: PASS
// PROFILE: "kernels":{"library":"{{[^"]+}}","config":"{{.*}}","core":"{{[A-Za-z0-9]+}}","chosen_by":"{{[^"]+}}","cpu":"{{.*}}","cpu_flags":"{{.*}}","narrower_than_cpu":false}
