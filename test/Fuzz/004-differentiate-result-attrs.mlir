// Found by the fuzz target on its seeds (summa-fuzz compiles summa with
// assertions on): every
// successful summa-differentiate cleared the result attributes of the
// gradient function with setAllResultAttrs({}), which asserts that it gets
// one dictionary per result. Release builds (NDEBUG) did not notice.
//
// RUN: summa-opt %s --summa-differentiate | FileCheck %s
// RUN: summa-opt %s --summa-differentiate="sgd-lr=0.5" | FileCheck %s --check-prefix=SGD

// CHECK-LABEL: func.func @loss_grad(
// CHECK-SAME: -> (tensor<f32>, tensor<4x4xf32>)
// SGD-LABEL: func.func @loss_grad(
// SGD-SAME: -> (tensor<f32>, tensor<4x4xf32>, tensor<4x4xf32> {summa.updates = 1 : i64})

func.func @loss(%x: tensor<4x4xf32> {summa.role = "activation"},
                %w: tensor<4x4xf32> {summa.role = "weight"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%z : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<4x4xf32>) outs(%s : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %acc, %a : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
