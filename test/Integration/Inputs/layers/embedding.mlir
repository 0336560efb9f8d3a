// embedding: examples/export/export_layers.py --models embedding
#map = affine_map<(d0, d1, d2) -> (d0, d1)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> ()>
#map3 = affine_map<() -> ()>
module {
  func.func @embedding(%arg0: tensor<8x4xi64> {summa.name = "ids"}, %arg1: tensor<8x4x16xf32> {summa.name = "r"}, %arg2: tensor<32x16xf32> {summa.name = "emb.weight", summa.padding_idx = 0 : i64}) -> (tensor<f32>, tensor<8x4x16xf32>) {
    %c32 = arith.constant 32 : index
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 5.120000e+02 : f32
    %0 = tensor.empty() : tensor<8x4x16xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<8x4xi64>) outs(%0 : tensor<8x4x16xf32>) {
    ^bb0(%in: i64, %out: f32):
      %7 = arith.index_cast %in : i64 to index
      %8 = linalg.index 2 : index
      %9 = arith.cmpi slt, %7, %c32 : index
      cf.assert %9, "index must be smaller than dim size"
      %10 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %10, "index must be larger or equal to 0"
      %extracted = tensor.extract %arg2[%7, %8] : tensor<32x16xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x4x16xf32>
    %2 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %arg1 : tensor<8x4x16xf32>, tensor<8x4x16xf32>) outs(%0 : tensor<8x4x16xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %7 = arith.mulf %in, %in_1 : f32
      linalg.yield %7 : f32
    } -> tensor<8x4x16xf32>
    %3 = tensor.empty() : tensor<f32>
    %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<f32>) -> tensor<f32>
    %5 = linalg.generic {indexing_maps = [#map1, #map2], iterator_types = ["reduction", "reduction", "reduction"]} ins(%2 : tensor<8x4x16xf32>) outs(%4 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %7 = arith.addf %in, %out : f32
      linalg.yield %7 : f32
    } -> tensor<f32>
    %6 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = []} ins(%5 : tensor<f32>) outs(%3 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %7 = arith.divf %in, %cst_0 : f32
      linalg.yield %7 : f32
    } -> tensor<f32>
    return %6, %1 : tensor<f32>, tensor<8x4x16xf32>
  }
}
