// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" | FileCheck %s
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" --summa-partition | FileCheck %s --check-prefix=SPMD

// A function marked summa.weight_stationary (summa-derive-generation's
// decode step: one token per sequence) keeps every weight where it is laid
// out: the tokens take the weight's split of the contracted dimension and
// keep the batch over depth; each rank multiplies its blocks and the
// partial products are all-reduced over the contracted axes. No weight
// panel is broadcast, as SUMMA's A·B would every step.

// A·B (GPT-2's Conv1D weights [in, out]): the weight [[row], [col]], the
// tokens' hidden dimension over row, the result's columns over col, a
// partial sum over row, all-reduced. The product takes this form from its
// first visit: the result keeps the layout it gives (the function returns
// it so), not a SUMMA layout found first and relaid out after.
// CHECK-LABEL: func.func @stationary_ab
// CHECK-SAME: %arg1: tensor<64x32xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}row], [col]]>}
// CHECK-SAME: -> (tensor<4x32xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}depth], [col]]>})
// CHECK: linalg.matmul {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth], [col]]>]
// CHECK-NOT: summa.relayout
// SPMD-LABEL: func.func @stationary_ab
// SPMD-NOT: summa.broadcast
// SPMD: %[[P:.*]] = linalg.matmul ins(%{{.*}}, %arg1 : tensor<2x32xf32>, tensor<32x16xf32>)
// SPMD: %[[R:.*]] = summa.all_reduce %[[P]] on @grid axes = [row] kind = sum : tensor<2x16xf32> -> tensor<2x16xf32>
// SPMD: return %[[R]]
func.func @stationary_ab(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> attributes {summa.weight_stationary} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x32xf32>) outs(%z : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// A·Bᵀ (nn.Linear's weight [out, in]): the tokens keep their hidden
// dimension over col, the weight's; the result's columns take row.
// CHECK-LABEL: func.func @stationary_abt
// CHECK: linalg.matmul {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth], [row]]>]
// SPMD-LABEL: func.func @stationary_abt
// SPMD-NOT: summa.broadcast
// SPMD: %[[P:.*]] = linalg.matmul {{.*}}ins(%{{.*}}, %arg1 : tensor<2x32xf32>, tensor<16x32xf32>)
// SPMD: summa.all_reduce %[[P]] on @grid axes = [col] kind = sum : tensor<2x16xf32>
#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @stationary_abt(%x: tensor<4x64xf32>, %w: tensor<32x64xf32>) -> tensor<4x32xf32> attributes {summa.weight_stationary} {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %y = linalg.matmul indexing_maps = [#a, #bt, #c] ins(%x, %w : tensor<4x64xf32>, tensor<32x64xf32>) outs(%z : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// Without the mark, the same product is 2.5D SUMMA's.
// SPMD-LABEL: func.func @summa_ab
// SPMD: summa.matmul
func.func @summa_ab(%x: tensor<4x64xf32>, %w: tensor<64x32xf32>) -> tensor<4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x32xf32>) outs(%z : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
