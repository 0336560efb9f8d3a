// vit_b2: examples/export/export_layers.py --models vit_b2
#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
#map3 = affine_map<(d0) -> (d0)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map7 = affine_map<(d0, d1, d2) -> (d2)>
#map8 = affine_map<(d0, d1) -> (d1)>
#map9 = affine_map<(d0, d1) -> (d0, d1)>
#map10 = affine_map<(d0, d1, d2, d3) -> ()>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
#map12 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map13 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#map14 = affine_map<(d0, d1) -> (d0)>
#map15 = affine_map<(d0, d1) -> (d0, 0)>
#map16 = affine_map<(d0) -> ()>
#map17 = affine_map<() -> ()>
module {
  func.func @vit_b2(%arg0: tensor<2x3x8x8xf32> {summa.name = "pixel_values"}, %arg1: tensor<2xi64> {summa.name = "labels"}, %arg2: tensor<1x1x32xf32> {summa.name = "model.vit.embeddings.cls_token"}, %arg3: tensor<1x5x32xf32> {summa.name = "model.vit.embeddings.position_embeddings"}, %arg4: tensor<32x3x4x4xf32> {summa.name = "model.vit.embeddings.patch_embeddings.projection.weight"}, %arg5: tensor<32xf32> {summa.name = "model.vit.embeddings.patch_embeddings.projection.bias"}, %arg6: tensor<32x32xf32> {summa.name = "model.vit.layers.0.attention.q_proj.weight"}, %arg7: tensor<32xf32> {summa.name = "model.vit.layers.0.attention.q_proj.bias"}, %arg8: tensor<32x32xf32> {summa.name = "model.vit.layers.0.attention.k_proj.weight"}, %arg9: tensor<32xf32> {summa.name = "model.vit.layers.0.attention.k_proj.bias"}, %arg10: tensor<32x32xf32> {summa.name = "model.vit.layers.0.attention.v_proj.weight"}, %arg11: tensor<32xf32> {summa.name = "model.vit.layers.0.attention.v_proj.bias"}, %arg12: tensor<32x32xf32> {summa.name = "model.vit.layers.0.attention.o_proj.weight"}, %arg13: tensor<32xf32> {summa.name = "model.vit.layers.0.attention.o_proj.bias"}, %arg14: tensor<32xf32> {summa.name = "model.vit.layers.0.layernorm_before.weight"}, %arg15: tensor<32xf32> {summa.name = "model.vit.layers.0.layernorm_before.bias"}, %arg16: tensor<32xf32> {summa.name = "model.vit.layers.0.layernorm_after.weight"}, %arg17: tensor<32xf32> {summa.name = "model.vit.layers.0.layernorm_after.bias"}, %arg18: tensor<64x32xf32> {summa.name = "model.vit.layers.0.mlp.fc1.weight"}, %arg19: tensor<64xf32> {summa.name = "model.vit.layers.0.mlp.fc1.bias"}, %arg20: tensor<32x64xf32> {summa.name = "model.vit.layers.0.mlp.fc2.weight"}, %arg21: tensor<32xf32> {summa.name = "model.vit.layers.0.mlp.fc2.bias"}, %arg22: tensor<32x32xf32> {summa.name = "model.vit.layers.1.attention.q_proj.weight"}, %arg23: tensor<32xf32> {summa.name = "model.vit.layers.1.attention.q_proj.bias"}, %arg24: tensor<32x32xf32> {summa.name = "model.vit.layers.1.attention.k_proj.weight"}, %arg25: tensor<32xf32> {summa.name = "model.vit.layers.1.attention.k_proj.bias"}, %arg26: tensor<32x32xf32> {summa.name = "model.vit.layers.1.attention.v_proj.weight"}, %arg27: tensor<32xf32> {summa.name = "model.vit.layers.1.attention.v_proj.bias"}, %arg28: tensor<32x32xf32> {summa.name = "model.vit.layers.1.attention.o_proj.weight"}, %arg29: tensor<32xf32> {summa.name = "model.vit.layers.1.attention.o_proj.bias"}, %arg30: tensor<32xf32> {summa.name = "model.vit.layers.1.layernorm_before.weight"}, %arg31: tensor<32xf32> {summa.name = "model.vit.layers.1.layernorm_before.bias"}, %arg32: tensor<32xf32> {summa.name = "model.vit.layers.1.layernorm_after.weight"}, %arg33: tensor<32xf32> {summa.name = "model.vit.layers.1.layernorm_after.bias"}, %arg34: tensor<64x32xf32> {summa.name = "model.vit.layers.1.mlp.fc1.weight"}, %arg35: tensor<64xf32> {summa.name = "model.vit.layers.1.mlp.fc1.bias"}, %arg36: tensor<32x64xf32> {summa.name = "model.vit.layers.1.mlp.fc2.weight"}, %arg37: tensor<32xf32> {summa.name = "model.vit.layers.1.mlp.fc2.bias"}, %arg38: tensor<32xf32> {summa.name = "model.vit.layernorm.weight"}, %arg39: tensor<32xf32> {summa.name = "model.vit.layernorm.bias"}, %arg40: tensor<3x32xf32> {summa.name = "model.classifier.weight"}, %arg41: tensor<3xf32> {summa.name = "model.classifier.bias"}) -> (tensor<f32>, tensor<2x3xf32>) {
    %c-100_i64 = arith.constant -100 : i64
    %c0_i64 = arith.constant 0 : i64
    %c3 = arith.constant 3 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f64
    %cst_1 = arith.constant 0xFF800000 : f32
    %true = arith.constant true
    %cst_2 = arith.constant 1.000000e+00 : f32
    %cst_3 = arith.constant 5.000000e-01 : f32
    %cst_4 = arith.constant dense<0.000000e+00> : tensor<2x4x5x5xf32>
    %cst_5 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_6 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_7 = arith.constant 0.59460355750136051 : f64
    %cst_8 = arith.constant 0xFFF0000000000000 : f64
    %cst_9 = arith.constant 9.9999999999999998E-13 : f64
    %cst_10 = arith.constant 3.200000e+01 : f64
    %cst_11 = arith.constant 3.200000e+01 : f32
    %cst_12 = arith.constant 1.41421354 : f32
    %cst_13 = arith.constant dense<0> : tensor<i64>
    %0 = tensor.empty() : tensor<2x32x2x2xf32>
    %broadcasted = linalg.broadcast ins(%arg5 : tensor<32xf32>) outs(%0 : tensor<2x32x2x2xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<4> : vector<2xi64>} ins(%arg0, %arg4 : tensor<2x3x8x8xf32>, tensor<32x3x4x4xf32>) outs(%broadcasted : tensor<2x32x2x2xf32>) -> tensor<2x32x2x2xf32>
    %collapsed = tensor.collapse_shape %1 [[0], [1], [2, 3]] : tensor<2x32x2x2xf32> into tensor<2x32x4xf32>
    %2 = tensor.empty() : tensor<2x4x32xf32>
    %transposed = linalg.transpose ins(%collapsed : tensor<2x32x4xf32>) outs(%2 : tensor<2x4x32xf32>) permutation = [0, 2, 1] 
    %3 = tensor.empty() : tensor<2x1x32xf32>
    %collapsed_14 = tensor.collapse_shape %arg2 [[0, 1], [2]] : tensor<1x1x32xf32> into tensor<1x32xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_14 : tensor<1x32xf32>) outs(%3 : tensor<2x1x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x1x32xf32>
    %concat = tensor.concat dim(1) %4, %transposed : (tensor<2x1x32xf32>, tensor<2x4x32xf32>) -> tensor<2x5x32xf32>
    %5 = tensor.empty() : tensor<2x5x32xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%concat, %arg3 : tensor<2x5x32xf32>, tensor<1x5x32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %7 = tensor.empty() : tensor<5xi64>
    %8 = linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel"]} outs(%7 : tensor<5xi64>) {
    ^bb0(%out: i64):
      %227 = linalg.index 0 : index
      %228 = arith.index_cast %227 : index to i64
      linalg.yield %228 : i64
    } -> tensor<5xi64>
    %expanded = tensor.expand_shape %8 [[0, 1, 2, 3]] output_shape [1, 1, 5, 1] : tensor<5xi64> into tensor<1x1x5x1xi64>
    %9 = tensor.empty() : tensor<1x1x5x1xi1>
    %10 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<1x1x5x1xi64>) outs(%9 : tensor<1x1x5x1xi1>) {
    ^bb0(%in: i64, %out: i1):
      %227 = arith.cmpi sge, %in, %c0_i64 : i64
      linalg.yield %227 : i1
    } -> tensor<1x1x5x1xi1>
    %11 = tensor.empty() : tensor<2x1x5x5xi1>
    %collapsed_15 = tensor.collapse_shape %10 [[0, 1], [2, 3]] : tensor<1x1x5x1xi1> into tensor<1x5xi1>
    %12 = linalg.generic {indexing_maps = [#map5, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed_15 : tensor<1x5xi1>) outs(%11 : tensor<2x1x5x5xi1>) {
    ^bb0(%in: i1, %out: i1):
      linalg.yield %in : i1
    } -> tensor<2x1x5x5xi1>
    %13 = tensor.empty() : tensor<2x5x32xf64>
    %14 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<2x5x32xf32>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %227 = arith.extf %in : f32 to f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %15 = tensor.empty() : tensor<2x5x1xf64>
    %16 = linalg.fill ins(%cst_0 : f64) outs(%15 : tensor<2x5x1xf64>) -> tensor<2x5x1xf64>
    %17 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%14 : tensor<2x5x32xf64>) outs(%16 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.addf %in, %out : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %18 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%17 : tensor<2x5x1xf64>) outs(%15 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.divf %in, %cst_10 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %19 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%14, %18 : tensor<2x5x32xf64>, tensor<2x5x1xf64>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_73: f64, %out: f64):
      %227 = arith.subf %in, %in_73 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %20 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %19 : tensor<2x5x32xf64>, tensor<2x5x32xf64>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_73: f64, %out: f64):
      %227 = arith.mulf %in, %in_73 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %21 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%20 : tensor<2x5x32xf64>) outs(%16 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.addf %in, %out : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %22 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%21 : tensor<2x5x1xf64>) outs(%15 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.divf %in, %cst_10 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %23 = tensor.empty() : tensor<2x5x1xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22 : tensor<2x5x1xf64>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %227 = arith.truncf %in : f64 to f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %25 = linalg.fill ins(%cst : f32) outs(%23 : tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
    %26 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%6 : tensor<2x5x32xf32>) outs(%25 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.addf %in, %out : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %27 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%26 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.divf %in, %cst_11 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %28 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%24 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.truncf %cst_9 : f64 to f32
      %228 = arith.addf %in, %227 : f32
      linalg.yield %228 : f32
    } -> tensor<2x5x1xf32>
    %29 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%28 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = math.rsqrt %in : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %30 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %27 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.subf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %31 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%30, %29 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.mulf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %32 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%31, %arg14 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.mulf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %33 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%32, %arg15 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %collapsed_16 = tensor.collapse_shape %33 [[0, 1], [2]] : tensor<2x5x32xf32> into tensor<10x32xf32>
    %34 = tensor.empty() : tensor<32x32xf32>
    %transposed_17 = linalg.transpose ins(%arg6 : tensor<32x32xf32>) outs(%34 : tensor<32x32xf32>) permutation = [1, 0] 
    %35 = tensor.empty() : tensor<10x32xf32>
    %36 = linalg.fill ins(%cst : f32) outs(%35 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %37 = linalg.matmul ins(%collapsed_16, %transposed_17 : tensor<10x32xf32>, tensor<32x32xf32>) outs(%36 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %38 = linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel"]} ins(%arg7 : tensor<32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<10x32xf32>
    %39 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%37, %38 : tensor<10x32xf32>, tensor<10x32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<10x32xf32>
    %expanded_18 = tensor.expand_shape %39 [[0, 1], [2, 3]] output_shape [2, 5, 4, 8] : tensor<10x32xf32> into tensor<2x5x4x8xf32>
    %40 = tensor.empty() : tensor<2x4x5x8xf32>
    %transposed_19 = linalg.transpose ins(%expanded_18 : tensor<2x5x4x8xf32>) outs(%40 : tensor<2x4x5x8xf32>) permutation = [0, 2, 1, 3] 
    %transposed_20 = linalg.transpose ins(%arg8 : tensor<32x32xf32>) outs(%34 : tensor<32x32xf32>) permutation = [1, 0] 
    %41 = linalg.matmul ins(%collapsed_16, %transposed_20 : tensor<10x32xf32>, tensor<32x32xf32>) outs(%36 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %42 = linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel"]} ins(%arg9 : tensor<32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<10x32xf32>
    %43 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%41, %42 : tensor<10x32xf32>, tensor<10x32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<10x32xf32>
    %expanded_21 = tensor.expand_shape %43 [[0, 1], [2, 3]] output_shape [2, 5, 4, 8] : tensor<10x32xf32> into tensor<2x5x4x8xf32>
    %transposed_22 = linalg.transpose ins(%arg10 : tensor<32x32xf32>) outs(%34 : tensor<32x32xf32>) permutation = [1, 0] 
    %44 = linalg.matmul ins(%collapsed_16, %transposed_22 : tensor<10x32xf32>, tensor<32x32xf32>) outs(%36 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %45 = linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel"]} ins(%arg11 : tensor<32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<10x32xf32>
    %46 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%44, %45 : tensor<10x32xf32>, tensor<10x32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<10x32xf32>
    %expanded_23 = tensor.expand_shape %46 [[0, 1], [2, 3]] output_shape [2, 5, 4, 8] : tensor<10x32xf32> into tensor<2x5x4x8xf32>
    %transposed_24 = linalg.transpose ins(%expanded_23 : tensor<2x5x4x8xf32>) outs(%40 : tensor<2x4x5x8xf32>) permutation = [0, 2, 1, 3] 
    %47 = tensor.empty() : tensor<2x1x5x5xf32>
    %48 = linalg.generic {indexing_maps = [#map4, #map10, #map10, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %cst_5, %cst_6 : tensor<2x1x5x5xi1>, tensor<f32>, tensor<f32>) outs(%47 : tensor<2x1x5x5xf32>) {
    ^bb0(%in: i1, %in_73: f32, %in_74: f32, %out: f32):
      %227 = arith.select %in, %in_73, %in_74 : f32
      linalg.yield %227 : f32
    } -> tensor<2x1x5x5xf32>
    %49 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_19 : tensor<2x4x5x8xf32>) outs(%40 : tensor<2x4x5x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.truncf %cst_7 : f64 to f32
      %228 = arith.mulf %in, %227 : f32
      linalg.yield %228 : f32
    } -> tensor<2x4x5x8xf32>
    %50 = tensor.empty() : tensor<2x4x8x5xf32>
    %transposed_25 = linalg.transpose ins(%expanded_21 : tensor<2x5x4x8xf32>) outs(%50 : tensor<2x4x8x5xf32>) permutation = [0, 2, 3, 1] 
    %51 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_25 : tensor<2x4x8x5xf32>) outs(%50 : tensor<2x4x8x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.truncf %cst_7 : f64 to f32
      %228 = arith.mulf %in, %227 : f32
      linalg.yield %228 : f32
    } -> tensor<2x4x8x5xf32>
    %collapsed_26 = tensor.collapse_shape %49 [[0, 1], [2], [3]] : tensor<2x4x5x8xf32> into tensor<8x5x8xf32>
    %collapsed_27 = tensor.collapse_shape %51 [[0, 1], [2], [3]] : tensor<2x4x8x5xf32> into tensor<8x8x5xf32>
    %52 = tensor.empty() : tensor<8x5x5xf32>
    %53 = linalg.fill ins(%cst : f32) outs(%52 : tensor<8x5x5xf32>) -> tensor<8x5x5xf32>
    %54 = linalg.batch_matmul ins(%collapsed_26, %collapsed_27 : tensor<8x5x8xf32>, tensor<8x8x5xf32>) outs(%53 : tensor<8x5x5xf32>) -> tensor<8x5x5xf32>
    %expanded_28 = tensor.expand_shape %54 [[0, 1], [2], [3]] output_shape [2, 4, 5, 5] : tensor<8x5x5xf32> into tensor<2x4x5x5xf32>
    %55 = tensor.empty() : tensor<2x4x5x5xf32>
    %56 = linalg.generic {indexing_maps = [#map4, #map11, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_28, %48 : tensor<2x4x5x5xf32>, tensor<2x1x5x5xf32>) outs(%55 : tensor<2x4x5x5xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x5xf32>
    %57 = tensor.empty() : tensor<2x4x5xi64>
    %58 = linalg.fill ins(%c0_i64 : i64) outs(%57 : tensor<2x4x5xi64>) -> tensor<2x4x5xi64>
    %59 = tensor.empty() : tensor<2x4x5xf32>
    %60 = linalg.fill ins(%cst_1 : f32) outs(%59 : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
    %61:2 = linalg.generic {indexing_maps = [#map4, #map12, #map12], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%56 : tensor<2x4x5x5xf32>) outs(%60, %58 : tensor<2x4x5xf32>, tensor<2x4x5xi64>) {
    ^bb0(%in: f32, %out: f32, %out_73: i64):
      %227 = linalg.index 3 : index
      %228 = arith.index_cast %227 : index to i64
      %229 = arith.maximumf %in, %out : f32
      %230 = arith.cmpf ogt, %in, %out : f32
      %231 = arith.select %230, %228, %out_73 : i64
      linalg.yield %229, %231 : f32, i64
    } -> (tensor<2x4x5xf32>, tensor<2x4x5xi64>)
    %expanded_29 = tensor.expand_shape %61#0 [[0], [1], [2, 3]] output_shape [2, 4, 5, 1] : tensor<2x4x5xf32> into tensor<2x4x5x1xf32>
    %62 = linalg.generic {indexing_maps = [#map4, #map13, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%56, %expanded_29 : tensor<2x4x5x5xf32>, tensor<2x4x5x1xf32>) outs(%55 : tensor<2x4x5x5xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.subf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x5xf32>
    %63 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%62 : tensor<2x4x5x5xf32>) outs(%55 : tensor<2x4x5x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = math.exp %in : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x5xf32>
    %64 = tensor.empty() : tensor<2x4x5x1xf32>
    %65 = linalg.fill ins(%cst : f32) outs(%64 : tensor<2x4x5x1xf32>) -> tensor<2x4x5x1xf32>
    %66 = linalg.generic {indexing_maps = [#map4, #map13], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%63 : tensor<2x4x5x5xf32>) outs(%65 : tensor<2x4x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.addf %in, %out : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x1xf32>
    %67 = linalg.generic {indexing_maps = [#map4, #map13, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%63, %66 : tensor<2x4x5x5xf32>, tensor<2x4x5x1xf32>) outs(%55 : tensor<2x4x5x5xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.divf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x5xf32>
    %68 = tensor.empty() : tensor<2x4x5x5xi1>
    %69 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%56 : tensor<2x4x5x5xf32>) outs(%68 : tensor<2x4x5x5xi1>) {
    ^bb0(%in: f32, %out: i1):
      %227 = arith.extf %in : f32 to f64
      %228 = arith.cmpf oeq, %227, %cst_8 : f64
      linalg.yield %228 : i1
    } -> tensor<2x4x5x5xi1>
    %70 = tensor.empty() : tensor<2x4x5x1xi1>
    %71 = linalg.fill ins(%true : i1) outs(%70 : tensor<2x4x5x1xi1>) -> tensor<2x4x5x1xi1>
    %72 = linalg.generic {indexing_maps = [#map4, #map13], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%69 : tensor<2x4x5x5xi1>) outs(%71 : tensor<2x4x5x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %227 = arith.andi %in, %out : i1
      linalg.yield %227 : i1
    } -> tensor<2x4x5x1xi1>
    %73 = linalg.generic {indexing_maps = [#map13, #map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%72, %cst_4, %67 : tensor<2x4x5x1xi1>, tensor<2x4x5x5xf32>, tensor<2x4x5x5xf32>) outs(%55 : tensor<2x4x5x5xf32>) {
    ^bb0(%in: i1, %in_73: f32, %in_74: f32, %out: f32):
      %227 = arith.select %in, %in_73, %in_74 : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x5xf32>
    %collapsed_30 = tensor.collapse_shape %73 [[0, 1], [2], [3]] : tensor<2x4x5x5xf32> into tensor<8x5x5xf32>
    %collapsed_31 = tensor.collapse_shape %transposed_24 [[0, 1], [2], [3]] : tensor<2x4x5x8xf32> into tensor<8x5x8xf32>
    %74 = tensor.empty() : tensor<8x5x8xf32>
    %75 = linalg.fill ins(%cst : f32) outs(%74 : tensor<8x5x8xf32>) -> tensor<8x5x8xf32>
    %76 = linalg.batch_matmul ins(%collapsed_30, %collapsed_31 : tensor<8x5x5xf32>, tensor<8x5x8xf32>) outs(%75 : tensor<8x5x8xf32>) -> tensor<8x5x8xf32>
    %expanded_32 = tensor.expand_shape %76 [[0, 1], [2], [3]] output_shape [2, 4, 5, 8] : tensor<8x5x8xf32> into tensor<2x4x5x8xf32>
    %77 = tensor.empty() : tensor<2x5x4x8xf32>
    %transposed_33 = linalg.transpose ins(%expanded_32 : tensor<2x4x5x8xf32>) outs(%77 : tensor<2x5x4x8xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_34 = tensor.collapse_shape %transposed_33 [[0], [1], [2, 3]] : tensor<2x5x4x8xf32> into tensor<2x5x32xf32>
    %transposed_35 = linalg.transpose ins(%arg12 : tensor<32x32xf32>) outs(%34 : tensor<32x32xf32>) permutation = [1, 0] 
    %78 = tensor.empty() : tensor<2x32x32xf32>
    %79 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_35 : tensor<32x32xf32>) outs(%78 : tensor<2x32x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x32x32xf32>
    %80 = linalg.fill ins(%cst : f32) outs(%5 : tensor<2x5x32xf32>) -> tensor<2x5x32xf32>
    %81 = linalg.batch_matmul ins(%collapsed_34, %79 : tensor<2x5x32xf32>, tensor<2x32x32xf32>) outs(%80 : tensor<2x5x32xf32>) -> tensor<2x5x32xf32>
    %82 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%81, %arg13 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %83 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%82, %6 : tensor<2x5x32xf32>, tensor<2x5x32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %84 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%83 : tensor<2x5x32xf32>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %227 = arith.extf %in : f32 to f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %85 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%84 : tensor<2x5x32xf64>) outs(%16 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.addf %in, %out : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %86 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%85 : tensor<2x5x1xf64>) outs(%15 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.divf %in, %cst_10 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %87 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%84, %86 : tensor<2x5x32xf64>, tensor<2x5x1xf64>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_73: f64, %out: f64):
      %227 = arith.subf %in, %in_73 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %88 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%87, %87 : tensor<2x5x32xf64>, tensor<2x5x32xf64>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_73: f64, %out: f64):
      %227 = arith.mulf %in, %in_73 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %89 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%88 : tensor<2x5x32xf64>) outs(%16 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.addf %in, %out : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %90 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%89 : tensor<2x5x1xf64>) outs(%15 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.divf %in, %cst_10 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %91 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%90 : tensor<2x5x1xf64>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %227 = arith.truncf %in : f64 to f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %92 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%83 : tensor<2x5x32xf32>) outs(%25 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.addf %in, %out : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %93 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%92 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.divf %in, %cst_11 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %94 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%91 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.truncf %cst_9 : f64 to f32
      %228 = arith.addf %in, %227 : f32
      linalg.yield %228 : f32
    } -> tensor<2x5x1xf32>
    %95 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%94 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = math.rsqrt %in : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %96 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%83, %93 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.subf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %97 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%96, %95 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.mulf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %98 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%97, %arg16 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.mulf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %99 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%98, %arg17 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %collapsed_36 = tensor.collapse_shape %99 [[0, 1], [2]] : tensor<2x5x32xf32> into tensor<10x32xf32>
    %100 = tensor.empty() : tensor<32x64xf32>
    %transposed_37 = linalg.transpose ins(%arg18 : tensor<64x32xf32>) outs(%100 : tensor<32x64xf32>) permutation = [1, 0] 
    %101 = tensor.empty() : tensor<10x64xf32>
    %102 = linalg.fill ins(%cst : f32) outs(%101 : tensor<10x64xf32>) -> tensor<10x64xf32>
    %103 = linalg.matmul ins(%collapsed_36, %transposed_37 : tensor<10x32xf32>, tensor<32x64xf32>) outs(%102 : tensor<10x64xf32>) -> tensor<10x64xf32>
    %104 = linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel"]} ins(%arg19 : tensor<64xf32>) outs(%101 : tensor<10x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<10x64xf32>
    %105 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%103, %104 : tensor<10x64xf32>, tensor<10x64xf32>) outs(%101 : tensor<10x64xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<10x64xf32>
    %expanded_38 = tensor.expand_shape %105 [[0, 1], [2]] output_shape [2, 5, 64] : tensor<10x64xf32> into tensor<2x5x64xf32>
    %106 = tensor.empty() : tensor<2x5x64xf32>
    %107 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_38 : tensor<2x5x64xf32>) outs(%106 : tensor<2x5x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.divf %in, %cst_12 : f32
      %228 = math.erf %227 : f32
      %229 = arith.addf %228, %cst_2 : f32
      %230 = arith.mulf %229, %cst_3 : f32
      %231 = arith.mulf %in, %230 : f32
      linalg.yield %231 : f32
    } -> tensor<2x5x64xf32>
    %collapsed_39 = tensor.collapse_shape %107 [[0, 1], [2]] : tensor<2x5x64xf32> into tensor<10x64xf32>
    %108 = tensor.empty() : tensor<64x32xf32>
    %transposed_40 = linalg.transpose ins(%arg20 : tensor<32x64xf32>) outs(%108 : tensor<64x32xf32>) permutation = [1, 0] 
    %109 = linalg.matmul ins(%collapsed_39, %transposed_40 : tensor<10x64xf32>, tensor<64x32xf32>) outs(%36 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %110 = linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel"]} ins(%arg21 : tensor<32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<10x32xf32>
    %111 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%109, %110 : tensor<10x32xf32>, tensor<10x32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<10x32xf32>
    %expanded_41 = tensor.expand_shape %111 [[0, 1], [2]] output_shape [2, 5, 32] : tensor<10x32xf32> into tensor<2x5x32xf32>
    %112 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_41, %83 : tensor<2x5x32xf32>, tensor<2x5x32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %113 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%112 : tensor<2x5x32xf32>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %227 = arith.extf %in : f32 to f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %114 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%113 : tensor<2x5x32xf64>) outs(%16 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.addf %in, %out : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %115 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%114 : tensor<2x5x1xf64>) outs(%15 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.divf %in, %cst_10 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %116 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%113, %115 : tensor<2x5x32xf64>, tensor<2x5x1xf64>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_73: f64, %out: f64):
      %227 = arith.subf %in, %in_73 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %117 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%116, %116 : tensor<2x5x32xf64>, tensor<2x5x32xf64>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_73: f64, %out: f64):
      %227 = arith.mulf %in, %in_73 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %118 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%117 : tensor<2x5x32xf64>) outs(%16 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.addf %in, %out : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %119 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%118 : tensor<2x5x1xf64>) outs(%15 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.divf %in, %cst_10 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %120 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%119 : tensor<2x5x1xf64>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %227 = arith.truncf %in : f64 to f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %121 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%112 : tensor<2x5x32xf32>) outs(%25 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.addf %in, %out : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %122 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%121 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.divf %in, %cst_11 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %123 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%120 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.truncf %cst_9 : f64 to f32
      %228 = arith.addf %in, %227 : f32
      linalg.yield %228 : f32
    } -> tensor<2x5x1xf32>
    %124 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%123 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = math.rsqrt %in : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %125 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%112, %122 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.subf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %126 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%125, %124 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.mulf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %127 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%126, %arg30 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.mulf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %128 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%127, %arg31 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %collapsed_42 = tensor.collapse_shape %128 [[0, 1], [2]] : tensor<2x5x32xf32> into tensor<10x32xf32>
    %transposed_43 = linalg.transpose ins(%arg22 : tensor<32x32xf32>) outs(%34 : tensor<32x32xf32>) permutation = [1, 0] 
    %129 = linalg.matmul ins(%collapsed_42, %transposed_43 : tensor<10x32xf32>, tensor<32x32xf32>) outs(%36 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %130 = linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel"]} ins(%arg23 : tensor<32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<10x32xf32>
    %131 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%129, %130 : tensor<10x32xf32>, tensor<10x32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<10x32xf32>
    %expanded_44 = tensor.expand_shape %131 [[0, 1], [2, 3]] output_shape [2, 5, 4, 8] : tensor<10x32xf32> into tensor<2x5x4x8xf32>
    %transposed_45 = linalg.transpose ins(%expanded_44 : tensor<2x5x4x8xf32>) outs(%40 : tensor<2x4x5x8xf32>) permutation = [0, 2, 1, 3] 
    %transposed_46 = linalg.transpose ins(%arg24 : tensor<32x32xf32>) outs(%34 : tensor<32x32xf32>) permutation = [1, 0] 
    %132 = linalg.matmul ins(%collapsed_42, %transposed_46 : tensor<10x32xf32>, tensor<32x32xf32>) outs(%36 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %133 = linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel"]} ins(%arg25 : tensor<32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<10x32xf32>
    %134 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%132, %133 : tensor<10x32xf32>, tensor<10x32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<10x32xf32>
    %expanded_47 = tensor.expand_shape %134 [[0, 1], [2, 3]] output_shape [2, 5, 4, 8] : tensor<10x32xf32> into tensor<2x5x4x8xf32>
    %transposed_48 = linalg.transpose ins(%arg26 : tensor<32x32xf32>) outs(%34 : tensor<32x32xf32>) permutation = [1, 0] 
    %135 = linalg.matmul ins(%collapsed_42, %transposed_48 : tensor<10x32xf32>, tensor<32x32xf32>) outs(%36 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %136 = linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel"]} ins(%arg27 : tensor<32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<10x32xf32>
    %137 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%135, %136 : tensor<10x32xf32>, tensor<10x32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<10x32xf32>
    %expanded_49 = tensor.expand_shape %137 [[0, 1], [2, 3]] output_shape [2, 5, 4, 8] : tensor<10x32xf32> into tensor<2x5x4x8xf32>
    %transposed_50 = linalg.transpose ins(%expanded_49 : tensor<2x5x4x8xf32>) outs(%40 : tensor<2x4x5x8xf32>) permutation = [0, 2, 1, 3] 
    %138 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_45 : tensor<2x4x5x8xf32>) outs(%40 : tensor<2x4x5x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.truncf %cst_7 : f64 to f32
      %228 = arith.mulf %in, %227 : f32
      linalg.yield %228 : f32
    } -> tensor<2x4x5x8xf32>
    %transposed_51 = linalg.transpose ins(%expanded_47 : tensor<2x5x4x8xf32>) outs(%50 : tensor<2x4x8x5xf32>) permutation = [0, 2, 3, 1] 
    %139 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_51 : tensor<2x4x8x5xf32>) outs(%50 : tensor<2x4x8x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.truncf %cst_7 : f64 to f32
      %228 = arith.mulf %in, %227 : f32
      linalg.yield %228 : f32
    } -> tensor<2x4x8x5xf32>
    %collapsed_52 = tensor.collapse_shape %138 [[0, 1], [2], [3]] : tensor<2x4x5x8xf32> into tensor<8x5x8xf32>
    %collapsed_53 = tensor.collapse_shape %139 [[0, 1], [2], [3]] : tensor<2x4x8x5xf32> into tensor<8x8x5xf32>
    %140 = linalg.batch_matmul ins(%collapsed_52, %collapsed_53 : tensor<8x5x8xf32>, tensor<8x8x5xf32>) outs(%53 : tensor<8x5x5xf32>) -> tensor<8x5x5xf32>
    %expanded_54 = tensor.expand_shape %140 [[0, 1], [2], [3]] output_shape [2, 4, 5, 5] : tensor<8x5x5xf32> into tensor<2x4x5x5xf32>
    %141 = linalg.generic {indexing_maps = [#map4, #map11, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_54, %48 : tensor<2x4x5x5xf32>, tensor<2x1x5x5xf32>) outs(%55 : tensor<2x4x5x5xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x5xf32>
    %142:2 = linalg.generic {indexing_maps = [#map4, #map12, #map12], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%141 : tensor<2x4x5x5xf32>) outs(%60, %58 : tensor<2x4x5xf32>, tensor<2x4x5xi64>) {
    ^bb0(%in: f32, %out: f32, %out_73: i64):
      %227 = linalg.index 3 : index
      %228 = arith.index_cast %227 : index to i64
      %229 = arith.maximumf %in, %out : f32
      %230 = arith.cmpf ogt, %in, %out : f32
      %231 = arith.select %230, %228, %out_73 : i64
      linalg.yield %229, %231 : f32, i64
    } -> (tensor<2x4x5xf32>, tensor<2x4x5xi64>)
    %expanded_55 = tensor.expand_shape %142#0 [[0], [1], [2, 3]] output_shape [2, 4, 5, 1] : tensor<2x4x5xf32> into tensor<2x4x5x1xf32>
    %143 = linalg.generic {indexing_maps = [#map4, #map13, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%141, %expanded_55 : tensor<2x4x5x5xf32>, tensor<2x4x5x1xf32>) outs(%55 : tensor<2x4x5x5xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.subf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x5xf32>
    %144 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%143 : tensor<2x4x5x5xf32>) outs(%55 : tensor<2x4x5x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = math.exp %in : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x5xf32>
    %145 = linalg.generic {indexing_maps = [#map4, #map13], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%144 : tensor<2x4x5x5xf32>) outs(%65 : tensor<2x4x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.addf %in, %out : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x1xf32>
    %146 = linalg.generic {indexing_maps = [#map4, #map13, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%144, %145 : tensor<2x4x5x5xf32>, tensor<2x4x5x1xf32>) outs(%55 : tensor<2x4x5x5xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.divf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x5xf32>
    %147 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%141 : tensor<2x4x5x5xf32>) outs(%68 : tensor<2x4x5x5xi1>) {
    ^bb0(%in: f32, %out: i1):
      %227 = arith.extf %in : f32 to f64
      %228 = arith.cmpf oeq, %227, %cst_8 : f64
      linalg.yield %228 : i1
    } -> tensor<2x4x5x5xi1>
    %148 = linalg.generic {indexing_maps = [#map4, #map13], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%147 : tensor<2x4x5x5xi1>) outs(%71 : tensor<2x4x5x1xi1>) {
    ^bb0(%in: i1, %out: i1):
      %227 = arith.andi %in, %out : i1
      linalg.yield %227 : i1
    } -> tensor<2x4x5x1xi1>
    %149 = linalg.generic {indexing_maps = [#map13, #map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%148, %cst_4, %146 : tensor<2x4x5x1xi1>, tensor<2x4x5x5xf32>, tensor<2x4x5x5xf32>) outs(%55 : tensor<2x4x5x5xf32>) {
    ^bb0(%in: i1, %in_73: f32, %in_74: f32, %out: f32):
      %227 = arith.select %in, %in_73, %in_74 : f32
      linalg.yield %227 : f32
    } -> tensor<2x4x5x5xf32>
    %collapsed_56 = tensor.collapse_shape %149 [[0, 1], [2], [3]] : tensor<2x4x5x5xf32> into tensor<8x5x5xf32>
    %collapsed_57 = tensor.collapse_shape %transposed_50 [[0, 1], [2], [3]] : tensor<2x4x5x8xf32> into tensor<8x5x8xf32>
    %150 = linalg.batch_matmul ins(%collapsed_56, %collapsed_57 : tensor<8x5x5xf32>, tensor<8x5x8xf32>) outs(%75 : tensor<8x5x8xf32>) -> tensor<8x5x8xf32>
    %expanded_58 = tensor.expand_shape %150 [[0, 1], [2], [3]] output_shape [2, 4, 5, 8] : tensor<8x5x8xf32> into tensor<2x4x5x8xf32>
    %transposed_59 = linalg.transpose ins(%expanded_58 : tensor<2x4x5x8xf32>) outs(%77 : tensor<2x5x4x8xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_60 = tensor.collapse_shape %transposed_59 [[0], [1], [2, 3]] : tensor<2x5x4x8xf32> into tensor<2x5x32xf32>
    %transposed_61 = linalg.transpose ins(%arg28 : tensor<32x32xf32>) outs(%34 : tensor<32x32xf32>) permutation = [1, 0] 
    %151 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_61 : tensor<32x32xf32>) outs(%78 : tensor<2x32x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x32x32xf32>
    %152 = linalg.batch_matmul ins(%collapsed_60, %151 : tensor<2x5x32xf32>, tensor<2x32x32xf32>) outs(%80 : tensor<2x5x32xf32>) -> tensor<2x5x32xf32>
    %153 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%152, %arg29 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %154 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%153, %112 : tensor<2x5x32xf32>, tensor<2x5x32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %155 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%154 : tensor<2x5x32xf32>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %227 = arith.extf %in : f32 to f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %156 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%155 : tensor<2x5x32xf64>) outs(%16 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.addf %in, %out : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %157 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%156 : tensor<2x5x1xf64>) outs(%15 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.divf %in, %cst_10 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %158 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%155, %157 : tensor<2x5x32xf64>, tensor<2x5x1xf64>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_73: f64, %out: f64):
      %227 = arith.subf %in, %in_73 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %159 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%158, %158 : tensor<2x5x32xf64>, tensor<2x5x32xf64>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_73: f64, %out: f64):
      %227 = arith.mulf %in, %in_73 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %160 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%159 : tensor<2x5x32xf64>) outs(%16 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.addf %in, %out : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %161 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%160 : tensor<2x5x1xf64>) outs(%15 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.divf %in, %cst_10 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %162 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%161 : tensor<2x5x1xf64>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %227 = arith.truncf %in : f64 to f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %163 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%154 : tensor<2x5x32xf32>) outs(%25 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.addf %in, %out : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %164 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%163 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.divf %in, %cst_11 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %165 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%162 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.truncf %cst_9 : f64 to f32
      %228 = arith.addf %in, %227 : f32
      linalg.yield %228 : f32
    } -> tensor<2x5x1xf32>
    %166 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%165 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = math.rsqrt %in : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %167 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%154, %164 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.subf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %168 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%167, %166 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.mulf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %169 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%168, %arg32 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.mulf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %170 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%169, %arg33 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %collapsed_62 = tensor.collapse_shape %170 [[0, 1], [2]] : tensor<2x5x32xf32> into tensor<10x32xf32>
    %transposed_63 = linalg.transpose ins(%arg34 : tensor<64x32xf32>) outs(%100 : tensor<32x64xf32>) permutation = [1, 0] 
    %171 = linalg.matmul ins(%collapsed_62, %transposed_63 : tensor<10x32xf32>, tensor<32x64xf32>) outs(%102 : tensor<10x64xf32>) -> tensor<10x64xf32>
    %172 = linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel"]} ins(%arg35 : tensor<64xf32>) outs(%101 : tensor<10x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<10x64xf32>
    %173 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%171, %172 : tensor<10x64xf32>, tensor<10x64xf32>) outs(%101 : tensor<10x64xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<10x64xf32>
    %expanded_64 = tensor.expand_shape %173 [[0, 1], [2]] output_shape [2, 5, 64] : tensor<10x64xf32> into tensor<2x5x64xf32>
    %174 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_64 : tensor<2x5x64xf32>) outs(%106 : tensor<2x5x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.divf %in, %cst_12 : f32
      %228 = math.erf %227 : f32
      %229 = arith.addf %228, %cst_2 : f32
      %230 = arith.mulf %229, %cst_3 : f32
      %231 = arith.mulf %in, %230 : f32
      linalg.yield %231 : f32
    } -> tensor<2x5x64xf32>
    %collapsed_65 = tensor.collapse_shape %174 [[0, 1], [2]] : tensor<2x5x64xf32> into tensor<10x64xf32>
    %transposed_66 = linalg.transpose ins(%arg36 : tensor<32x64xf32>) outs(%108 : tensor<64x32xf32>) permutation = [1, 0] 
    %175 = linalg.matmul ins(%collapsed_65, %transposed_66 : tensor<10x64xf32>, tensor<64x32xf32>) outs(%36 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %176 = linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel"]} ins(%arg37 : tensor<32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<10x32xf32>
    %177 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%175, %176 : tensor<10x32xf32>, tensor<10x32xf32>) outs(%35 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<10x32xf32>
    %expanded_67 = tensor.expand_shape %177 [[0, 1], [2]] output_shape [2, 5, 32] : tensor<10x32xf32> into tensor<2x5x32xf32>
    %178 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_67, %154 : tensor<2x5x32xf32>, tensor<2x5x32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %179 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%178 : tensor<2x5x32xf32>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %227 = arith.extf %in : f32 to f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %180 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%179 : tensor<2x5x32xf64>) outs(%16 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.addf %in, %out : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %181 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%180 : tensor<2x5x1xf64>) outs(%15 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.divf %in, %cst_10 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %182 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%179, %181 : tensor<2x5x32xf64>, tensor<2x5x1xf64>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_73: f64, %out: f64):
      %227 = arith.subf %in, %in_73 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %183 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%182, %182 : tensor<2x5x32xf64>, tensor<2x5x32xf64>) outs(%13 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_73: f64, %out: f64):
      %227 = arith.mulf %in, %in_73 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x32xf64>
    %184 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%183 : tensor<2x5x32xf64>) outs(%16 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.addf %in, %out : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %185 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%184 : tensor<2x5x1xf64>) outs(%15 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %227 = arith.divf %in, %cst_10 : f64
      linalg.yield %227 : f64
    } -> tensor<2x5x1xf64>
    %186 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%185 : tensor<2x5x1xf64>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %227 = arith.truncf %in : f64 to f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %187 = linalg.generic {indexing_maps = [#map1, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%178 : tensor<2x5x32xf32>) outs(%25 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.addf %in, %out : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %188 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%187 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.divf %in, %cst_11 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %189 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%186 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.truncf %cst_9 : f64 to f32
      %228 = arith.addf %in, %227 : f32
      linalg.yield %228 : f32
    } -> tensor<2x5x1xf32>
    %190 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%189 : tensor<2x5x1xf32>) outs(%23 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = math.rsqrt %in : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x1xf32>
    %191 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%178, %188 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.subf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %192 = linalg.generic {indexing_maps = [#map1, #map6, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%191, %190 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.mulf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %193 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%192, %arg38 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.mulf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %194 = linalg.generic {indexing_maps = [#map1, #map7, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%193, %arg39 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%5 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x5x32xf32>
    %extracted_slice = tensor.extract_slice %194[0, 0, 0] [2, 1, 32] [1, 1, 1] : tensor<2x5x32xf32> to tensor<2x1x32xf32>
    %collapsed_68 = tensor.collapse_shape %extracted_slice [[0, 1], [2]] : tensor<2x1x32xf32> into tensor<2x32xf32>
    %195 = tensor.empty() : tensor<32x3xf32>
    %transposed_69 = linalg.transpose ins(%arg40 : tensor<3x32xf32>) outs(%195 : tensor<32x3xf32>) permutation = [1, 0] 
    %196 = tensor.empty() : tensor<2x3xf32>
    %197 = linalg.fill ins(%cst : f32) outs(%196 : tensor<2x3xf32>) -> tensor<2x3xf32>
    %198 = linalg.matmul ins(%collapsed_68, %transposed_69 : tensor<2x32xf32>, tensor<32x3xf32>) outs(%197 : tensor<2x3xf32>) -> tensor<2x3xf32>
    %199 = linalg.generic {indexing_maps = [#map8, #map9], iterator_types = ["parallel", "parallel"]} ins(%arg41 : tensor<3xf32>) outs(%196 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x3xf32>
    %200 = linalg.generic {indexing_maps = [#map9, #map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%198, %199 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%196 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.addf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x3xf32>
    %201 = tensor.empty() : tensor<2xi64>
    %202 = linalg.fill ins(%c0_i64 : i64) outs(%201 : tensor<2xi64>) -> tensor<2xi64>
    %203 = tensor.empty() : tensor<2xf32>
    %204 = linalg.fill ins(%cst_1 : f32) outs(%203 : tensor<2xf32>) -> tensor<2xf32>
    %205:2 = linalg.generic {indexing_maps = [#map9, #map14, #map14], iterator_types = ["parallel", "reduction"]} ins(%200 : tensor<2x3xf32>) outs(%204, %202 : tensor<2xf32>, tensor<2xi64>) {
    ^bb0(%in: f32, %out: f32, %out_73: i64):
      %227 = linalg.index 1 : index
      %228 = arith.index_cast %227 : index to i64
      %229 = arith.maximumf %in, %out : f32
      %230 = arith.cmpf ogt, %in, %out : f32
      %231 = arith.select %230, %228, %out_73 : i64
      linalg.yield %229, %231 : f32, i64
    } -> (tensor<2xf32>, tensor<2xi64>)
    %expanded_70 = tensor.expand_shape %205#0 [[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>
    %206 = linalg.generic {indexing_maps = [#map9, #map15, #map9], iterator_types = ["parallel", "parallel"]} ins(%200, %expanded_70 : tensor<2x3xf32>, tensor<2x1xf32>) outs(%196 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.subf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x3xf32>
    %207 = linalg.generic {indexing_maps = [#map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%206 : tensor<2x3xf32>) outs(%196 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = math.exp %in : f32
      linalg.yield %227 : f32
    } -> tensor<2x3xf32>
    %208 = tensor.empty() : tensor<2x1xf32>
    %209 = linalg.fill ins(%cst : f32) outs(%208 : tensor<2x1xf32>) -> tensor<2x1xf32>
    %210 = linalg.generic {indexing_maps = [#map9, #map15], iterator_types = ["parallel", "reduction"]} ins(%207 : tensor<2x3xf32>) outs(%209 : tensor<2x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.addf %in, %out : f32
      linalg.yield %227 : f32
    } -> tensor<2x1xf32>
    %211 = linalg.generic {indexing_maps = [#map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%210 : tensor<2x1xf32>) outs(%208 : tensor<2x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = math.log %in : f32
      linalg.yield %227 : f32
    } -> tensor<2x1xf32>
    %212 = linalg.generic {indexing_maps = [#map9, #map15, #map9], iterator_types = ["parallel", "parallel"]} ins(%206, %211 : tensor<2x3xf32>, tensor<2x1xf32>) outs(%196 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.subf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<2x3xf32>
    %213 = tensor.empty() : tensor<2xi1>
    %214 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg1 : tensor<2xi64>) outs(%213 : tensor<2xi1>) {
    ^bb0(%in: i64, %out: i1):
      %227 = arith.cmpi ne, %in, %c-100_i64 : i64
      linalg.yield %227 : i1
    } -> tensor<2xi1>
    %215 = linalg.generic {indexing_maps = [#map3, #map3, #map16, #map3], iterator_types = ["parallel"]} ins(%214, %arg1, %cst_13 : tensor<2xi1>, tensor<2xi64>, tensor<i64>) outs(%201 : tensor<2xi64>) {
    ^bb0(%in: i1, %in_73: i64, %in_74: i64, %out: i64):
      %227 = arith.select %in, %in_73, %in_74 : i64
      linalg.yield %227 : i64
    } -> tensor<2xi64>
    %expanded_71 = tensor.expand_shape %215 [[0, 1]] output_shape [2, 1] : tensor<2xi64> into tensor<2x1xi64>
    %216 = linalg.generic {indexing_maps = [#map9, #map9], iterator_types = ["parallel", "parallel"]} ins(%expanded_71 : tensor<2x1xi64>) outs(%209 : tensor<2x1xf32>) {
    ^bb0(%in: i64, %out: f32):
      %227 = linalg.index 0 : index
      %228 = arith.index_cast %in : i64 to index
      %229 = arith.cmpi slt, %228, %c3 : index
      cf.assert %229, "index must be smaller than dim size"
      %230 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %230, "index must be larger or equal to 0"
      %extracted = tensor.extract %212[%227, %228] : tensor<2x3xf32>
      linalg.yield %extracted : f32
    } -> tensor<2x1xf32>
    %collapsed_72 = tensor.collapse_shape %216 [[0, 1]] : tensor<2x1xf32> into tensor<2xf32>
    %217 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%collapsed_72 : tensor<2xf32>) outs(%203 : tensor<2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.negf %in : f32
      linalg.yield %227 : f32
    } -> tensor<2xf32>
    %218 = linalg.generic {indexing_maps = [#map3, #map3, #map16, #map3], iterator_types = ["parallel"]} ins(%214, %217, %cst_5 : tensor<2xi1>, tensor<2xf32>, tensor<f32>) outs(%203 : tensor<2xf32>) {
    ^bb0(%in: i1, %in_73: f32, %in_74: f32, %out: f32):
      %227 = arith.select %in, %in_73, %in_74 : f32
      linalg.yield %227 : f32
    } -> tensor<2xf32>
    %219 = tensor.empty() : tensor<i64>
    %220 = linalg.fill ins(%c0_i64 : i64) outs(%219 : tensor<i64>) -> tensor<i64>
    %221 = linalg.generic {indexing_maps = [#map3, #map16], iterator_types = ["reduction"]} ins(%214 : tensor<2xi1>) outs(%220 : tensor<i64>) {
    ^bb0(%in: i1, %out: i64):
      %227 = arith.extui %in : i1 to i64
      %228 = arith.addi %227, %out : i64
      linalg.yield %228 : i64
    } -> tensor<i64>
    %222 = tensor.empty() : tensor<f32>
    %223 = linalg.generic {indexing_maps = [#map17, #map17], iterator_types = []} ins(%221 : tensor<i64>) outs(%222 : tensor<f32>) {
    ^bb0(%in: i64, %out: f32):
      %227 = arith.sitofp %in : i64 to f32
      linalg.yield %227 : f32
    } -> tensor<f32>
    %224 = linalg.fill ins(%cst : f32) outs(%222 : tensor<f32>) -> tensor<f32>
    %225 = linalg.generic {indexing_maps = [#map3, #map16], iterator_types = ["reduction"]} ins(%218 : tensor<2xf32>) outs(%224 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %227 = arith.addf %in, %out : f32
      linalg.yield %227 : f32
    } -> tensor<f32>
    %226 = linalg.generic {indexing_maps = [#map17, #map17, #map17], iterator_types = []} ins(%225, %223 : tensor<f32>, tensor<f32>) outs(%222 : tensor<f32>) {
    ^bb0(%in: f32, %in_73: f32, %out: f32):
      %227 = arith.divf %in, %in_73 : f32
      linalg.yield %227 : f32
    } -> tensor<f32>
    return %226, %200 : tensor<f32>, tensor<2x3xf32>
  }
}
