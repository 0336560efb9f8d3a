// linear: examples/export/export_layers.py --models linear
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> ()>
#map4 = affine_map<() -> ()>
module {
  func.func @linear(%arg0: tensor<8x4x16xf32> {summa.name = "x"}, %arg1: tensor<8x4x24xf32> {summa.name = "r"}, %arg2: tensor<24x16xf32> {summa.name = "layer.weight"}, %arg3: tensor<24xf32> {summa.name = "layer.bias"}) -> (tensor<f32>, tensor<8x4x24xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 7.680000e+02 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<8x4x16xf32> into tensor<32x16xf32>
    %0 = tensor.empty() : tensor<16x24xf32>
    %transposed = linalg.transpose ins(%arg2 : tensor<24x16xf32>) outs(%0 : tensor<16x24xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<32x24xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<32x24xf32>) -> tensor<32x24xf32>
    %3 = linalg.matmul ins(%collapsed, %transposed : tensor<32x16xf32>, tensor<16x24xf32>) outs(%2 : tensor<32x24xf32>) -> tensor<32x24xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg3 : tensor<24xf32>) outs(%1 : tensor<32x24xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<32x24xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%3, %4 : tensor<32x24xf32>, tensor<32x24xf32>) outs(%1 : tensor<32x24xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %12 = arith.addf %in, %in_1 : f32
      linalg.yield %12 : f32
    } -> tensor<32x24xf32>
    %expanded = tensor.expand_shape %5 [[0, 1], [2]] output_shape [8, 4, 24] : tensor<32x24xf32> into tensor<8x4x24xf32>
    %6 = tensor.empty() : tensor<8x4x24xf32>
    %7 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %arg1 : tensor<8x4x24xf32>, tensor<8x4x24xf32>) outs(%6 : tensor<8x4x24xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %12 = arith.mulf %in, %in_1 : f32
      linalg.yield %12 : f32
    } -> tensor<8x4x24xf32>
    %8 = tensor.empty() : tensor<f32>
    %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<f32>) -> tensor<f32>
    %10 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["reduction", "reduction", "reduction"]} ins(%7 : tensor<8x4x24xf32>) outs(%9 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %12 = arith.addf %in, %out : f32
      linalg.yield %12 : f32
    } -> tensor<f32>
    %11 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = []} ins(%10 : tensor<f32>) outs(%8 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %12 = arith.divf %in, %cst_0 : f32
      linalg.yield %12 : f32
    } -> tensor<f32>
    return %11, %expanded : tensor<f32>, tensor<8x4x24xf32>
  }
}
