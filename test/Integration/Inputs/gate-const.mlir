// A gate of one column (Qwen2-MoE's shared-expert gate, Linear(hidden, 1),
// its weight a constant as exports with constants write it): the product
// [tokens, hidden] . [1, hidden]^T keeps the hidden dimension split in both
// operands, so each rank's product is a partial sum that an all-reduce
// completes (partition-gate.mlir).
#id = affine_map<(d0, d1) -> (d0, d1)>
#col0 = affine_map<(d0, d1) -> (d0, 0)>
func.func @gate(%x: tensor<16x32xf32> {summa.name = "x", summa.role = "activation"}) -> tensor<16x32xf32> {
  %w = arith.constant dense<[[-0.8, -0.5, -0.2, 0.1, 0.4, 0.7, -0.7, -0.4, -0.1, 0.2, 0.5, 0.8, -0.6, -0.3, 0.0, 0.3, 0.6, -0.8, -0.5, -0.2, 0.1, 0.4, 0.7, -0.7, -0.4, -0.1, 0.2, 0.5, 0.8, -0.6, -0.3, 0.0]]> : tensor<1x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x1xf32>) -> tensor<16x1xf32>
  %g = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : tensor<16x32xf32>, tensor<1x32xf32>) outs(%f : tensor<16x1xf32>) -> tensor<16x1xf32>
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
  return %y : tensor<16x32xf32>
}
