// REQUIRES: gpu
// Compiled examples run on the GPU and match their unpartitioned reference
// (host code in f64, sharing no code with the kernels: a planted kernel bug
// fails the check): [1,1,1] through NCCL and cuBLAS, and [2,2,1]
// and [2,2,2] as 4 and 8 processes sharing the GPU in the one-GPU test mode
// (SUMMA_GPU_COLLECTIVES=mpi). scripts/gpu-check.sh runs more.
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=1,1,1 --target=cuda -o %t.mlp.111
// RUN: %mpirun -np 1 %t.mlp.111 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 --target=cuda -o %t.mlp.221
// RUN: %mpirun -np 4 -x SUMMA_GPU_COLLECTIVES=mpi %t.mlp.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=1,1,1 --target=cuda -o %t.layer.111
// RUN: %mpirun -np 1 %t.layer.111 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,2 --target=cuda --overlap -o %t.layer.222
// RUN: %mpirun -np 8 -x SUMMA_GPU_COLLECTIVES=mpi %t.layer.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_loss.mlir --grid=2,2,1 --target=cuda -o %t.loss.221
// RUN: %mpirun -np 4 -x SUMMA_GPU_COLLECTIVES=mpi %t.loss.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_train_step.mlir --grid=2,2,1 --target=cuda -o %t.sgd.221
// RUN: %mpirun -np 4 -x SUMMA_GPU_COLLECTIVES=mpi %t.sgd.221 --check --steps 2 | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_block_jax.mlir --grid=1,1,1 --target=cuda -o %t.jax.111
// RUN: %mpirun -np 1 %t.jax.111 --check | FileCheck %s
// RUN: %python %summa_src/examples/generate.py layer --dtype bf16 -o %t.bf16.mlir
// RUN: summa-compile %t.bf16.mlir --grid=2,2,1 --target=cuda -o %t.bf16.221
// RUN: %mpirun -np 4 -x SUMMA_GPU_COLLECTIVES=mpi %t.bf16.221 --check | FileCheck %s

// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 --target=cuda --test-plant-kernel-bug -o %t.mlp.bug
// RUN: not %mpirun -np 4 -x SUMMA_GPU_COLLECTIVES=mpi %t.mlp.bug --check | FileCheck %s --check-prefix=BUG
// BUG: check: FAIL output

// CHECK: check: PASS
