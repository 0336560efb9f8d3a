// Exactness: for examples/mlp.mlir on five grids, the collectives (op, group,
// count, bytes) and GEMMs (count, flops) that summa-plan predicts equal the
// runtime's SUMMA_PROFILE counters of one call (--iters 0) on every rank.
// [1,1,q] grids communicate nothing: the comparison then checks that the
// runtime counted no collective either, and the GEMMs.
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=1,1,2 -o %t.112
// RUN: rm -f %t.112.prof.*.json
// RUN: env SUMMA_PROFILE=%t.112.prof.%%r.json %mpirun -np 2 %t.112 --iters 0
// RUN: summa-plan %summa_src/examples/mlp.mlir --ranks 2 --grid 1,1,2 --json > %t.112.plan.json
// RUN: %python %S/compare_profile.py %t.112.plan.json %t.112.prof.%%r.json 2 | FileCheck %s --check-prefix=G112
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 -o %t.221
// RUN: rm -f %t.221.prof.*.json
// RUN: env SUMMA_PROFILE=%t.221.prof.%%r.json %mpirun -np 4 %t.221 --iters 0
// RUN: summa-plan %summa_src/examples/mlp.mlir --ranks 4 --grid 2,2,1 --json > %t.221.plan.json
// RUN: %python %S/compare_profile.py %t.221.plan.json %t.221.prof.%%r.json 4 | FileCheck %s --check-prefix=G221
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=1,1,4 -o %t.114
// RUN: rm -f %t.114.prof.*.json
// RUN: env SUMMA_PROFILE=%t.114.prof.%%r.json %mpirun -np 4 %t.114 --iters 0
// RUN: summa-plan %summa_src/examples/mlp.mlir --ranks 4 --grid 1,1,4 --json > %t.114.plan.json
// RUN: %python %S/compare_profile.py %t.114.plan.json %t.114.prof.%%r.json 4 | FileCheck %s --check-prefix=G114
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,2 -o %t.222
// RUN: rm -f %t.222.prof.*.json
// RUN: env SUMMA_PROFILE=%t.222.prof.%%r.json %mpirun -np 8 %t.222 --iters 0
// RUN: summa-plan %summa_src/examples/mlp.mlir --ranks 8 --grid 2,2,2 --json > %t.222.plan.json
// RUN: %python %S/compare_profile.py %t.222.plan.json %t.222.prof.%%r.json 8 | FileCheck %s --check-prefix=G222
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=3,3,1 -o %t.331
// RUN: rm -f %t.331.prof.*.json
// RUN: env SUMMA_PROFILE=%t.331.prof.%%r.json %mpirun -np 9 %t.331 --iters 0
// RUN: summa-plan %summa_src/examples/mlp.mlir --ranks 9 --grid 3,3,1 --json > %t.331.plan.json
// RUN: %python %S/compare_profile.py %t.331.plan.json %t.331.prof.%%r.json 9 | FileCheck %s --check-prefix=G331

// G112: exact: [1,1,2] on 2 ranks:
// G221: exact: [2,2,1] on 4 ranks:
// G114: exact: [1,1,4] on 4 ranks:
// G222: exact: [2,2,2] on 8 ranks:
// G331: exact: [3,3,1] on 9 ranks:
