// RUN: summa-opt %s --summa-normalize | FileCheck %s

// A linear layer of bf16 inputs into an f32 C, as torch-mlir writes one:
// the inputs are widened first (linalg.matmul's own casts), so that
// summa.matmul, its panels and the runtime's GEMM see one element type.
// CHECK-LABEL: func.func @bf16_into_f32
// CHECK-SAME: (%[[X:.*]]: tensor<16x8xbf16>, %[[W:.*]]: tensor<8x12xbf16>)
// CHECK: %[[XW:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<16x8xbf16>) outs(%{{.*}} : tensor<16x8xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: %[[WW:.*]] = linalg.generic {{.*}} ins(%[[W]] : tensor<8x12xbf16>) outs(%{{.*}} : tensor<8x12xf32>)
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: linalg.matmul ins(%[[XW]], %[[WW]] : tensor<16x8xf32>, tensor<8x12xf32>) outs(%{{.*}} : tensor<16x12xf32>)
func.func @bf16_into_f32(%x: tensor<16x8xbf16>, %w: tensor<8x12xbf16>) -> tensor<16x12xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x12xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x12xf32>) -> tensor<16x12xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x8xbf16>, tensor<8x12xbf16>) outs(%f : tensor<16x12xf32>) -> tensor<16x12xf32>
  return %m : tensor<16x12xf32>
}

// A transposed product (dX = dY·Wᵀ of a bf16 step) keeps its indexing
// maps when its inputs are widened.
// CHECK-LABEL: func.func @bf16_transposed
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<16x8xf32>, tensor<12x8xf32>) outs(%{{.*}} : tensor<16x12xf32>)
func.func @bf16_transposed(%x: tensor<16x8xbf16>, %w: tensor<12x8xbf16>) -> tensor<16x12xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x12xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x12xf32>) -> tensor<16x12xf32>
  %m = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<16x8xbf16>, tensor<12x8xbf16>) outs(%f : tensor<16x12xf32>) -> tensor<16x12xf32>
  return %m : tensor<16x12xf32>
}

// Integers: signed extension by default, unsigned for cast_unsigned; one
// input already of C's type stays as it is. Once widened, the cast is the
// identity and the product needs no cast attribute.
// CHECK-LABEL: func.func @int8_into_int32
// CHECK-SAME: (%[[A:.*]]: tensor<4x4xi8>, %[[B:.*]]: tensor<4x4xi32>)
// CHECK: %[[AW:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x4xi8>)
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK: linalg.matmul ins(%[[AW]], %[[B]] : tensor<4x4xi32>, tensor<4x4xi32>)
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: linalg.matmul ins(%{{.*}}, %[[B]] : tensor<4x4xi32>, tensor<4x4xi32>)
func.func @int8_into_int32(%a: tensor<4x4xi8>, %b: tensor<4x4xi32>) -> (tensor<4x4xi32>, tensor<4x4xi32>) {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x4xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<4x4xi32>) -> tensor<4x4xi32>
  %s = linalg.matmul ins(%a, %b : tensor<4x4xi8>, tensor<4x4xi32>) outs(%f : tensor<4x4xi32>) -> tensor<4x4xi32>
  %u = linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%a, %b : tensor<4x4xi8>, tensor<4x4xi32>) outs(%f : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %s, %u : tensor<4x4xi32>, tensor<4x4xi32>
}

// One element type throughout: nothing changes.
// CHECK-LABEL: func.func @same_types
// CHECK-NOT: linalg.generic
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<4x4xf32>, tensor<4x4xf32>)
func.func @same_types(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
