// With summa-overlap (summa-compile --overlap: asynchronous broadcasts one
// step early, reduces completed one step late, two buffers per panel),
// every example still passes --check on the grids it passes on without:
// q = 1 (no collective in any SUMMA loop), q = 2 and q = 3, and q = 4 for a
// training step (a steady loop that carries panel and reduce tokens).
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=1,1,4 --overlap -o %t.mlp.114
// RUN: %mpirun -np 4 %t.mlp.114 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 --overlap -o %t.mlp.221
// RUN: %mpirun -np 4 %t.mlp.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=3,3,1 --overlap -o %t.mlp.331
// RUN: %mpirun -np 9 %t.mlp.331 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,2 --overlap -o %t.mlp.222
// RUN: %mpirun -np 8 %t.mlp.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_erf.mlir --grid=2,2,2 --overlap -o %t.erf.222
// RUN: %mpirun -np 8 %t.erf.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/attention.mlir --grid=2,2,2 --overlap -o %t.att.222
// RUN: %mpirun -np 8 %t.att.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,1 --overlap -o %t.layer.221
// RUN: %mpirun -np 4 %t.layer.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,2 --overlap -o %t.layer.222
// RUN: %mpirun -np 8 %t.layer.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt.mlir --grid=2,2,2 --overlap -o %t.gpt.222
// RUN: %mpirun -np 8 %t.gpt.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_block_jax.mlir --grid=2,2,2 --overlap -o %t.jax.222
// RUN: %mpirun -np 8 %t.jax.222 --check | FileCheck %s
// Training steps: --steps 3 checks the loss, every gradient and update of
// three chained steps; depth replicas must stay bit-identical.
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=2,2,2 --overlap -o %t.mtr.222
// RUN: %mpirun -np 8 %t.mtr.222 --check --steps 3 --exact-replicas | FileCheck %s --check-prefix=TRAIN
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=3,3,1 --overlap -o %t.mtr.331
// RUN: %mpirun -np 9 %t.mtr.331 --check --steps 3 | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=4,4,1 --overlap -o %t.mtr.441
// RUN: %mpirun -np 16 %t.mtr.441 --check --steps 3 | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_train_adam.mlir --grid=2,2,1 --overlap -o %t.adam.221
// RUN: %mpirun -np 4 %t.adam.221 --check --steps 3 | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=2,2,2 --overlap -o %t.gtr.222
// RUN: %mpirun -np 8 %t.gtr.222 --check --steps 3 --exact-replicas | FileCheck %s --check-prefix=TRAIN
// With panel reuse too.
// RUN: summa-compile %summa_src/examples/gpt_train_step.mlir --grid=2,2,1 --overlap --reuse-panels -o %t.gtr.reuse.221
// RUN: %mpirun -np 4 %t.gtr.reuse.221 --check --steps 3 | FileCheck %s

// CHECK: check: PASS
// TRAIN-DAG: replicas bit-identical
// TRAIN-DAG: check: PASS
