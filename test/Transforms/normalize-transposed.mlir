// RUN: summa-opt %s -split-input-file --summa-normalize | FileCheck %s

// nn.Linear: y = x · Wᵀ with W stored [out, in] and transposed first. The
// product reads W itself in the A·Bᵀ form; the transpose (a copy of the
// whole weight per call) goes.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[BT:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X:.*]]: tensor<8x4xf32>, %[[W:.*]]: tensor<6x4xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#[[A]], #[[BT]], #[[C]]] ins(%[[X]], %[[W]] : tensor<8x4xf32>, tensor<6x4xf32>)
func.func @linear(%x: tensor<8x4xf32>, %w: tensor<6x4xf32>) -> tensor<8x6xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %t = linalg.transpose ins(%w : tensor<6x4xf32>) outs(%e : tensor<4x6xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<8x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<8x6xf32>) -> tensor<8x6xf32>
  %y = linalg.matmul ins(%x, %t : tensor<8x4xf32>, tensor<4x6xf32>) outs(%f : tensor<8x6xf32>) -> tensor<8x6xf32>
  return %y : tensor<8x6xf32>
}

// -----

// The input gradient of such a layer, dx = dy · (Wᵀ)ᵀ: the A·Bᵀ product of
// the transposed weight is the A·B product of the weight. A transpose that
// something else reads stays for it.
// CHECK-LABEL: func.func @input_gradient
// CHECK-SAME: (%[[DY:.*]]: tensor<8x6xf32>, %[[W:.*]]: tensor<6x4xf32>)
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: %[[DX:.*]] = linalg.matmul ins(%[[DY]], %[[W]] : tensor<8x6xf32>, tensor<6x4xf32>)
// CHECK: return %[[DX]], %[[T]]
func.func @input_gradient(%dy: tensor<8x6xf32>, %w: tensor<6x4xf32>) -> (tensor<8x4xf32>, tensor<4x6xf32>) {
  %e = tensor.empty() : tensor<4x6xf32>
  %t = linalg.transpose ins(%w : tensor<6x4xf32>) outs(%e : tensor<4x6xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<8x4xf32>) -> tensor<8x4xf32>
  %dx = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%dy, %t : tensor<8x6xf32>, tensor<4x6xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %dx, %t : tensor<8x4xf32>, tensor<4x6xf32>
}

// -----

// A transposed lhs whose fold would leave the SUMMA forms (Aᵀ·Bᵀ) is kept.
// CHECK-LABEL: func.func @both_transposed
// CHECK: linalg.transpose
// CHECK: linalg.matmul
func.func @both_transposed(%a: tensor<4x8xf32>, %b: tensor<6x4xf32>) -> tensor<8x6xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %at = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<8x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<8x6xf32>) -> tensor<8x6xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%at, %b : tensor<8x4xf32>, tensor<6x4xf32>) outs(%f : tensor<8x6xf32>) -> tensor<8x6xf32>
  return %y : tensor<8x6xf32>
}

// -----

// Inputs a body never reads go before anything else (a derived step's
// adjoint generics carry the operands of the op they differentiate).
// CHECK-LABEL: func.func @unused_input
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<8xf32>)
func.func @unused_input(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// torch-mlir's projection of a 3-D activation through a view it cannot
// collapse (Llama's o_proj after the heads' transpose): the [out, in]
// weight transposed, repeated over the batch, then a batch_matmul. The
// product reads the weight itself (the batch becomes part of M): one GEMM
// of all the tokens, no copy of the weight per batch element.
// CHECK-LABEL: func.func @repeated_weight
// CHECK-SAME: (%[[X:.*]]: tensor<2x8x16xf32>, %[[W:.*]]: tensor<12x16xf32>)
// CHECK: %[[X2:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x8x16xf32> into tensor<16x16xf32>
// CHECK: %[[Y:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[X2]], %[[W]] : tensor<16x16xf32>, tensor<12x16xf32>)
// CHECK: tensor.expand_shape %[[Y]] {{\[}}[0, 1], [2]] output_shape [2, 8, 12] : tensor<16x12xf32> into tensor<2x8x12xf32>
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.batch_matmul
func.func @repeated_weight(%x: tensor<2x8x16xf32>, %w: tensor<12x16xf32>) -> tensor<2x8x12xf32> {
  %te = tensor.empty() : tensor<16x12xf32>
  %t = linalg.transpose ins(%w : tensor<12x16xf32>) outs(%te : tensor<16x12xf32>) permutation = [1, 0]
  %be = tensor.empty() : tensor<2x16x12xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%t : tensor<16x12xf32>) outs(%be : tensor<2x16x12xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x16x12xf32>
  %zero = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<2x8x12xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<2x8x12xf32>) -> tensor<2x8x12xf32>
  %y = linalg.batch_matmul ins(%x, %b : tensor<2x8x16xf32>, tensor<2x16x12xf32>) outs(%f : tensor<2x8x12xf32>) -> tensor<2x8x12xf32>
  return %y : tensor<2x8x12xf32>
}
