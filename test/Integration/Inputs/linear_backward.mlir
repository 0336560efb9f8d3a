// dX = dY·Wᵀ and dW = Xᵀ·dY and db = sum dY.
func.func @linear_backward(%x: tensor<32x16xf32> {summa.role = "activation"}, %dy: tensor<32x8xf32> {summa.role = "activation"}, %w: tensor<16x8xf32> {summa.role = "weight"}) -> (tensor<32x16xf32>, tensor<16x8xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<32x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %dx = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%dy, %w : tensor<32x8xf32>, tensor<16x8xf32>) outs(%f0 : tensor<32x16xf32>) -> tensor<32x16xf32>
  %e1 = tensor.empty() : tensor<16x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %dw = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %dy : tensor<32x16xf32>, tensor<32x8xf32>) outs(%f1 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %e2 = tensor.empty() : tensor<8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8xf32>) -> tensor<8xf32>
  %db = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%dy : tensor<32x8xf32>) outs(%f2 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %dx, %dw, %db : tensor<32x16xf32>, tensor<16x8xf32>, tensor<8xf32>
}
