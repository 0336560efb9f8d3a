// avgpool: examples/export/export_layers.py --models avgpool
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> ()>
#map2 = affine_map<() -> ()>
module {
  func.func @avgpool(%arg0: tensor<4x3x7x7xf32> {summa.name = "x"}, %arg1: tensor<4x8x3x3xf32> {summa.name = "r"}, %arg2: tensor<8x3x2x2xf32> {summa.name = "layer.conv.weight"}, %arg3: tensor<8xf32> {summa.name = "layer.conv.bias"}) -> (tensor<f32>, tensor<4x8x3x3xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 4.000000e+00 : f32
    %cst_1 = arith.constant 2.880000e+02 : f32
    %0 = tensor.empty() : tensor<4x8x6x6xf32>
    %broadcasted = linalg.broadcast ins(%arg3 : tensor<8xf32>) outs(%0 : tensor<4x8x6x6xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %arg2 : tensor<4x3x7x7xf32>, tensor<8x3x2x2xf32>) outs(%broadcasted : tensor<4x8x6x6xf32>) -> tensor<4x8x6x6xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<4x8x6x6xf32>) outs(%0 : tensor<4x8x6x6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = math.tanh %in : f32
      linalg.yield %13 : f32
    } -> tensor<4x8x6x6xf32>
    %3 = tensor.empty() : tensor<4x8x3x3xf32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4x8x3x3xf32>) -> tensor<4x8x3x3xf32>
    %5 = tensor.empty() : tensor<2x2xf32>
    %6 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%2, %5 : tensor<4x8x6x6xf32>, tensor<2x2xf32>) outs(%4 : tensor<4x8x3x3xf32>) -> tensor<4x8x3x3xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6 : tensor<4x8x3x3xf32>) outs(%3 : tensor<4x8x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.divf %in, %cst_0 : f32
      linalg.yield %13 : f32
    } -> tensor<4x8x3x3xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %arg1 : tensor<4x8x3x3xf32>, tensor<4x8x3x3xf32>) outs(%3 : tensor<4x8x3x3xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %13 = arith.mulf %in, %in_2 : f32
      linalg.yield %13 : f32
    } -> tensor<4x8x3x3xf32>
    %9 = tensor.empty() : tensor<f32>
    %10 = linalg.fill ins(%cst : f32) outs(%9 : tensor<f32>) -> tensor<f32>
    %11 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%8 : tensor<4x8x3x3xf32>) outs(%10 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.addf %in, %out : f32
      linalg.yield %13 : f32
    } -> tensor<f32>
    %12 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%11 : tensor<f32>) outs(%9 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.divf %in, %cst_1 : f32
      linalg.yield %13 : f32
    } -> tensor<f32>
    return %12, %7 : tensor<f32>, tensor<4x8x3x3xf32>
  }
}
