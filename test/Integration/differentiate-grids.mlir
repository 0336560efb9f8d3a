// The training step derived by summa-differentiate from the forward loss
// function, partitioned, is checked against the HAND-WRITTEN step run
// unpartitioned (--reference-file): same loss, gradients and SGD updates
// over three steps, with bit-identical depth replicas.
// RUN: summa-opt %summa_src/examples/mlp_loss.mlir --summa-differentiate="sgd-lr=0.01" -o %t.mlp.mlir
// RUN: summa-compile %t.mlp.mlir --entry=mlp_loss_grad --reference-file=%summa_src/examples/mlp_train_step.mlir --grid=2,2,1 -o %t.mlp.221
// RUN: %mpirun -np 4 %t.mlp.221 --check --gradcheck --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %t.mlp.mlir --entry=mlp_loss_grad --reference-file=%summa_src/examples/mlp_train_step.mlir --grid=1,1,4 -o %t.mlp.114
// RUN: %mpirun -np 4 %t.mlp.114 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %t.mlp.mlir --entry=mlp_loss_grad --reference-file=%summa_src/examples/mlp_train_step.mlir --grid=2,2,2 -o %t.mlp.222
// RUN: %mpirun -np 8 %t.mlp.222 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-opt %summa_src/examples/gpt_loss.mlir --summa-differentiate="sgd-lr=0.01" -o %t.gpt.mlir
// RUN: summa-compile %t.gpt.mlir --entry=gpt_loss_grad --reference-file=%summa_src/examples/gpt_train_step.mlir --grid=1,1,1 -o %t.gpt.111
// RUN: %mpirun -np 1 %t.gpt.111 --check --gradcheck --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %t.gpt.mlir --entry=gpt_loss_grad --reference-file=%summa_src/examples/gpt_train_step.mlir --grid=2,2,1 -o %t.gpt.221
// RUN: %mpirun -np 4 %t.gpt.221 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %t.gpt.mlir --entry=gpt_loss_grad --reference-file=%summa_src/examples/gpt_train_step.mlir --grid=1,1,4 -o %t.gpt.114
// RUN: %mpirun -np 4 %t.gpt.114 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %t.gpt.mlir --entry=gpt_loss_grad --reference-file=%summa_src/examples/gpt_train_step.mlir --grid=2,2,2 -o %t.gpt.222
// RUN: %mpirun -np 8 %t.gpt.222 --check --steps 3 --exact-replicas | FileCheck %s
// A reference of another type is refused.
// RUN: not summa-compile %t.mlp.mlir --entry=mlp_loss_grad --reference-file=%summa_src/examples/mlp.mlir --grid=1,1,1 -o %t.bad 2>&1 | FileCheck %s --check-prefix=TYPE

// CHECK-NOT: DIFFER
// CHECK-NOT: FAIL
// CHECK: check: PASS max_rel_err={{[0-9.e+-]+}}
// TYPE: error: the reference function's type
