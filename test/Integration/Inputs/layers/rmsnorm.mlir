// rmsnorm: examples/export/export_layers.py --models rmsnorm
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1, d2) -> ()>
#map4 = affine_map<() -> ()>
module {
  func.func @rmsnorm(%arg0: tensor<8x4x16xf32> {summa.name = "x"}, %arg1: tensor<8x4x16xf32> {summa.name = "r"}, %arg2: tensor<16xf32> {summa.name = "layer.weight"}) -> (tensor<f32>, tensor<8x4x16xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.600000e+01 : f32
    %cst_1 = arith.constant 5.120000e+02 : f32
    %0 = tensor.empty() : tensor<8x4x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %arg0 : tensor<8x4x16xf32>, tensor<8x4x16xf32>) outs(%0 : tensor<8x4x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %14 = arith.mulf %in, %in_2 : f32
      linalg.yield %14 : f32
    } -> tensor<8x4x16xf32>
    %2 = tensor.empty() : tensor<8x4x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<8x4x1xf32>) -> tensor<8x4x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<8x4x16xf32>) outs(%3 : tensor<8x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.addf %in, %out : f32
      linalg.yield %14 : f32
    } -> tensor<8x4x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<8x4x1xf32>) outs(%2 : tensor<8x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.divf %in, %cst_0 : f32
      linalg.yield %14 : f32
    } -> tensor<8x4x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<8x4x1xf32>) outs(%2 : tensor<8x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = math.rsqrt %in : f32
      linalg.yield %14 : f32
    } -> tensor<8x4x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %6 : tensor<8x4x16xf32>, tensor<8x4x1xf32>) outs(%0 : tensor<8x4x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %14 = arith.mulf %in, %in_2 : f32
      linalg.yield %14 : f32
    } -> tensor<8x4x16xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%7, %arg2 : tensor<8x4x16xf32>, tensor<16xf32>) outs(%0 : tensor<8x4x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %14 = arith.mulf %in, %in_2 : f32
      linalg.yield %14 : f32
    } -> tensor<8x4x16xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8, %arg1 : tensor<8x4x16xf32>, tensor<8x4x16xf32>) outs(%0 : tensor<8x4x16xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %14 = arith.mulf %in, %in_2 : f32
      linalg.yield %14 : f32
    } -> tensor<8x4x16xf32>
    %10 = tensor.empty() : tensor<f32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<f32>) -> tensor<f32>
    %12 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction", "reduction"]} ins(%9 : tensor<8x4x16xf32>) outs(%11 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.addf %in, %out : f32
      linalg.yield %14 : f32
    } -> tensor<f32>
    %13 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = []} ins(%12 : tensor<f32>) outs(%10 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %14 = arith.divf %in, %cst_1 : f32
      linalg.yield %14 : f32
    } -> tensor<f32>
    return %13, %8 : tensor<f32>, tensor<8x4x16xf32>
  }
}
