// examples/mlp.mlir compiled for several grids and run on q·q·d ranks on
// the CPU; --check compares the gathered result with the unpartitioned
// function on rank 0.
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=1,1,1 -o %t.111
// RUN: %mpirun -np 1 %t.111 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 -o %t.221
// RUN: %mpirun -np 4 %t.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=1,1,2 -o %t.112
// RUN: %mpirun -np 2 %t.112 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,2 -o %t.222
// RUN: %mpirun -np 8 %t.222 --check --iters 3 | FileCheck %s --check-prefixes=CHECK,TIME
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=3,3,1 -o %t.331
// RUN: %mpirun -np 9 %t.331 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=1,1,4 -o %t.114
// RUN: %mpirun -np 4 %t.114 --check --seed 7 | FileCheck %s

// TIME: time: {{[0-9.]+}} ms/iter (3 iters, 8 ranks, grid [2,2,2])
// CHECK: check: PASS max_rel_err={{[0-9.e+-]+}}
