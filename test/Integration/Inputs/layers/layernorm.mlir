// layernorm: examples/export/export_layers.py --models layernorm
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1, d2) -> ()>
#map4 = affine_map<() -> ()>
module {
  func.func @layernorm(%arg0: tensor<8x4x16xf32> {summa.name = "x"}, %arg1: tensor<8x4x16xf32> {summa.name = "r"}, %arg2: tensor<16xf32> {summa.name = "layer.weight"}, %arg3: tensor<16xf32> {summa.name = "layer.bias"}) -> (tensor<f32>, tensor<8x4x16xf32>) {
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e-05 : f64
    %cst_2 = arith.constant 1.600000e+01 : f64
    %cst_3 = arith.constant 1.600000e+01 : f32
    %cst_4 = arith.constant 5.120000e+02 : f32
    %0 = tensor.empty() : tensor<8x4x16xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<8x4x16xf32>) outs(%0 : tensor<8x4x16xf64>) {
    ^bb0(%in: f32, %out: f64):
      %27 = arith.extf %in : f32 to f64
      linalg.yield %27 : f64
    } -> tensor<8x4x16xf64>
    %2 = tensor.empty() : tensor<8x4x1xf64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<8x4x1xf64>) -> tensor<8x4x1xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<8x4x16xf64>) outs(%3 : tensor<8x4x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %27 = arith.addf %in, %out : f64
      linalg.yield %27 : f64
    } -> tensor<8x4x1xf64>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<8x4x1xf64>) outs(%2 : tensor<8x4x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %27 = arith.divf %in, %cst_2 : f64
      linalg.yield %27 : f64
    } -> tensor<8x4x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %5 : tensor<8x4x16xf64>, tensor<8x4x1xf64>) outs(%0 : tensor<8x4x16xf64>) {
    ^bb0(%in: f64, %in_5: f64, %out: f64):
      %27 = arith.subf %in, %in_5 : f64
      linalg.yield %27 : f64
    } -> tensor<8x4x16xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %6 : tensor<8x4x16xf64>, tensor<8x4x16xf64>) outs(%0 : tensor<8x4x16xf64>) {
    ^bb0(%in: f64, %in_5: f64, %out: f64):
      %27 = arith.mulf %in, %in_5 : f64
      linalg.yield %27 : f64
    } -> tensor<8x4x16xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%7 : tensor<8x4x16xf64>) outs(%3 : tensor<8x4x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %27 = arith.addf %in, %out : f64
      linalg.yield %27 : f64
    } -> tensor<8x4x1xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<8x4x1xf64>) outs(%2 : tensor<8x4x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %27 = arith.divf %in, %cst_2 : f64
      linalg.yield %27 : f64
    } -> tensor<8x4x1xf64>
    %10 = tensor.empty() : tensor<8x4x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9 : tensor<8x4x1xf64>) outs(%10 : tensor<8x4x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %27 = arith.truncf %in : f64 to f32
      linalg.yield %27 : f32
    } -> tensor<8x4x1xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<8x4x1xf32>) -> tensor<8x4x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<8x4x16xf32>) outs(%12 : tensor<8x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.addf %in, %out : f32
      linalg.yield %27 : f32
    } -> tensor<8x4x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13 : tensor<8x4x1xf32>) outs(%10 : tensor<8x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.divf %in, %cst_3 : f32
      linalg.yield %27 : f32
    } -> tensor<8x4x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11 : tensor<8x4x1xf32>) outs(%10 : tensor<8x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.truncf %cst_1 : f64 to f32
      %28 = arith.addf %in, %27 : f32
      linalg.yield %28 : f32
    } -> tensor<8x4x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<8x4x1xf32>) outs(%10 : tensor<8x4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = math.rsqrt %in : f32
      linalg.yield %27 : f32
    } -> tensor<8x4x1xf32>
    %17 = tensor.empty() : tensor<8x4x16xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %14 : tensor<8x4x16xf32>, tensor<8x4x1xf32>) outs(%17 : tensor<8x4x16xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %27 = arith.subf %in, %in_5 : f32
      linalg.yield %27 : f32
    } -> tensor<8x4x16xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%18, %16 : tensor<8x4x16xf32>, tensor<8x4x1xf32>) outs(%17 : tensor<8x4x16xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %27 = arith.mulf %in, %in_5 : f32
      linalg.yield %27 : f32
    } -> tensor<8x4x16xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %arg2 : tensor<8x4x16xf32>, tensor<16xf32>) outs(%17 : tensor<8x4x16xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %27 = arith.mulf %in, %in_5 : f32
      linalg.yield %27 : f32
    } -> tensor<8x4x16xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %arg3 : tensor<8x4x16xf32>, tensor<16xf32>) outs(%17 : tensor<8x4x16xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %27 = arith.addf %in, %in_5 : f32
      linalg.yield %27 : f32
    } -> tensor<8x4x16xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%21, %arg1 : tensor<8x4x16xf32>, tensor<8x4x16xf32>) outs(%17 : tensor<8x4x16xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %27 = arith.mulf %in, %in_5 : f32
      linalg.yield %27 : f32
    } -> tensor<8x4x16xf32>
    %23 = tensor.empty() : tensor<f32>
    %24 = linalg.fill ins(%cst_0 : f32) outs(%23 : tensor<f32>) -> tensor<f32>
    %25 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["reduction", "reduction", "reduction"]} ins(%22 : tensor<8x4x16xf32>) outs(%24 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.addf %in, %out : f32
      linalg.yield %27 : f32
    } -> tensor<f32>
    %26 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = []} ins(%25 : tensor<f32>) outs(%23 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.divf %in, %cst_4 : f32
      linalg.yield %27 : f32
    } -> tensor<f32>
    return %26, %21 : tensor<f32>, tensor<8x4x16xf32>
  }
}
