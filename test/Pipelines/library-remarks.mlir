// Which local ops of a GPT layer go to a library call and which stay
// generated code, on both targets: attention's two batched products
// (Q·Kᵀ and P·V) to the runtime's batched GEMM (OpenBLAS / cuBLAS), the
// other local ops generated (the SUMMA steps' GEMMs are runtime calls
// already). On the CPU the attention is first tiled a head at a time
// (summa-tile-attention); the GPU has no fused attention and computes the
// scores of every head. Each remark is at the op's location in the input.
// RUN: summa-opt %summa_src/examples/gpt_layer.mlir --summa-pipeline="grid=2,2,1 remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,1 --emit=spmd-mlir -o %t.layer.mlir
// RUN: summa-opt %t.layer.mlir --summa-lower-to-cuda="format=isa remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,GPU
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=2,2,1 --remarks --emit=obj -o %t.o 2>&1 | FileCheck %s --check-prefixes=CHECK,CPU
// RUN: summa-opt %summa_src/examples/gpt_layer.mlir --summa-pipeline="grid=2,2,1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty

// GPU-NOT: remark: fused attention
// CPU: gpt_layer.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: fused attention: Q·Kᵀ, 5 ops between and this product tiled by one head and 8 query rows at a time
// CPU-NOT: remark: fused attention
// CHECK-COUNT-2: {{.*}}.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: library: linalg.generic to the runtime's batched GEMM
// CHECK-NOT: remark: library:
// CHECK-DAG: remark: generated: linalg.fill (not a contraction)
// CHECK-DAG: remark: generated: linalg.generic (elementwise)
// CHECK-DAG: remark: generated: linalg.generic (a reduction that is not a product summed over one dimension)
// QUIET-NOT: remark

// On the GPU, a reduction along rows long enough for it is generated as a
// block reduction (summa-block-reductions): in a GPT layer with 64 columns
// per rank, the two LayerNorms' means and variances and softmax's maximum
// and sum.
// RUN: %python %summa_src/examples/generate.py layer --batch 2 --seq 64 --hidden 128 --heads 2 --ffn 256 -o %t.wide.mlir
// RUN: summa-compile %t.wide.mlir --grid=2,2,1 --emit=spmd-mlir -o %t.wide.spmd.mlir
// RUN: summa-opt %t.wide.spmd.mlir --summa-lower-to-cuda="format=isa remarks" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCK
// BLOCK-COUNT-6: remark: block reduction: linalg.generic as one GPU block per output element
// BLOCK-NOT: remark: block reduction
