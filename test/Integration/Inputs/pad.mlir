// A loss over a zero-padded product (F.pad(x @ w, (2, 6)) squared and
// summed): the model of test/Integration/pad-derivative.mlir; Inputs/pad_ref.py
// wrote its inputs and PyTorch's loss and gradient.
func.func @pad_loss(%x: tensor<8x8xf32> {summa.role = "activation"},
                    %w: tensor<8x8xf32> {summa.role = "weight"}) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %p = tensor.pad %y low[0, 2] high[0, 6] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<8x8xf32> to tensor<8x16xf32>
  %le = tensor.empty() : tensor<1xf32>
  %lf = linalg.fill ins(%zero : f32) outs(%le : tensor<1xf32>) -> tensor<1xf32>
  %loss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>],
                          iterator_types = ["reduction", "reduction"]}
      ins(%p : tensor<8x16xf32>) outs(%lf : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %loss : tensor<1xf32>
}
