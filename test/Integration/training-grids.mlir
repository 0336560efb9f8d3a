// Training steps (forward, MSE loss, backward op by op, SGD or Adam) on the
// grids of the 2.5D design: three steps each (updated weights and moments
// fed back), then loss, every gradient and every updated parameter are
// compared with the unpartitioned step, and every depth replica of every
// output must be bit-identical.
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=1,1,1 -o %t.mlp.111
// RUN: %mpirun -np 1 %t.mlp.111 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=2,2,1 -o %t.mlp.221
// RUN: %mpirun -np 4 %t.mlp.221 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=1,1,4 -o %t.mlp.114
// RUN: %mpirun -np 4 %t.mlp.114 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=2,2,2 -o %t.mlp.222
// RUN: %mpirun -np 8 %t.mlp.222 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_train_adam.mlir --grid=2,2,2 -o %t.adam.222
// RUN: %mpirun -np 8 %t.adam.222 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_train_adam.mlir --grid=1,1,4 -o %t.adam.114
// RUN: %mpirun -np 4 %t.adam.114 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=1,1,1 -o %t.gpt.111
// RUN: %mpirun -np 1 %t.gpt.111 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=2,2,1 -o %t.gpt.221
// RUN: %mpirun -np 4 %t.gpt.221 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=1,1,4 -o %t.gpt.114
// RUN: %mpirun -np 4 %t.gpt.114 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=2,2,2 -o %t.gpt.222
// RUN: %mpirun -np 8 %t.gpt.222 --check --steps 3 --exact-replicas | FileCheck %s

// CHECK-NOT: DIFFER
// CHECK-NOT: FAIL
// CHECK: check: PASS max_rel_err={{[0-9.e+-]+}}
