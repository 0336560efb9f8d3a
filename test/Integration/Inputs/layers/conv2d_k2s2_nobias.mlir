// conv2d_k2s2_nobias: examples/export/export_layers.py --models conv2d_k2s2_nobias
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> ()>
#map2 = affine_map<() -> ()>
module {
  func.func @conv2d_k2s2_nobias(%arg0: tensor<4x3x6x6xf32> {summa.name = "x"}, %arg1: tensor<4x8x3x3xf32> {summa.name = "r"}, %arg2: tensor<8x3x2x2xf32> {summa.name = "layer.weight"}) -> (tensor<f32>, tensor<4x8x3x3xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 2.880000e+02 : f32
    %0 = tensor.empty() : tensor<4x8x3x3xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x8x3x3xf32>) -> tensor<4x8x3x3xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg0, %arg2 : tensor<4x3x6x6xf32>, tensor<8x3x2x2xf32>) outs(%1 : tensor<4x8x3x3xf32>) -> tensor<4x8x3x3xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %arg1 : tensor<4x8x3x3xf32>, tensor<4x8x3x3xf32>) outs(%0 : tensor<4x8x3x3xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %8 = arith.mulf %in, %in_1 : f32
      linalg.yield %8 : f32
    } -> tensor<4x8x3x3xf32>
    %4 = tensor.empty() : tensor<f32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<f32>) -> tensor<f32>
    %6 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%3 : tensor<4x8x3x3xf32>) outs(%5 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %8 = arith.addf %in, %out : f32
      linalg.yield %8 : f32
    } -> tensor<f32>
    %7 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%6 : tensor<f32>) outs(%4 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %8 = arith.divf %in, %cst_0 : f32
      linalg.yield %8 : f32
    } -> tensor<f32>
    return %7, %2 : tensor<f32>, tensor<4x8x3x3xf32>
  }
}
