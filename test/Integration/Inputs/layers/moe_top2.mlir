// moe_top2: examples/export/export_layers.py --models moe_top2
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
#map3 = affine_map<(d0, d1, d2) -> (d0)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2) -> ()>
#map6 = affine_map<() -> ()>
module {
  func.func @moe_top2(%arg0: tensor<8x4x16xf32> {summa.name = "x"}, %arg1: tensor<8x4x16xf32> {summa.name = "r"}, %arg2: tensor<4x16x32xf32> {summa.name = "layer.w1"}, %arg3: tensor<4x32x16xf32> {summa.name = "layer.w2"}, %arg4: tensor<4x16xf32> {summa.name = "layer.router.weight"}) -> (tensor<f32>, tensor<8x4x16xf32>) {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %c4_i64 = arith.constant 4 : i64
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant dense<0.000000e+00> : tensor<32x16xf32>
    %cst_3 = arith.constant 5.120000e+02 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<8x4x16xf32> into tensor<32x16xf32>
    %0 = tensor.empty() : tensor<16x4xf32>
    %transposed = linalg.transpose ins(%arg4 : tensor<4x16xf32>) outs(%0 : tensor<16x4xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<32x4xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<32x4xf32>) -> tensor<32x4xf32>
    %3 = linalg.matmul ins(%collapsed, %transposed : tensor<32x16xf32>, tensor<16x4xf32>) outs(%2 : tensor<32x4xf32>) -> tensor<32x4xf32>
    %4 = tensor.empty() : tensor<32xi64>
    %5 = linalg.fill ins(%c0_i64 : i64) outs(%4 : tensor<32xi64>) -> tensor<32xi64>
    %6 = tensor.empty() : tensor<32xf32>
    %7 = linalg.fill ins(%cst_0 : f32) outs(%6 : tensor<32xf32>) -> tensor<32xf32>
    %8:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%3 : tensor<32x4xf32>) outs(%7, %5 : tensor<32xf32>, tensor<32xi64>) {
    ^bb0(%in: f32, %out: f32, %out_15: i64):
      %50 = linalg.index 1 : index
      %51 = arith.index_cast %50 : index to i64
      %52 = arith.maximumf %in, %out : f32
      %53 = arith.cmpf ogt, %in, %out : f32
      %54 = arith.select %53, %51, %out_15 : i64
      linalg.yield %52, %54 : f32, i64
    } -> (tensor<32xf32>, tensor<32xi64>)
    %expanded = tensor.expand_shape %8#0 [[0, 1]] output_shape [32, 1] : tensor<32xf32> into tensor<32x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %expanded : tensor<32x4xf32>, tensor<32x1xf32>) outs(%1 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %50 = arith.subf %in, %in_15 : f32
      linalg.yield %50 : f32
    } -> tensor<32x4xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<32x4xf32>) outs(%1 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %50 = math.exp %in : f32
      linalg.yield %50 : f32
    } -> tensor<32x4xf32>
    %11 = tensor.empty() : tensor<32x1xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<32x1xf32>) -> tensor<32x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%10 : tensor<32x4xf32>) outs(%12 : tensor<32x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %50 = arith.addf %in, %out : f32
      linalg.yield %50 : f32
    } -> tensor<32x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%10, %13 : tensor<32x4xf32>, tensor<32x1xf32>) outs(%1 : tensor<32x4xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %50 = arith.divf %in, %in_15 : f32
      linalg.yield %50 : f32
    } -> tensor<32x4xf32>
    %15 = tensor.empty() : tensor<32x4xi64>
    %16 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%15 : tensor<32x4xi64>) {
    ^bb0(%out: i64):
      %50 = linalg.index 1 : index
      %51 = arith.index_cast %50 : index to i64
      linalg.yield %51 : i64
    } -> tensor<32x4xi64>
    %17:2 = tm_tensor.sort dimension(1) outs(%14, %16 : tensor<32x4xf32>, tensor<32x4xi64>) {
    ^bb0(%arg5: f32, %arg6: f32, %arg7: i64, %arg8: i64):
      %50 = arith.cmpf oge, %arg5, %arg6 : f32
      tm_tensor.yield %50 : i1
    } -> tensor<32x4xf32>, tensor<32x4xi64>
    %extracted_slice = tensor.extract_slice %17#0[0, 0] [32, 2] [1, 1] : tensor<32x4xf32> to tensor<32x2xf32>
    %extracted_slice_4 = tensor.extract_slice %17#1[0, 0] [32, 2] [1, 1] : tensor<32x4xi64> to tensor<32x2xi64>
    %18 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%extracted_slice : tensor<32x2xf32>) outs(%12 : tensor<32x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %50 = arith.addf %in, %out : f32
      linalg.yield %50 : f32
    } -> tensor<32x1xf32>
    %19 = tensor.empty() : tensor<32x2xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice, %18 : tensor<32x2xf32>, tensor<32x1xf32>) outs(%19 : tensor<32x2xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %50 = arith.divf %in, %in_15 : f32
      linalg.yield %50 : f32
    } -> tensor<32x2xf32>
    %extracted_slice_5 = tensor.extract_slice %extracted_slice_4[0, 0] [32, 1] [1, 1] : tensor<32x2xi64> to tensor<32x1xi64>
    %collapsed_6 = tensor.collapse_shape %extracted_slice_5 [[0, 1]] : tensor<32x1xi64> into tensor<32xi64>
    %21 = tensor.empty() : tensor<32x16x32xf32>
    %22 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_6 : tensor<32xi64>) outs(%21 : tensor<32x16x32xf32>) {
    ^bb0(%in: i64, %out: f32):
      %50 = arith.cmpi slt, %in, %c0_i64 : i64
      %51 = arith.addi %in, %c4_i64 : i64
      %52 = arith.select %50, %51, %in : i64
      %53 = arith.index_cast %52 : i64 to index
      %54 = linalg.index 1 : index
      %55 = linalg.index 2 : index
      %extracted = tensor.extract %arg2[%53, %54, %55] : tensor<4x16x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<32x16x32xf32>
    %23 = tensor.empty() : tensor<32x32x16xf32>
    %24 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_6 : tensor<32xi64>) outs(%23 : tensor<32x32x16xf32>) {
    ^bb0(%in: i64, %out: f32):
      %50 = arith.cmpi slt, %in, %c0_i64 : i64
      %51 = arith.addi %in, %c4_i64 : i64
      %52 = arith.select %50, %51, %in : i64
      %53 = arith.index_cast %52 : i64 to index
      %54 = linalg.index 1 : index
      %55 = linalg.index 2 : index
      %extracted = tensor.extract %arg3[%53, %54, %55] : tensor<4x32x16xf32>
      linalg.yield %extracted : f32
    } -> tensor<32x32x16xf32>
    %expanded_7 = tensor.expand_shape %collapsed [[0], [1, 2]] output_shape [32, 1, 16] : tensor<32x16xf32> into tensor<32x1x16xf32>
    %25 = tensor.empty() : tensor<32x1x32xf32>
    %26 = linalg.fill ins(%cst : f32) outs(%25 : tensor<32x1x32xf32>) -> tensor<32x1x32xf32>
    %27 = linalg.batch_matmul ins(%expanded_7, %22 : tensor<32x1x16xf32>, tensor<32x16x32xf32>) outs(%26 : tensor<32x1x32xf32>) -> tensor<32x1x32xf32>
    %28 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%27 : tensor<32x1x32xf32>) outs(%25 : tensor<32x1x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %50 = arith.negf %in : f32
      %51 = math.exp %50 : f32
      %52 = arith.addf %51, %cst_1 : f32
      %53 = arith.divf %cst_1, %52 : f32
      linalg.yield %53 : f32
    } -> tensor<32x1x32xf32>
    %29 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%27, %28 : tensor<32x1x32xf32>, tensor<32x1x32xf32>) outs(%25 : tensor<32x1x32xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %50 = arith.mulf %in, %in_15 : f32
      linalg.yield %50 : f32
    } -> tensor<32x1x32xf32>
    %extracted_slice_8 = tensor.extract_slice %20[0, 0] [32, 1] [1, 1] : tensor<32x2xf32> to tensor<32x1xf32>
    %30 = tensor.empty() : tensor<32x1x16xf32>
    %31 = linalg.fill ins(%cst : f32) outs(%30 : tensor<32x1x16xf32>) -> tensor<32x1x16xf32>
    %32 = linalg.batch_matmul ins(%29, %24 : tensor<32x1x32xf32>, tensor<32x32x16xf32>) outs(%31 : tensor<32x1x16xf32>) -> tensor<32x1x16xf32>
    %collapsed_9 = tensor.collapse_shape %32 [[0, 1], [2]] : tensor<32x1x16xf32> into tensor<32x16xf32>
    %33 = tensor.empty() : tensor<32x16xf32>
    %34 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_8, %collapsed_9 : tensor<32x1xf32>, tensor<32x16xf32>) outs(%33 : tensor<32x16xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %50 = arith.mulf %in, %in_15 : f32
      linalg.yield %50 : f32
    } -> tensor<32x16xf32>
    %35 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%cst_2, %34 : tensor<32x16xf32>, tensor<32x16xf32>) outs(%33 : tensor<32x16xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %50 = arith.addf %in, %in_15 : f32
      linalg.yield %50 : f32
    } -> tensor<32x16xf32>
    %extracted_slice_10 = tensor.extract_slice %extracted_slice_4[0, 1] [32, 1] [1, 1] : tensor<32x2xi64> to tensor<32x1xi64>
    %collapsed_11 = tensor.collapse_shape %extracted_slice_10 [[0, 1]] : tensor<32x1xi64> into tensor<32xi64>
    %36 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_11 : tensor<32xi64>) outs(%21 : tensor<32x16x32xf32>) {
    ^bb0(%in: i64, %out: f32):
      %50 = arith.cmpi slt, %in, %c0_i64 : i64
      %51 = arith.addi %in, %c4_i64 : i64
      %52 = arith.select %50, %51, %in : i64
      %53 = arith.index_cast %52 : i64 to index
      %54 = linalg.index 1 : index
      %55 = linalg.index 2 : index
      %extracted = tensor.extract %arg2[%53, %54, %55] : tensor<4x16x32xf32>
      linalg.yield %extracted : f32
    } -> tensor<32x16x32xf32>
    %37 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_11 : tensor<32xi64>) outs(%23 : tensor<32x32x16xf32>) {
    ^bb0(%in: i64, %out: f32):
      %50 = arith.cmpi slt, %in, %c0_i64 : i64
      %51 = arith.addi %in, %c4_i64 : i64
      %52 = arith.select %50, %51, %in : i64
      %53 = arith.index_cast %52 : i64 to index
      %54 = linalg.index 1 : index
      %55 = linalg.index 2 : index
      %extracted = tensor.extract %arg3[%53, %54, %55] : tensor<4x32x16xf32>
      linalg.yield %extracted : f32
    } -> tensor<32x32x16xf32>
    %38 = linalg.batch_matmul ins(%expanded_7, %36 : tensor<32x1x16xf32>, tensor<32x16x32xf32>) outs(%26 : tensor<32x1x32xf32>) -> tensor<32x1x32xf32>
    %39 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%38 : tensor<32x1x32xf32>) outs(%25 : tensor<32x1x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %50 = arith.negf %in : f32
      %51 = math.exp %50 : f32
      %52 = arith.addf %51, %cst_1 : f32
      %53 = arith.divf %cst_1, %52 : f32
      linalg.yield %53 : f32
    } -> tensor<32x1x32xf32>
    %40 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%38, %39 : tensor<32x1x32xf32>, tensor<32x1x32xf32>) outs(%25 : tensor<32x1x32xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %50 = arith.mulf %in, %in_15 : f32
      linalg.yield %50 : f32
    } -> tensor<32x1x32xf32>
    %extracted_slice_12 = tensor.extract_slice %20[0, 1] [32, 1] [1, 1] : tensor<32x2xf32> to tensor<32x1xf32>
    %41 = linalg.batch_matmul ins(%40, %37 : tensor<32x1x32xf32>, tensor<32x32x16xf32>) outs(%31 : tensor<32x1x16xf32>) -> tensor<32x1x16xf32>
    %collapsed_13 = tensor.collapse_shape %41 [[0, 1], [2]] : tensor<32x1x16xf32> into tensor<32x16xf32>
    %42 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%extracted_slice_12, %collapsed_13 : tensor<32x1xf32>, tensor<32x16xf32>) outs(%33 : tensor<32x16xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %50 = arith.mulf %in, %in_15 : f32
      linalg.yield %50 : f32
    } -> tensor<32x16xf32>
    %43 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%35, %42 : tensor<32x16xf32>, tensor<32x16xf32>) outs(%33 : tensor<32x16xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %50 = arith.addf %in, %in_15 : f32
      linalg.yield %50 : f32
    } -> tensor<32x16xf32>
    %expanded_14 = tensor.expand_shape %43 [[0, 1], [2]] output_shape [8, 4, 16] : tensor<32x16xf32> into tensor<8x4x16xf32>
    %44 = tensor.empty() : tensor<8x4x16xf32>
    %45 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_14, %arg1 : tensor<8x4x16xf32>, tensor<8x4x16xf32>) outs(%44 : tensor<8x4x16xf32>) {
    ^bb0(%in: f32, %in_15: f32, %out: f32):
      %50 = arith.mulf %in, %in_15 : f32
      linalg.yield %50 : f32
    } -> tensor<8x4x16xf32>
    %46 = tensor.empty() : tensor<f32>
    %47 = linalg.fill ins(%cst : f32) outs(%46 : tensor<f32>) -> tensor<f32>
    %48 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["reduction", "reduction", "reduction"]} ins(%45 : tensor<8x4x16xf32>) outs(%47 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %50 = arith.addf %in, %out : f32
      linalg.yield %50 : f32
    } -> tensor<f32>
    %49 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = []} ins(%48 : tensor<f32>) outs(%46 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %50 = arith.divf %in, %cst_3 : f32
      linalg.yield %50 : f32
    } -> tensor<f32>
    return %49, %expanded_14 : tensor<f32>, tensor<8x4x16xf32>
  }
}
