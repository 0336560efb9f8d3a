// RUN: summa-opt %s -split-input-file | summa-opt -split-input-file | FileCheck %s
// RUN: summa-opt %s -split-input-file --mlir-print-op-generic | summa-opt -split-input-file | FileCheck %s
// RUN: summa-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUF

// An embedding's gradient: each row of the updates added into the table
// row its id names.
// CHECK-LABEL: func.func @scatter_add
// CHECK: %[[R:.*]] = summa.scatter dimension_map = [0] ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x1xi64>) outs(%arg2 : tensor<16x8xf32>) {
// CHECK-NEXT: ^bb0(%[[U:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[U]] : f32
// CHECK-NEXT: summa.yield %[[S]] : f32
// CHECK-NEXT: } -> tensor<16x8xf32>
// BUF-LABEL: func.func @scatter_add
// BUF-SAME: (%[[UP:.*]]: memref<4x8xf32>, %[[ID:.*]]: memref<4x1xi64>, %[[T:.*]]: memref<16x8xf32>)
// BUF: summa.scatter dimension_map = [0] ins(%[[UP]], %[[ID]] : memref<4x8xf32>, memref<4x1xi64>) outs(%[[T]] : memref<16x8xf32>) {
// BUF: return %[[T]]
func.func @scatter_add(%u: tensor<4x8xf32>, %ids: tensor<4x1xi64>, %t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %r = summa.scatter dimension_map = [0] ins(%u, %ids : tensor<4x8xf32>, tensor<4x1xi64>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %b, %a : f32
    summa.yield %s : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// Two batch dimensions, two index columns naming dimensions 2 and 0, one
// slice dimension (dimension 1), a combiner that overwrites; on buffers.
// CHECK-LABEL: func.func @scatter_buffers
// CHECK: summa.scatter dimension_map = [2, 0] ins(%arg0, %arg1 : memref<2x3x5xf32>, memref<2x3x2xi32>) outs(%arg2 : memref<4x5x6xf32>) {
// CHECK: summa.yield %{{.*}} : f32
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @scatter_buffers(%u: memref<2x3x5xf32>, %ids: memref<2x3x2xi32>, %t: memref<4x5x6xf32>) {
  summa.scatter dimension_map = [2, 0] ins(%u, %ids : memref<2x3x5xf32>, memref<2x3x2xi32>) outs(%t : memref<4x5x6xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  }
  return
}
