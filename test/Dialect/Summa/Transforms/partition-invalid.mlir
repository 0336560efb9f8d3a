// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-assign-layouts="grid=2,2,1" --summa-partition

func.func @dense_constant(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{only splat tensor constants can be partitioned}}
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %c : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
