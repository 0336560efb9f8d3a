// RUN: summa-opt %s --summa-differentiate="params=floats sgd-lr=0.5" | FileCheck %s

// params=floats: an export names its arguments but gives them no roles;
// every floating-point tensor argument without one is a parameter (the
// activation and the integer ids are not), in argument order.
// CHECK-LABEL: func.func @exported_grad
// CHECK-SAME: (%{{.*}}: tensor<4x4xf32> {summa.name = "x", summa.role = "activation"}, %{{.*}}: tensor<4xi64> {summa.name = "ids"}, %[[W:.*]]: tensor<4x4xf32> {summa.name = "w"}, %[[B:.*]]: tensor<4xf32> {summa.name = "b"})
// CHECK-SAME: -> (tensor<f32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32> {summa.updates = 2 : i64}, tensor<4xf32> {summa.updates = 3 : i64})
func.func @exported(%x: tensor<4x4xf32> {summa.name = "x", summa.role = "activation"}, %ids: tensor<4xi64> {summa.name = "ids"}, %w: tensor<4x4xf32> {summa.name = "w"}, %b: tensor<4xf32> {summa.name = "b"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<4x4xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

