// The only collectives of a partitioned GPT layer on [2,2,2] are the SUMMA
// broadcasts of its six matmuls and the row all-reduces of its two
// LayerNorms (sum of x and sum of squares each). Q, K and V share one SUMMA
// loop that broadcasts the LayerNorm output's panel once per step beside
// the three weight panels (4 broadcasts); the output projection and the two
// MLP matmuls have a row and a column broadcast each (6): 10 per layer.
// Without the sharing (fuse-shared=false) each matmul has its own loop: 12.
// RUN: summa-opt %summa_src/examples/gpt_layer.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition --summa-expand-matmul | FileCheck %s
// RUN: summa-opt %summa_src/examples/gpt_layer.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition --summa-expand-matmul | grep -c "summa.broadcast" | FileCheck %s --check-prefix=BCAST
// RUN: summa-opt %summa_src/examples/gpt_layer.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition --summa-expand-matmul | grep -c "summa.all_reduce" | FileCheck %s --check-prefix=AR
// RUN: summa-opt %summa_src/examples/gpt_layer.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition --summa-expand-matmul="fuse-shared=false" | grep -c "summa.broadcast" | FileCheck %s --check-prefix=UNFUSED
// RUN: summa-opt %summa_src/examples/gpt_layer.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition --summa-expand-matmul | FileCheck %s --check-prefix=NONE
// RUN: summa-opt %summa_src/examples/gpt.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition --summa-expand-matmul | grep -c "summa.broadcast" | FileCheck %s --check-prefix=BCAST2
// RUN: summa-opt %summa_src/examples/gpt.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition --summa-expand-matmul | grep -c "summa.all_reduce" | FileCheck %s --check-prefix=AR2

// RUN: summa-opt %summa_src/examples/fixtures/gpt2_block_jax.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition --summa-expand-matmul | grep -c "summa.broadcast" | FileCheck %s --check-prefix=BCAST
// RUN: summa-opt %summa_src/examples/fixtures/gpt2_block_jax.mlir --summa-assign-layouts="grid=2,2,2" --summa-partition --summa-expand-matmul | grep -c "summa.all_reduce" | FileCheck %s --check-prefix=AR
// The same for the block exported from JAX (examples/fixtures).
// Counts match whole lines ({{^}}10{{$}}), so that 110 is not 10.

// BCAST: {{^}}10{{$}}
// UNFUSED: {{^}}12{{$}}
// AR: {{^}}4{{$}}
// NONE-LABEL: func.func @gpt_layer
// NONE-NOT: summa.reduce
// NONE-NOT: summa.all_gather
// NONE-NOT: summa.reduce_scatter
// Two layers and a final LayerNorm.
// BCAST2: {{^}}20{{$}}
// AR2: {{^}}10{{$}}

// CHECK-LABEL: func.func @gpt_layer
// CHECK-COUNT-2: summa.all_reduce %{{.*}} on @grid axes = [col] kind = sum : tensor<8xf32> -> tensor<8xf32>
// CHECK: tensor.expand_shape {{.*}} output_shape [1, 8, 2, 8] : tensor<8x16xf32> into tensor<1x8x2x8xf32>
// CHECK: tensor.collapse_shape {{.*}} : tensor<1x8x2x8xf32> into tensor<8x16xf32>
// CHECK-COUNT-2: summa.all_reduce %{{.*}} on @grid axes = [col] kind = sum : tensor<8xf32> -> tensor<8xf32>
