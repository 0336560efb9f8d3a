// conv2d_k3p1: examples/export/export_layers.py --models conv2d_k3p1
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> ()>
#map2 = affine_map<() -> ()>
module {
  func.func @conv2d_k3p1(%arg0: tensor<4x4x6x6xf32> {summa.name = "x"}, %arg1: tensor<4x8x6x6xf32> {summa.name = "r"}, %arg2: tensor<8x4x3x3xf32> {summa.name = "layer.weight"}, %arg3: tensor<8xf32> {summa.name = "layer.bias"}) -> (tensor<f32>, tensor<4x8x6x6xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.152000e+03 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg4: index, %arg5: index, %arg6: index, %arg7: index):
      tensor.yield %cst : f32
    } : tensor<4x4x6x6xf32> to tensor<4x4x8x8xf32>
    %0 = tensor.empty() : tensor<4x8x6x6xf32>
    %broadcasted = linalg.broadcast ins(%arg3 : tensor<8xf32>) outs(%0 : tensor<4x8x6x6xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %arg2 : tensor<4x4x8x8xf32>, tensor<8x4x3x3xf32>) outs(%broadcasted : tensor<4x8x6x6xf32>) -> tensor<4x8x6x6xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %arg1 : tensor<4x8x6x6xf32>, tensor<4x8x6x6xf32>) outs(%0 : tensor<4x8x6x6xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %7 = arith.mulf %in, %in_1 : f32
      linalg.yield %7 : f32
    } -> tensor<4x8x6x6xf32>
    %3 = tensor.empty() : tensor<f32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<f32>) -> tensor<f32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%2 : tensor<4x8x6x6xf32>) outs(%4 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %7 = arith.addf %in, %out : f32
      linalg.yield %7 : f32
    } -> tensor<f32>
    %6 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%5 : tensor<f32>) outs(%3 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %7 = arith.divf %in, %cst_0 : f32
      linalg.yield %7 : f32
    } -> tensor<f32>
    return %6, %1 : tensor<f32>, tensor<4x8x6x6xf32>
  }
}
