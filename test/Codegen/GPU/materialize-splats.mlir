// RUN: summa-opt %s -summa-materialize-splats | FileCheck %s

// Splat tensor constants become fills of empty tensors (device memory after
// bufferization); other constants are left.
// CHECK-LABEL: func.func @splats
// CHECK-DAG: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[E0:.*]] = tensor.empty() : tensor<f32>
// CHECK-DAG: %[[E1:.*]] = tensor.empty() : tensor<8x8xi1>
// CHECK-DAG: %[[F0:.*]] = linalg.fill ins(%[[NEG]] : f32) outs(%[[E0]] : tensor<f32>) -> tensor<f32>
// CHECK-DAG: %[[F1:.*]] = linalg.fill ins(%[[TRUE]] : i1) outs(%[[E1]] : tensor<8x8xi1>) -> tensor<8x8xi1>
// CHECK-DAG: %[[TABLE:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[SCALAR:.*]] = arith.constant 3.000000e+00 : f32
// CHECK: return %[[F0]], %[[F1]], %[[TABLE]], %[[SCALAR]]
func.func @splats() -> (tensor<f32>, tensor<8x8xi1>, tensor<2xf32>, f32) {
  %neg = arith.constant dense<0xFF800000> : tensor<f32>
  %mask = arith.constant dense<true> : tensor<8x8xi1>
  %table = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %s = arith.constant 3.0 : f32
  return %neg, %mask, %table, %s : tensor<f32>, tensor<8x8xi1>, tensor<2xf32>, f32
}
