// fuzz seed: grid=2,2,2

// Merging a split dimension into the one outside it has no block layout.
func.func @inner_split(%y: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %h = tensor.expand_shape %y [[0, 1], [2, 3]] output_shape [8, 4, 4, 4] : tensor<32x16xf32> into tensor<8x4x4x4xf32>
  %e = tensor.empty() : tensor<4x8x4x4xf32>
  %t = linalg.transpose ins(%h : tensor<8x4x4x4xf32>) outs(%e : tensor<4x8x4x4xf32>) permutation = [1, 0ted-error @+1 {{dimension 1 is split over [depth, row] but is not the outermost of the dimensions reshaped into dimension 0; only the outermost may be split}}
  %c = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<4x8x4x4xf32> into tensor<32x16xf32>
  return %c : tensor<32x16xf32>
}

