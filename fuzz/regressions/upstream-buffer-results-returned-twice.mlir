// upstream buffer-results-to-out-params{hoist-static-allocs} crashed on a
// buffer returned as two results (the test seed of shard-optimizer-state's
// @kept after CSE); summa-distinct-results copies the second one first.
// grid=2,2,1
func.func @twice(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y, %y, %w : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
}
