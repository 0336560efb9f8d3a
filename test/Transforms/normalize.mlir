// RUN: summa-opt %s --summa-normalize | FileCheck %s
// RUN: summa-opt %s --summa-normalize --summa-assign-layouts="grid=2,2,1" --summa-partition="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// torch-mlir's attention scores: [batch, heads] collapsed into one
// dimension around a linalg.batch_matmul. summa-normalize writes the
// product as a generic over [batch, heads, i, j, d] with no reshape, so
// that the batch keeps its split over [depth, row] and the heads theirs
// over [col]: the product is local, nothing is gathered.
// CHECK-LABEL: func.func @scores
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: linalg.batch_matmul
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>)
// CHECK-NOT: tensor.expand_shape
// CHECK: return {{.*}} : tensor<4x4x8x8xf32>
// REMARK-NOT: redistribution
// REMARK-NOT: reduces over a dimension
// REMARK: remark: 2.5D SUMMA matmul:
// REMARK: remark: 2.5D SUMMA matmul A·Bᵀ
// REMARK: remark: 2.5D SUMMA matmul Aᵀ·B
// REMARK: remark: 2.5D SUMMA matmul:
// REMARK: remark: 2.5D SUMMA matmul Aᵀ·B
// REMARK-NOT: redistribution
func.func @scores(%x: tensor<4x8x32xf32> {summa.role = "activation"}, %y: tensor<4x8x32xf32> {summa.role = "activation"}) -> tensor<4x4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %xq = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [4, 8, 4, 8] : tensor<4x8x32xf32> into tensor<4x8x4x8xf32>
  %yk = tensor.expand_shape %y [[0], [1], [2, 3]] output_shape [4, 8, 4, 8] : tensor<4x8x32xf32> into tensor<4x8x4x8xf32>
  %e = tensor.empty() : tensor<4x4x8x8xf32>
  %q = linalg.transpose ins(%xq : tensor<4x8x4x8xf32>) outs(%e : tensor<4x4x8x8xf32>) permutation = [0, 2, 1, 3]
  %kt = linalg.transpose ins(%yk : tensor<4x8x4x8xf32>) outs(%e : tensor<4x4x8x8xf32>) permutation = [0, 2, 3, 1]
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<4x4x8x8xf32> into tensor<16x8x8xf32>
  %kc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<4x4x8x8xf32> into tensor<16x8x8xf32>
  %e3 = tensor.empty() : tensor<16x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e3 : tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
  %s = linalg.batch_matmul ins(%qc, %kc : tensor<16x8x8xf32>, tensor<16x8x8xf32>) outs(%f : tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
  %r = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [4, 4, 8, 8] : tensor<16x8x8xf32> into tensor<4x4x8x8xf32>
  return %r : tensor<4x4x8x8xf32>
}

// -----

// Linear layers keep their 2-D linalg.matmul and its reshapes.
// CHECK-LABEL: func.func @linear
// CHECK: tensor.collapse_shape
// CHECK: linalg.matmul
func.func @linear(%x: tensor<4x8x16xf32>, %w: tensor<16x16xf32>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %xc = tensor.collapse_shape %x [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
  %e = tensor.empty() : tensor<32x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %y = linalg.matmul ins(%xc, %w : tensor<32x16xf32>, tensor<16x16xf32>) outs(%f : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %y : tensor<32x16xf32>
}

// -----

// JAX's backward products are generics with contraction maps: the input
// gradient dY·Wᵀ and the weight gradient (computed as dYᵀ·X) become
// linalg.matmul in the A·Bᵀ and Aᵀ·B forms that SUMMA runs.
// CHECK-LABEL: func.func @jax_backward
// CHECK: linalg.matmul indexing_maps = [#[[$A:.*]], #[[$BT:.*]], #[[$C:.*]]]
// CHECK: linalg.matmul indexing_maps = [#[[$AT:.*]], #[[$B:.*]], #[[$C]]]
// CHECK-NOT: linalg.generic
#mk = affine_map<(d0, d1, d2) -> (d0, d2)>
#nk = affine_map<(d0, d1, d2) -> (d1, d2)>
#km = affine_map<(d0, d1, d2) -> (d2, d0)>
#kn = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @jax_backward(%dy: tensor<16x8xf32>, %w: tensor<4x8xf32> {summa.role = "weight"}, %x: tensor<16x4xf32>) -> (tensor<16x4xf32>, tensor<8x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<16x4xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x4xf32>) -> tensor<16x4xf32>
  %dx = linalg.generic {indexing_maps = [#mk, #nk, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dy, %w : tensor<16x8xf32>, tensor<4x8xf32>) outs(%f1 : tensor<16x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<16x4xf32>
  %e2 = tensor.empty() : tensor<8x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %dwt = linalg.generic {indexing_maps = [#km, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dy, %x : tensor<16x8xf32>, tensor<16x4xf32>) outs(%f2 : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %dx, %dwt : tensor<16x4xf32>, tensor<8x4xf32>
}

// -----

// A product of a 3-D activation [batch, seq, hidden] with a weight, as JAX
// writes it: the batch and sequence dimensions collapse into the rows of a
// linalg.matmul.
// CHECK-LABEL: func.func @jax_3d_linear
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
// CHECK: linalg.matmul
// CHECK: tensor.expand_shape {{.*}} : tensor<32x24xf32> into tensor<4x8x24xf32>
#x3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#w2 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#y3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @jax_3d_linear(%x: tensor<4x8x16xf32>, %w: tensor<16x24xf32>) -> tensor<4x8x24xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x24xf32>) -> tensor<4x8x24xf32>
  %y = linalg.generic {indexing_maps = [#x3, #w2, #y3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x8x16xf32>, tensor<16x24xf32>) outs(%f : tensor<4x8x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x8x24xf32>
  return %y : tensor<4x8x24xf32>
}

// -----

// A weight gradient computed transposed and then transposed back (JAX):
// the product with its operands swapped, in the weight's own layout.
// CHECK-LABEL: func.func @jax_weight_gradient
// CHECK: %[[G:.*]] = linalg.matmul indexing_maps = {{.*}} ins(%arg1, %arg0 : tensor<16x4xf32>, tensor<16x8xf32>) {{.*}} -> tensor<4x8xf32>
// CHECK-NOT: linalg.generic
// CHECK: return %[[G]]
#km2 = affine_map<(d0, d1, d2) -> (d2, d0)>
#kn2 = affine_map<(d0, d1, d2) -> (d2, d1)>
#mn2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#t0 = affine_map<(d0, d1) -> (d1, d0)>
#t1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @jax_weight_gradient(%dy: tensor<16x8xf32>, %x: tensor<16x4xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<8x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %dwt = linalg.generic {indexing_maps = [#km2, #kn2, #mn2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%dy, %x : tensor<16x8xf32>, tensor<16x4xf32>) outs(%f2 : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  %e3 = tensor.empty() : tensor<4x8xf32>
  %dw = linalg.generic {indexing_maps = [#t0, #t1], iterator_types = ["parallel", "parallel"]}
      ins(%dwt : tensor<8x4xf32>) outs(%e3 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  return %dw : tensor<4x8xf32>
}

