// Three SGD-like steps of W' = W - 0.01·Xᵀ·(X·W) + sqrt(V) - sqrt(V):
// exercises --steps (W' replaces W through summa.updates), the depth
// all-reduce of the weight gradient (replicas must stay bit-identical), and
// summa.init = "nonnegative" (sqrt of a negative input would be NaN).
func.func @sgd(%x: tensor<32x16xf32> {summa.role = "activation"},
               %w: tensor<16x16xf32> {summa.role = "weight"},
               %v: tensor<16x16xf32> {summa.role = "weight", summa.init = "nonnegative"})
    -> (tensor<16x16xf32>, tensor<16x16xf32> {summa.updates = 1 : i64}) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<32x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %y = linalg.matmul ins(%x, %w : tensor<32x16xf32>, tensor<16x16xf32>) outs(%f0 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %e1 = tensor.empty() : tensor<16x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %g = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %y : tensor<32x16xf32>, tensor<32x16xf32>) outs(%f1 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %w2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%w, %g, %v : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %lr = arith.constant 1.000000e-02 : f32
    %s = arith.mulf %lr, %b : f32
    %r = arith.subf %a, %s : f32
    %q = math.sqrt %c : f32
    %r2 = arith.addf %r, %q : f32
    %r3 = arith.subf %r2, %q : f32
    linalg.yield %r3 : f32
  } -> tensor<16x16xf32>
  return %g, %w2 : tensor<16x16xf32>, tensor<16x16xf32>
}
