// The transformer examples compiled for the grids of the 2.5D design and
// run on q·q·d ranks; --check compares with the unpartitioned function.
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=1,1,1 -o %t.layer.111
// RUN: %mpirun -np 1 %t.layer.111 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,1 -o %t.layer.221
// RUN: %mpirun -np 4 %t.layer.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=1,1,4 -o %t.layer.114
// RUN: %mpirun -np 4 %t.layer.114 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,2 -o %t.layer.222
// RUN: %mpirun -np 8 %t.layer.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt.mlir --grid=1,1,1 -o %t.gpt.111
// RUN: %mpirun -np 1 %t.gpt.111 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt.mlir --grid=2,2,1 -o %t.gpt.221
// RUN: %mpirun -np 4 %t.gpt.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt.mlir --grid=1,1,4 -o %t.gpt.114
// RUN: %mpirun -np 4 %t.gpt.114 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/gpt.mlir --grid=2,2,2 -o %t.gpt.222
// RUN: %mpirun -np 8 %t.gpt.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/attention.mlir --grid=1,1,1 -o %t.att.111
// RUN: %mpirun -np 1 %t.att.111 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/attention.mlir --grid=2,2,1 -o %t.att.221
// RUN: %mpirun -np 4 %t.att.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/attention.mlir --grid=1,1,4 -o %t.att.114
// RUN: %mpirun -np 4 %t.att.114 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/attention.mlir --grid=2,2,2 -o %t.att.222
// RUN: %mpirun -np 8 %t.att.222 --check | FileCheck %s
// The named linalg.softmax form of the same attention.
// RUN: %python %summa_src/examples/generate.py attention --softmax named -o %t.att_named.mlir
// RUN: summa-compile %t.att_named.mlir --grid=2,2,1 -o %t.att_named.221
// RUN: %mpirun -np 4 %t.att_named.221 --check | FileCheck %s
// A GPT-2 block exported from JAX through StableHLO -> linalg (IREE's
// converter), unedited but for summa.role annotations.
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_block_jax.mlir --grid=2,2,2 -o %t.jax.222
// RUN: %mpirun -np 8 %t.jax.222 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/fixtures/gpt2_block_jax.mlir --grid=1,1,4 -o %t.jax.114
// RUN: %mpirun -np 4 %t.jax.114 --check | FileCheck %s
// GeLU through math.erf.
// RUN: summa-compile %summa_src/examples/mlp_erf.mlir --grid=1,1,1 -o %t.erf.111
// RUN: %mpirun -np 1 %t.erf.111 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_erf.mlir --grid=2,2,1 -o %t.erf.221
// RUN: %mpirun -np 4 %t.erf.221 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_erf.mlir --grid=1,1,4 -o %t.erf.114
// RUN: %mpirun -np 4 %t.erf.114 --check | FileCheck %s
// RUN: summa-compile %summa_src/examples/mlp_erf.mlir --grid=2,2,2 -o %t.erf.222
// RUN: %mpirun -np 8 %t.erf.222 --check | FileCheck %s
// A slice along an unsplit dimension.
// RUN: summa-compile %S/Inputs/slice.mlir --grid=2,2,2 -o %t.slice.222
// RUN: %mpirun -np 8 %t.slice.222 --check | FileCheck %s
// linalg.index of split dimensions sees global indices.
// RUN: summa-compile %S/Inputs/position.mlir --grid=2,2,2 -o %t.pos.222
// RUN: %mpirun -np 8 %t.pos.222 --check | FileCheck %s

// CHECK: check: PASS max_rel_err={{[0-9.e+-]+}}
// The backward of a linear layer (A·Bᵀ, Aᵀ·B SUMMA and the depth
// all-reduce of the weight gradient).
// RUN: summa-compile %S/Inputs/linear_backward.mlir --grid=2,2,2 -o %t.bwd.222
// RUN: %mpirun -np 8 %t.bwd.222 --check | FileCheck %s
// RUN: summa-compile %S/Inputs/linear_backward.mlir --grid=1,1,4 -o %t.bwd.114
// RUN: %mpirun -np 4 %t.bwd.114 --check | FileCheck %s
