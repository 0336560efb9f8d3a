// summa-test-gradcheck finds a wrong derivative rule: with the planted rule
// of summa-test-wrong-exp-derivative (d exp(x) taken as 1), the derived
// gradient of the weight differs from the finite differences of the loss;
// without it, it agrees.
// RUN: not summa-opt %s --summa-test-wrong-exp-derivative --summa-differentiate --summa-test-gradcheck --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRONG
// RUN: summa-opt %s --summa-differentiate --summa-test-gradcheck --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=RIGHT
// WRONG: error: gradcheck: FAIL w rel_err=
// RIGHT: remark: gradcheck: w passes

func.func @exp_loss(%x: tensor<8x4xf32> {summa.role = "activation"},
                    %w: tensor<4x6xf32> {summa.role = "weight", summa.name = "w"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %h = linalg.matmul ins(%x, %w : tensor<8x4xf32>, tensor<4x6xf32>) outs(%acc : tensor<8x6xf32>) -> tensor<8x6xf32>
  %y = linalg.exp ins(%h : tensor<8x6xf32>) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%y : tensor<8x6xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %loss : tensor<f32>
}
