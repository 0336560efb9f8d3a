// Not valid MLIR: the matmul's result type is missing.
func.func @bad(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%x : tensor<8x8xf32>)
  return %0 : tensor<8x8xf32>
}
