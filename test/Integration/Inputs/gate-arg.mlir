#id = affine_map<(d0, d1) -> (d0, d1)>
#col0 = affine_map<(d0, d1) -> (d0, 0)>
#all = affine_map<(d0, d1) -> ()>
// A one-column gate whose weight is an argument (Linear(hidden, 1) with the
// weights as arguments), then a loss: the forward and its derived step.
func.func @gate(%x: tensor<16x32xf32> {summa.name = "x", summa.role = "activation"}, %w: tensor<32x1xf32> {summa.name = "w"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x1xf32>) -> tensor<16x1xf32>
  %g = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x1xf32>) outs(%f : tensor<16x1xf32>) -> tensor<16x1xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %y = linalg.generic {indexing_maps = [#col0, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%g, %x : tensor<16x1xf32>, tensor<16x32xf32>) outs(%e2 : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %n = arith.negf %a : f32
    %ex = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %ex : f32
    %s = arith.divf %one, %den : f32
    %r = arith.mulf %s, %b : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]} ins(%y : tensor<16x32xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %t = arith.addf %sq, %acc : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
