// A bf16 linear layer as torch-mlir writes it: the product into an f32 C,
// then truncated to bf16.
func.func @linear_bf16(%x: tensor<16x8xbf16> {summa.name = "x", summa.role = "activation"}, %w: tensor<8x12xbf16> {summa.name = "w", summa.role = "weight"}) -> tensor<16x12xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x12xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x12xf32>) -> tensor<16x12xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x8xbf16>, tensor<8x12xbf16>) outs(%f : tensor<16x12xf32>) -> tensor<16x12xf32>
  %eb = tensor.empty() : tensor<16x12xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<16x12xf32>) outs(%eb : tensor<16x12xbf16>) {
  ^bb0(%a: f32, %o: bf16):
    %r = arith.truncf %a : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<16x12xbf16>
  return %t : tensor<16x12xbf16>
}
