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
// REMARK-NOT: summa.all_reduce
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
