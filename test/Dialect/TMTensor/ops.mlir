// RUN: summa-opt %s | summa-opt | FileCheck %s

// torch-mlir's tm_tensor.scan, as torch-mlir prints it (the cumsum of Hugging
// Face's create_causal_mask), reads and prints back the same.

// CHECK-LABEL: func.func @cumsum
// CHECK: %[[R:.*]]:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%{{.*}} : tensor<2x8xi64>) outs(%{{.*}}, %{{.*}} : tensor<2x8xi64>, tensor<2xi64>) {
// CHECK: ^bb0(%[[A:.*]]: i64, %[[B:.*]]: i64):
// CHECK:   %[[S:.*]] = arith.addi %[[A]], %[[B]] : i64
// CHECK:   tm_tensor.yield %[[S]] : i64
// CHECK: } -> tensor<2x8xi64>, tensor<2xi64>
func.func @cumsum(%x: tensor<2x8xi64>, %o: tensor<2x8xi64>, %a: tensor<2xi64>) -> tensor<2x8xi64> {
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%x : tensor<2x8xi64>) outs(%o, %a : tensor<2x8xi64>, tensor<2xi64>) {
  ^bb0(%arg1: i64, %arg2: i64):
    %s = arith.addi %arg1, %arg2 : i64
    tm_tensor.yield %s : i64
  } -> tensor<2x8xi64>, tensor<2xi64>
  return %r#0 : tensor<2x8xi64>
}

// CHECK-LABEL: func.func @exclusive
// CHECK: tm_tensor.scan dimension(0) inclusive(false)
func.func @exclusive(%x: tensor<4xf32>, %o: tensor<4xf32>, %a: tensor<f32>) -> (tensor<4xf32>, tensor<f32>) {
  %r:2 = tm_tensor.scan dimension(0) inclusive(false) ins(%x : tensor<4xf32>) outs(%o, %a : tensor<4xf32>, tensor<f32>) {
  ^bb0(%p: f32, %n: f32):
    %m = arith.maximumf %p, %n : f32
    tm_tensor.yield %m : f32
  } -> tensor<4xf32>, tensor<f32>
  return %r#0, %r#1 : tensor<4xf32>, tensor<f32>
}
