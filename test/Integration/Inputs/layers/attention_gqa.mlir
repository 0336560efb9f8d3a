// attention_gqa: examples/export/export_layers.py --models attention_gqa
#map = affine_map<(d0, d1) -> (d1)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#map3 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map5 = affine_map<(d0) -> (d0)>
#map6 = affine_map<(d0, d1) -> (0, d1)>
#map7 = affine_map<(d0, d1) -> (d0, 0)>
#map8 = affine_map<(d0, d1) -> ()>
#map9 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map12 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map13 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map14 = affine_map<(d0, d1, d2) -> (d2)>
#map15 = affine_map<(d0, d1, d2) -> ()>
#map16 = affine_map<() -> ()>
module {
  func.func @attention_gqa(%arg0: tensor<4x8x16xf32> {summa.name = "x"}, %arg1: tensor<4x8x16xf32> {summa.name = "r"}, %arg2: tensor<16x16xf32> {summa.name = "layer.q.weight"}, %arg3: tensor<16xf32> {summa.name = "layer.q.bias"}, %arg4: tensor<8x16xf32> {summa.name = "layer.k.weight"}, %arg5: tensor<8xf32> {summa.name = "layer.k.bias"}, %arg6: tensor<8x16xf32> {summa.name = "layer.v.weight"}, %arg7: tensor<8xf32> {summa.name = "layer.v.bias"}, %arg8: tensor<16x16xf32> {summa.name = "layer.o.weight"}, %arg9: tensor<16xf32> {summa.name = "layer.o.bias"}) -> (tensor<f32>, tensor<4x8x16xf32>) {
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
    ^bb0(%in: f32, %in_29: f32, %out: f32):
      %69 = arith.addf %in, %in_29 : f32
      linalg.yield %69 : f32
    } -> tensor<32x16xf32>
    %expanded = tensor.expand_shape %5 [[0, 1], [2, 3]] output_shape [4, 8, 4, 4] : tensor<32x16xf32> into tensor<4x8x4x4xf32>
    %6 = tensor.empty() : tensor<4x4x8x4xf32>
    %transposed_8 = linalg.transpose ins(%expanded : tensor<4x8x4x4xf32>) outs(%6 : tensor<4x4x8x4xf32>) permutation = [0, 2, 1, 3] 
    %7 = tensor.empty() : tensor<16x8xf32>
    %transposed_9 = linalg.transpose ins(%arg4 : tensor<8x16xf32>) outs(%7 : tensor<16x8xf32>) permutation = [1, 0] 
    %8 = tensor.empty() : tensor<32x8xf32>
    %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<32x8xf32>) -> tensor<32x8xf32>
    %10 = linalg.matmul ins(%collapsed, %transposed_9 : tensor<32x16xf32>, tensor<16x8xf32>) outs(%9 : tensor<32x8xf32>) -> tensor<32x8xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg5 : tensor<8xf32>) outs(%8 : tensor<32x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<32x8xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10, %11 : tensor<32x8xf32>, tensor<32x8xf32>) outs(%8 : tensor<32x8xf32>) {
    ^bb0(%in: f32, %in_29: f32, %out: f32):
      %69 = arith.addf %in, %in_29 : f32
      linalg.yield %69 : f32
    } -> tensor<32x8xf32>
    %expanded_10 = tensor.expand_shape %12 [[0, 1], [2, 3]] output_shape [4, 8, 2, 4] : tensor<32x8xf32> into tensor<4x8x2x4xf32>
    %13 = tensor.empty() : tensor<4x2x8x4xf32>
    %transposed_11 = linalg.transpose ins(%expanded_10 : tensor<4x8x2x4xf32>) outs(%13 : tensor<4x2x8x4xf32>) permutation = [0, 2, 1, 3] 
    %transposed_12 = linalg.transpose ins(%arg6 : tensor<8x16xf32>) outs(%7 : tensor<16x8xf32>) permutation = [1, 0] 
    %14 = linalg.matmul ins(%collapsed, %transposed_12 : tensor<32x16xf32>, tensor<16x8xf32>) outs(%9 : tensor<32x8xf32>) -> tensor<32x8xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg7 : tensor<8xf32>) outs(%8 : tensor<32x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<32x8xf32>
    %16 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%14, %15 : tensor<32x8xf32>, tensor<32x8xf32>) outs(%8 : tensor<32x8xf32>) {
    ^bb0(%in: f32, %in_29: f32, %out: f32):
      %69 = arith.addf %in, %in_29 : f32
      linalg.yield %69 : f32
    } -> tensor<32x8xf32>
    %expanded_13 = tensor.expand_shape %16 [[0, 1], [2, 3]] output_shape [4, 8, 2, 4] : tensor<32x8xf32> into tensor<4x8x2x4xf32>
    %transposed_14 = linalg.transpose ins(%expanded_13 : tensor<4x8x2x4xf32>) outs(%13 : tensor<4x2x8x4xf32>) permutation = [0, 2, 1, 3] 
    %17 = tensor.empty() : tensor<4x2x2x8x4xf32>
    %18 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_11 : tensor<4x2x8x4xf32>) outs(%17 : tensor<4x2x2x8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x2x2x8x4xf32>
    %collapsed_15 = tensor.collapse_shape %18 [[0], [1, 2], [3], [4]] : tensor<4x2x2x8x4xf32> into tensor<4x4x8x4xf32>
    %19 = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%transposed_14 : tensor<4x2x8x4xf32>) outs(%17 : tensor<4x2x2x8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x2x2x8x4xf32>
    %20 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_8 : tensor<4x4x8x4xf32>) outs(%6 : tensor<4x4x8x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %69 = arith.truncf %cst_6 : f64 to f32
      %70 = arith.mulf %in, %69 : f32
      linalg.yield %70 : f32
    } -> tensor<4x4x8x4xf32>
    %21 = tensor.empty() : tensor<8xi64>
    %22 = linalg.generic {indexing_maps = [#map5], iterator_types = ["parallel"]} outs(%21 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %69 = linalg.index 0 : index
      %70 = arith.index_cast %69 : index to i64
      linalg.yield %70 : i64
    } -> tensor<8xi64>
    %expanded_16 = tensor.expand_shape %22 [[0, 1]] output_shape [1, 8] : tensor<8xi64> into tensor<1x8xi64>
    %expanded_17 = tensor.expand_shape %22 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %23 = tensor.empty() : tensor<8x8xi64>
    %24 = linalg.generic {indexing_maps = [#map6, #map7, #map1], iterator_types = ["parallel", "parallel"]} ins(%expanded_16, %expanded_17 : tensor<1x8xi64>, tensor<8x1xi64>) outs(%23 : tensor<8x8xi64>) {
    ^bb0(%in: i64, %in_29: i64, %out: i64):
      %69 = arith.subi %in, %in_29 : i64
      linalg.yield %69 : i64
    } -> tensor<8x8xi64>
    %25 = tensor.empty() : tensor<8x8xi1>
    %26 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%24 : tensor<8x8xi64>) outs(%25 : tensor<8x8xi1>) {
    ^bb0(%in: i64, %out: i1):
      %69 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %69 : i1
    } -> tensor<8x8xi1>
    %27 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%26, %cst_4 : tensor<8x8xi1>, tensor<8x8xi1>) outs(%25 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %in_29: i1, %out: i1):
      %69 = arith.andi %in, %in_29 : i1
      linalg.yield %69 : i1
    } -> tensor<8x8xi1>
    %28 = tensor.empty() : tensor<8x8xf32>
    %29 = linalg.generic {indexing_maps = [#map1, #map8, #map8, #map1], iterator_types = ["parallel", "parallel"]} ins(%27, %cst_2, %cst_3 : tensor<8x8xi1>, tensor<f32>, tensor<f32>) outs(%28 : tensor<8x8xf32>) {
    ^bb0(%in: i1, %in_29: f32, %in_30: f32, %out: f32):
      %69 = arith.select %in, %in_29, %in_30 : f32
      linalg.yield %69 : f32
    } -> tensor<8x8xf32>
    %30 = tensor.empty() : tensor<4x4x4x8xf32>
    %transposed_18 = linalg.transpose ins(%collapsed_15 : tensor<4x4x8x4xf32>) outs(%30 : tensor<4x4x4x8xf32>) permutation = [0, 1, 3, 2] 
    %31 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_18 : tensor<4x4x4x8xf32>) outs(%30 : tensor<4x4x4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %69 = arith.truncf %cst_6 : f64 to f32
      %70 = arith.mulf %in, %69 : f32
      linalg.yield %70 : f32
    } -> tensor<4x4x4x8xf32>
    %collapsed_19 = tensor.collapse_shape %20 [[0, 1], [2], [3]] : tensor<4x4x8x4xf32> into tensor<16x8x4xf32>
    %collapsed_20 = tensor.collapse_shape %31 [[0, 1], [2], [3]] : tensor<4x4x4x8xf32> into tensor<16x4x8xf32>
    %32 = tensor.empty() : tensor<16x8x8xf32>
    %33 = linalg.fill ins(%cst : f32) outs(%32 : tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %34 = linalg.batch_matmul ins(%collapsed_19, %collapsed_20 : tensor<16x8x4xf32>, tensor<16x4x8xf32>) outs(%33 : tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
    %expanded_21 = tensor.expand_shape %34 [[0, 1], [2], [3]] output_shape [4, 4, 8, 8] : tensor<16x8x8xf32> into tensor<4x4x8x8xf32>
    %35 = tensor.empty() : tensor<4x4x8x8xf32>
    %36 = linalg.generic {indexing_maps = [#map4, #map9, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_21, %29 : tensor<4x4x8x8xf32>, tensor<8x8xf32>) outs(%35 : tensor<4x4x8x8xf32>) {
    ^bb0(%in: f32, %in_29: f32, %out: f32):
      %69 = arith.addf %in, %in_29 : f32
      linalg.yield %69 : f32
    } -> tensor<4x4x8x8xf32>
    %37 = tensor.empty() : tensor<4x4x8xi64>
    %38 = linalg.fill ins(%c0_i64 : i64) outs(%37 : tensor<4x4x8xi64>) -> tensor<4x4x8xi64>
    %39 = tensor.empty() : tensor<4x4x8xf32>
    %40 = linalg.fill ins(%cst_0 : f32) outs(%39 : tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
    %41:2 = linalg.generic {indexing_maps = [#map4, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%36 : tensor<4x4x8x8xf32>) outs(%40, %38 : tensor<4x4x8xf32>, tensor<4x4x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_29: i64):
      %69 = linalg.index 3 : index
      %70 = arith.index_cast %69 : index to i64
      %71 = arith.maximumf %in, %out : f32
      %72 = arith.cmpf ogt, %in, %out : f32
      %73 = arith.select %72, %70, %out_29 : i64
      linalg.yield %71, %73 : f32, i64
    } -> (tensor<4x4x8xf32>, tensor<4x4x8xi64>)
    %expanded_22 = tensor.expand_shape %41#0 [[0], [1], [2, 3]] output_shape [4, 4, 8, 1] : tensor<4x4x8xf32> into tensor<4x4x8x1xf32>
    %42 = linalg.generic {indexing_maps = [#map4, #map11, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36, %expanded_22 : tensor<4x4x8x8xf32>, tensor<4x4x8x1xf32>) outs(%35 : tensor<4x4x8x8xf32>) {
    ^bb0(%in: f32, %in_29: f32, %out: f32):
      %69 = arith.subf %in, %in_29 : f32
      linalg.yield %69 : f32
    } -> tensor<4x4x8x8xf32>
    %43 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42 : tensor<4x4x8x8xf32>) outs(%35 : tensor<4x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %69 = math.exp %in : f32
      linalg.yield %69 : f32
    } -> tensor<4x4x8x8xf32>
    %44 = tensor.empty() : tensor<4x4x8x1xf32>
    %45 = linalg.fill ins(%cst : f32) outs(%44 : tensor<4x4x8x1xf32>) -> tensor<4x4x8x1xf32>
    %46 = linalg.generic {indexing_maps = [#map4, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%43 : tensor<4x4x8x8xf32>) outs(%45 : tensor<4x4x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %69 = arith.addf %in, %out : f32
      linalg.yield %69 : f32
    } -> tensor<4x4x8x1xf32>
    %47 = linalg.generic {indexing_maps = [#map4, #map11, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43, %46 : tensor<4x4x8x8xf32>, tensor<4x4x8x1xf32>) outs(%35 : tensor<4x4x8x8xf32>) {
    ^bb0(%in: f32, %in_29: f32, %out: f32):
      %69 = arith.divf %in, %in_29 : f32
      linalg.yield %69 : f32
    } -> tensor<4x4x8x8xf32>
    %48 = tensor.empty() : tensor<4x4x8x8xi1>
    %49 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36 : tensor<4x4x8x8xf32>) outs(%48 : tensor<4x4x8x8xi1>) {
    ^bb0(%in: f32, %out: i1):
      %69 = arith.extf %in : f32 to f64
      %70 = arith.cmpf oeq, %69, %cst_5 : f64
      linalg.yield %70 : i1
    } -> tensor<4x4x8x8xi1>
    %50 = tensor.empty() : tensor<4x4x8x1xi1>
    %51 = linalg.fill ins(%true : i1) outs(%50 : tensor<4x4x8x1xi1>) -> tensor<4x4x8x1xi1>
    %52 = linalg.generic {indexing_maps = [#map4, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%49 : tensor<4x4x8x8xi1>) outs(%51 : tensor<4x4x8x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %69 = arith.andi %in, %out : i1
      linalg.yield %69 : i1
    } -> tensor<4x4x8x1xi1>
    %53 = linalg.generic {indexing_maps = [#map11, #map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%52, %cst_1, %47 : tensor<4x4x8x1xi1>, tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) outs(%35 : tensor<4x4x8x8xf32>) {
    ^bb0(%in: i1, %in_29: f32, %in_30: f32, %out: f32):
      %69 = arith.select %in, %in_29, %in_30 : f32
      linalg.yield %69 : f32
    } -> tensor<4x4x8x8xf32>
    %collapsed_23 = tensor.collapse_shape %53 [[0, 1], [2], [3]] : tensor<4x4x8x8xf32> into tensor<16x8x8xf32>
    %collapsed_24 = tensor.collapse_shape %19 [[0, 1, 2], [3], [4]] : tensor<4x2x2x8x4xf32> into tensor<16x8x4xf32>
    %54 = tensor.empty() : tensor<16x8x4xf32>
    %55 = linalg.fill ins(%cst : f32) outs(%54 : tensor<16x8x4xf32>) -> tensor<16x8x4xf32>
    %56 = linalg.batch_matmul ins(%collapsed_23, %collapsed_24 : tensor<16x8x8xf32>, tensor<16x8x4xf32>) outs(%55 : tensor<16x8x4xf32>) -> tensor<16x8x4xf32>
    %expanded_25 = tensor.expand_shape %56 [[0, 1], [2], [3]] output_shape [4, 4, 8, 4] : tensor<16x8x4xf32> into tensor<4x4x8x4xf32>
    %57 = tensor.empty() : tensor<4x8x4x4xf32>
    %transposed_26 = linalg.transpose ins(%expanded_25 : tensor<4x4x8x4xf32>) outs(%57 : tensor<4x8x4x4xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_27 = tensor.collapse_shape %transposed_26 [[0], [1], [2, 3]] : tensor<4x8x4x4xf32> into tensor<4x8x16xf32>
    %transposed_28 = linalg.transpose ins(%arg8 : tensor<16x16xf32>) outs(%0 : tensor<16x16xf32>) permutation = [1, 0] 
    %58 = tensor.empty() : tensor<4x16x16xf32>
    %59 = linalg.generic {indexing_maps = [#map12, #map13], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_28 : tensor<16x16xf32>) outs(%58 : tensor<4x16x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x16x16xf32>
    %60 = tensor.empty() : tensor<4x8x16xf32>
    %61 = linalg.fill ins(%cst : f32) outs(%60 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %62 = linalg.batch_matmul ins(%collapsed_27, %59 : tensor<4x8x16xf32>, tensor<4x16x16xf32>) outs(%61 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %63 = linalg.generic {indexing_maps = [#map13, #map14, #map13], iterator_types = ["parallel", "parallel", "parallel"]} ins(%62, %arg9 : tensor<4x8x16xf32>, tensor<16xf32>) outs(%60 : tensor<4x8x16xf32>) {
    ^bb0(%in: f32, %in_29: f32, %out: f32):
      %69 = arith.addf %in, %in_29 : f32
      linalg.yield %69 : f32
    } -> tensor<4x8x16xf32>
    %64 = linalg.generic {indexing_maps = [#map13, #map13, #map13], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63, %arg1 : tensor<4x8x16xf32>, tensor<4x8x16xf32>) outs(%60 : tensor<4x8x16xf32>) {
    ^bb0(%in: f32, %in_29: f32, %out: f32):
      %69 = arith.mulf %in, %in_29 : f32
      linalg.yield %69 : f32
    } -> tensor<4x8x16xf32>
    %65 = tensor.empty() : tensor<f32>
    %66 = linalg.fill ins(%cst : f32) outs(%65 : tensor<f32>) -> tensor<f32>
    %67 = linalg.generic {indexing_maps = [#map13, #map15], iterator_types = ["reduction", "reduction", "reduction"]} ins(%64 : tensor<4x8x16xf32>) outs(%66 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %69 = arith.addf %in, %out : f32
      linalg.yield %69 : f32
    } -> tensor<f32>
    %68 = linalg.generic {indexing_maps = [#map16, #map16], iterator_types = []} ins(%67 : tensor<f32>) outs(%65 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %69 = arith.divf %in, %cst_7 : f32
      linalg.yield %69 : f32
    } -> tensor<f32>
    return %68, %63 : tensor<f32>, tensor<4x8x16xf32>
  }
}
