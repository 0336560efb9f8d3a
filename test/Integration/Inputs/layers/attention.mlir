// attention: examples/export/export_layers.py --models attention
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map3 = affine_map<(d0) -> (d0)>
#map4 = affine_map<(d0, d1) -> (0, d1)>
#map5 = affine_map<(d0, d1) -> (d0, 0)>
#map6 = affine_map<(d0, d1) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map10 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map11 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map12 = affine_map<(d0, d1, d2) -> (d2)>
#map13 = affine_map<(d0, d1, d2) -> ()>
#map14 = affine_map<() -> ()>
module {
  func.func @attention(%arg0: tensor<4x8x16xf32> {summa.name = "x"}, %arg1: tensor<4x8x16xf32> {summa.name = "r"}, %arg2: tensor<16x16xf32> {summa.name = "layer.q.weight"}, %arg3: tensor<16xf32> {summa.name = "layer.q.bias"}, %arg4: tensor<16x16xf32> {summa.name = "layer.k.weight"}, %arg5: tensor<16xf32> {summa.name = "layer.k.bias"}, %arg6: tensor<16x16xf32> {summa.name = "layer.v.weight"}, %arg7: tensor<16xf32> {summa.name = "layer.v.bias"}, %arg8: tensor<16x16xf32> {summa.name = "layer.o.weight"}, %arg9: tensor<16xf32> {summa.name = "layer.o.bias"}) -> (tensor<f32>, tensor<4x8x16xf32>) {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<4x4x8x8xf32>
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = arith.constant dense<true> : tensor<8x8xi1>
    %cst_5 = arith.constant 0xFFF0000000000000 : f64
    %cst_6 = arith.constant 0.70710678118654757 : f64
    %cst_7 = arith.constant 5.120000e+02 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<4x8x16xf32> into tensor<32x16xf32>
    %0 = tensor.empty() : tensor<16x16xf32>
    %transposed = linalg.transpose ins(%arg2 : tensor<16x16xf32>) outs(%0 : tensor<16x16xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<32x16xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<32x16xf32>) -> tensor<32x16xf32>
    %3 = linalg.matmul ins(%collapsed, %transposed : tensor<32x16xf32>, tensor<16x16xf32>) outs(%2 : tensor<32x16xf32>) -> tensor<32x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg3 : tensor<16xf32>) outs(%1 : tensor<32x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<32x16xf32>
    %5 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%3, %4 : tensor<32x16xf32>, tensor<32x16xf32>) outs(%1 : tensor<32x16xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %62 = arith.addf %in, %in_27 : f32
      linalg.yield %62 : f32
    } -> tensor<32x16xf32>
    %expanded = tensor.expand_shape %5 [[0, 1], [2, 3]] output_shape [4, 8, 4, 4] : tensor<32x16xf32> into tensor<4x8x4x4xf32>
    %6 = tensor.empty() : tensor<4x4x8x4xf32>
    %transposed_8 = linalg.transpose ins(%expanded : tensor<4x8x4x4xf32>) outs(%6 : tensor<4x4x8x4xf32>) permutation = [0, 2, 1, 3] 
    %transposed_9 = linalg.transpose ins(%arg4 : tensor<16x16xf32>) outs(%0 : tensor<16x16xf32>) permutation = [1, 0] 
    %7 = linalg.matmul ins(%collapsed, %transposed_9 : tensor<32x16xf32>, tensor<16x16xf32>) outs(%2 : tensor<32x16xf32>) -> tensor<32x16xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg5 : tensor<16xf32>) outs(%1 : tensor<32x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<32x16xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%7, %8 : tensor<32x16xf32>, tensor<32x16xf32>) outs(%1 : tensor<32x16xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %62 = arith.addf %in, %in_27 : f32
      linalg.yield %62 : f32
    } -> tensor<32x16xf32>
    %expanded_10 = tensor.expand_shape %9 [[0, 1], [2, 3]] output_shape [4, 8, 4, 4] : tensor<32x16xf32> into tensor<4x8x4x4xf32>
    %transposed_11 = linalg.transpose ins(%arg6 : tensor<16x16xf32>) outs(%0 : tensor<16x16xf32>) permutation = [1, 0] 
    %10 = linalg.matmul ins(%collapsed, %transposed_11 : tensor<32x16xf32>, tensor<16x16xf32>) outs(%2 : tensor<32x16xf32>) -> tensor<32x16xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg7 : tensor<16xf32>) outs(%1 : tensor<32x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<32x16xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10, %11 : tensor<32x16xf32>, tensor<32x16xf32>) outs(%1 : tensor<32x16xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %62 = arith.addf %in, %in_27 : f32
      linalg.yield %62 : f32
    } -> tensor<32x16xf32>
    %expanded_12 = tensor.expand_shape %12 [[0, 1], [2, 3]] output_shape [4, 8, 4, 4] : tensor<32x16xf32> into tensor<4x8x4x4xf32>
    %transposed_13 = linalg.transpose ins(%expanded_12 : tensor<4x8x4x4xf32>) outs(%6 : tensor<4x4x8x4xf32>) permutation = [0, 2, 1, 3] 
    %13 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_8 : tensor<4x4x8x4xf32>) outs(%6 : tensor<4x4x8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.truncf %cst_6 : f64 to f32
      %63 = arith.mulf %in, %62 : f32
      linalg.yield %63 : f32
    } -> tensor<4x4x8x4xf32>
    %14 = tensor.empty() : tensor<8xi64>
    %15 = linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel"]} outs(%14 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %62 = linalg.index 0 : index
      %63 = arith.index_cast %62 : index to i64
      linalg.yield %63 : i64
    } -> tensor<8xi64>
    %expanded_14 = tensor.expand_shape %15 [[0, 1]] output_shape [1, 8] : tensor<8xi64> into tensor<1x8xi64>
    %expanded_15 = tensor.expand_shape %15 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %16 = tensor.empty() : tensor<8x8xi64>
    %17 = linalg.generic {indexing_maps = [#map4, #map5, #map1], iterator_types = ["parallel", "parallel"]} ins(%expanded_14, %expanded_15 : tensor<1x8xi64>, tensor<8x1xi64>) outs(%16 : tensor<8x8xi64>) {
    ^bb0(%in: i64, %in_27: i64, %out: i64):
      %62 = arith.subi %in, %in_27 : i64
      linalg.yield %62 : i64
    } -> tensor<8x8xi64>
    %18 = tensor.empty() : tensor<8x8xi1>
    %19 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%17 : tensor<8x8xi64>) outs(%18 : tensor<8x8xi1>) {
    ^bb0(%in: i64, %out: i1):
      %62 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %62 : i1
    } -> tensor<8x8xi1>
    %20 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%19, %cst_4 : tensor<8x8xi1>, tensor<8x8xi1>) outs(%18 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %in_27: i1, %out: i1):
      %62 = arith.andi %in, %in_27 : i1
      linalg.yield %62 : i1
    } -> tensor<8x8xi1>
    %21 = tensor.empty() : tensor<8x8xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map6, #map6, #map1], iterator_types = ["parallel", "parallel"]} ins(%20, %cst_2, %cst_3 : tensor<8x8xi1>, tensor<f32>, tensor<f32>) outs(%21 : tensor<8x8xf32>) {
    ^bb0(%in: i1, %in_27: f32, %in_28: f32, %out: f32):
      %62 = arith.select %in, %in_27, %in_28 : f32
      linalg.yield %62 : f32
    } -> tensor<8x8xf32>
    %23 = tensor.empty() : tensor<4x4x4x8xf32>
    %transposed_16 = linalg.transpose ins(%expanded_10 : tensor<4x8x4x4xf32>) outs(%23 : tensor<4x4x4x8xf32>) permutation = [0, 2, 3, 1] 
    %24 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_16 : tensor<4x4x4x8xf32>) outs(%23 : tensor<4x4x4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.truncf %cst_6 : f64 to f32
      %63 = arith.mulf %in, %62 : f32
      linalg.yield %63 : f32
    } -> tensor<4x4x4x8xf32>
    %collapsed_17 = tensor.collapse_shape %13 [[0, 1], [2], [3]] : tensor<4x4x8x4xf32> into tensor<16x8x4xf32>
    %collapsed_18 = tensor.collapse_shape %24 [[0, 1], [2], [3]] : tensor<4x4x4x8xf32> into tensor<16x4x8xf32>
    %25 = tensor.empty() : tensor<16x8x8xf32>
    %26 = linalg.fill ins(%cst : f32) outs(%25 : tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %27 = linalg.batch_matmul ins(%collapsed_17, %collapsed_18 : tensor<16x8x4xf32>, tensor<16x4x8xf32>) outs(%26 : tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %expanded_19 = tensor.expand_shape %27 [[0, 1], [2], [3]] output_shape [4, 4, 8, 8] : tensor<16x8x8xf32> into tensor<4x4x8x8xf32>
    %28 = tensor.empty() : tensor<4x4x8x8xf32>
    %29 = linalg.generic {indexing_maps = [#map2, #map7, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_19, %22 : tensor<4x4x8x8xf32>, tensor<8x8xf32>) outs(%28 : tensor<4x4x8x8xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %62 = arith.addf %in, %in_27 : f32
      linalg.yield %62 : f32
    } -> tensor<4x4x8x8xf32>
    %30 = tensor.empty() : tensor<4x4x8xi64>
    %31 = linalg.fill ins(%c0_i64 : i64) outs(%30 : tensor<4x4x8xi64>) -> tensor<4x4x8xi64>
    %32 = tensor.empty() : tensor<4x4x8xf32>
    %33 = linalg.fill ins(%cst_0 : f32) outs(%32 : tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
    %34:2 = linalg.generic {indexing_maps = [#map2, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%29 : tensor<4x4x8x8xf32>) outs(%33, %31 : tensor<4x4x8xf32>, tensor<4x4x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_27: i64):
      %62 = linalg.index 3 : index
      %63 = arith.index_cast %62 : index to i64
      %64 = arith.maximumf %in, %out : f32
      %65 = arith.cmpf ogt, %in, %out : f32
      %66 = arith.select %65, %63, %out_27 : i64
      linalg.yield %64, %66 : f32, i64
    } -> (tensor<4x4x8xf32>, tensor<4x4x8xi64>)
    %expanded_20 = tensor.expand_shape %34#0 [[0], [1], [2, 3]] output_shape [4, 4, 8, 1] : tensor<4x4x8xf32> into tensor<4x4x8x1xf32>
    %35 = linalg.generic {indexing_maps = [#map2, #map9, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29, %expanded_20 : tensor<4x4x8x8xf32>, tensor<4x4x8x1xf32>) outs(%28 : tensor<4x4x8x8xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %62 = arith.subf %in, %in_27 : f32
      linalg.yield %62 : f32
    } -> tensor<4x4x8x8xf32>
    %36 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%35 : tensor<4x4x8x8xf32>) outs(%28 : tensor<4x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = math.exp %in : f32
      linalg.yield %62 : f32
    } -> tensor<4x4x8x8xf32>
    %37 = tensor.empty() : tensor<4x4x8x1xf32>
    %38 = linalg.fill ins(%cst : f32) outs(%37 : tensor<4x4x8x1xf32>) -> tensor<4x4x8x1xf32>
    %39 = linalg.generic {indexing_maps = [#map2, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%36 : tensor<4x4x8x8xf32>) outs(%38 : tensor<4x4x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.addf %in, %out : f32
      linalg.yield %62 : f32
    } -> tensor<4x4x8x1xf32>
    %40 = linalg.generic {indexing_maps = [#map2, #map9, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36, %39 : tensor<4x4x8x8xf32>, tensor<4x4x8x1xf32>) outs(%28 : tensor<4x4x8x8xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %62 = arith.divf %in, %in_27 : f32
      linalg.yield %62 : f32
    } -> tensor<4x4x8x8xf32>
    %41 = tensor.empty() : tensor<4x4x8x8xi1>
    %42 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29 : tensor<4x4x8x8xf32>) outs(%41 : tensor<4x4x8x8xi1>) {
    ^bb0(%in: f32, %out: i1):
      %62 = arith.extf %in : f32 to f64
      %63 = arith.cmpf oeq, %62, %cst_5 : f64
      linalg.yield %63 : i1
    } -> tensor<4x4x8x8xi1>
    %43 = tensor.empty() : tensor<4x4x8x1xi1>
    %44 = linalg.fill ins(%true : i1) outs(%43 : tensor<4x4x8x1xi1>) -> tensor<4x4x8x1xi1>
    %45 = linalg.generic {indexing_maps = [#map2, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%42 : tensor<4x4x8x8xi1>) outs(%44 : tensor<4x4x8x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %62 = arith.andi %in, %out : i1
      linalg.yield %62 : i1
    } -> tensor<4x4x8x1xi1>
    %46 = linalg.generic {indexing_maps = [#map9, #map2, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%45, %cst_1, %40 : tensor<4x4x8x1xi1>, tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) outs(%28 : tensor<4x4x8x8xf32>) {
    ^bb0(%in: i1, %in_27: f32, %in_28: f32, %out: f32):
      %62 = arith.select %in, %in_27, %in_28 : f32
      linalg.yield %62 : f32
    } -> tensor<4x4x8x8xf32>
    %collapsed_21 = tensor.collapse_shape %46 [[0, 1], [2], [3]] : tensor<4x4x8x8xf32> into tensor<16x8x8xf32>
    %collapsed_22 = tensor.collapse_shape %transposed_13 [[0, 1], [2], [3]] : tensor<4x4x8x4xf32> into tensor<16x8x4xf32>
    %47 = tensor.empty() : tensor<16x8x4xf32>
    %48 = linalg.fill ins(%cst : f32) outs(%47 : tensor<16x8x4xf32>) -> tensor<16x8x4xf32>
    %49 = linalg.batch_matmul ins(%collapsed_21, %collapsed_22 : tensor<16x8x8xf32>, tensor<16x8x4xf32>) outs(%48 : tensor<16x8x4xf32>) -> tensor<16x8x4xf32>
    %expanded_23 = tensor.expand_shape %49 [[0, 1], [2], [3]] output_shape [4, 4, 8, 4] : tensor<16x8x4xf32> into tensor<4x4x8x4xf32>
    %50 = tensor.empty() : tensor<4x8x4x4xf32>
    %transposed_24 = linalg.transpose ins(%expanded_23 : tensor<4x4x8x4xf32>) outs(%50 : tensor<4x8x4x4xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_25 = tensor.collapse_shape %transposed_24 [[0], [1], [2, 3]] : tensor<4x8x4x4xf32> into tensor<4x8x16xf32>
    %transposed_26 = linalg.transpose ins(%arg8 : tensor<16x16xf32>) outs(%0 : tensor<16x16xf32>) permutation = [1, 0] 
    %51 = tensor.empty() : tensor<4x16x16xf32>
    %52 = linalg.generic {indexing_maps = [#map10, #map11], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_26 : tensor<16x16xf32>) outs(%51 : tensor<4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x16x16xf32>
    %53 = tensor.empty() : tensor<4x8x16xf32>
    %54 = linalg.fill ins(%cst : f32) outs(%53 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %55 = linalg.batch_matmul ins(%collapsed_25, %52 : tensor<4x8x16xf32>, tensor<4x16x16xf32>) outs(%54 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %56 = linalg.generic {indexing_maps = [#map11, #map12, #map11], iterator_types = ["parallel", "parallel", "parallel"]} ins(%55, %arg9 : tensor<4x8x16xf32>, tensor<16xf32>) outs(%53 : tensor<4x8x16xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %62 = arith.addf %in, %in_27 : f32
      linalg.yield %62 : f32
    } -> tensor<4x8x16xf32>
    %57 = linalg.generic {indexing_maps = [#map11, #map11, #map11], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56, %arg1 : tensor<4x8x16xf32>, tensor<4x8x16xf32>) outs(%53 : tensor<4x8x16xf32>) {
    ^bb0(%in: f32, %in_27: f32, %out: f32):
      %62 = arith.mulf %in, %in_27 : f32
      linalg.yield %62 : f32
    } -> tensor<4x8x16xf32>
    %58 = tensor.empty() : tensor<f32>
    %59 = linalg.fill ins(%cst : f32) outs(%58 : tensor<f32>) -> tensor<f32>
    %60 = linalg.generic {indexing_maps = [#map11, #map13], iterator_types = ["reduction", "reduction", "reduction"]} ins(%57 : tensor<4x8x16xf32>) outs(%59 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.addf %in, %out : f32
      linalg.yield %62 : f32
    } -> tensor<f32>
    %61 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = []} ins(%60 : tensor<f32>) outs(%58 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %62 = arith.divf %in, %cst_7 : f32
      linalg.yield %62 : f32
    } -> tensor<f32>
    return %61, %56 : tensor<f32>, tensor<4x8x16xf32>
  }
}
