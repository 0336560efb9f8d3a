// y = x[:, 0:16 of the unsplit middle dim], elementwise: a slice along an
// unsplit dimension stays inside every tile.
func.func @slice(%x: tensor<16x24x8xf32> {summa.role = "activation"}) -> tensor<16x16x8xf32> {
  %s = tensor.extract_slice %x[0, 4, 0] [16, 16, 8] [1, 1, 1] : tensor<16x24x8xf32> to tensor<16x16x8xf32>
  %e = tensor.empty() : tensor<16x16x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<16x16x8xf32>) outs(%e : tensor<16x16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %a, %two : f32
    linalg.yield %r : f32
  } -> tensor<16x16x8xf32>
  return %y : tensor<16x16x8xf32>
}
