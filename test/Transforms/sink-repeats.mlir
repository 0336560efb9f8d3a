// RUN: summa-opt %s --summa-sink-repeats --split-input-file | FileCheck %s

// Grouped-query attention's keys as torch-mlir exports Hugging Face's
// Llama: repeat_kv's broadcast of 2 key heads to 4 query heads, merged,
// transposed for Q·Kᵀ and scaled (SDPA). The transpose and the scale run on
// the 2 key heads; the repeat comes last, then the same merges.

#in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// CHECK-DAG: #[[READ:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[ID5:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @gqa_keys
// CHECK-SAME: (%[[K:.+]]: tensor<2x2x12x8xf32>)
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[K]] : tensor<2x2x12x8xf32>) outs(%{{.+}} : tensor<2x2x8x12xf32>) permutation = [0, 1, 3, 2]
// CHECK: %[[S:.+]] = linalg.generic {{.+}} ins(%[[T]] : tensor<2x2x8x12xf32>) outs(%{{.+}} : tensor<2x2x8x12xf32>)
// CHECK: arith.mulf
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[READ]], #[[ID5]]]{{.+}} ins(%[[S]] : tensor<2x2x8x12xf32>) outs(%{{.+}} : tensor<2x2x2x8x12xf32>)
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[R]] {{\[}}[0, 1, 2], [3], [4]] : tensor<2x2x2x8x12xf32> into tensor<8x8x12xf32>
// CHECK: return %[[C]]
func.func @gqa_keys(%k: tensor<2x2x12x8xf32>) -> tensor<8x8x12xf32> {
  %scale = arith.constant 0.5 : f32
  %e5 = tensor.empty() : tensor<2x2x2x12x8xf32>
  %r = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<2x2x12x8xf32>) outs(%e5 : tensor<2x2x2x12x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x2x12x8xf32>
  %c = tensor.collapse_shape %r [[0], [1, 2], [3], [4]] : tensor<2x2x2x12x8xf32> into tensor<2x4x12x8xf32>
  %et = tensor.empty() : tensor<2x4x8x12xf32>
  %t = linalg.transpose ins(%c : tensor<2x4x12x8xf32>) outs(%et : tensor<2x4x8x12xf32>) permutation = [0, 1, 3, 2]
  %s = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t : tensor<2x4x8x12xf32>) outs(%et : tensor<2x4x8x12xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %scale : f32
    linalg.yield %m : f32
  } -> tensor<2x4x8x12xf32>
  %m = tensor.collapse_shape %s [[0, 1], [2], [3]] : tensor<2x4x8x12xf32> into tensor<8x8x12xf32>
  return %m : tensor<8x8x12xf32>
}

// -----

// A linalg.broadcast along a new middle dimension, then a cast (f32 to
// f16) with a scalar operand and a transpose that moves the repeated
// dimension: the cast and the transpose run on the input, the repeat puts
// the copies where the transpose had them.

#scalar = affine_map<(d0, d1, d2) -> ()>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// CHECK-DAG: #[[READ2:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @broadcast_cast_transpose
// CHECK-SAME: (%[[X:.+]]: tensor<4x6xf32>, %[[B:.+]]: tensor<f32>)
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<4x6xf32>) outs(%{{.+}} : tensor<6x4xf32>) permutation = [1, 0]
// CHECK: %[[S:.+]] = linalg.generic {{.+}} ins(%[[T]], %[[B]] : tensor<6x4xf32>, tensor<f32>) outs(%{{.+}} : tensor<6x4xf16>)
// CHECK: arith.truncf
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[READ2]], {{.+}}]{{.+}} ins(%[[S]] : tensor<6x4xf16>) outs(%{{.+}} : tensor<6x4x3xf16>)
// CHECK: return %[[R]]
func.func @broadcast_cast_transpose(%x: tensor<4x6xf32>, %bias: tensor<f32>) -> tensor<6x4x3xf16> {
  %e = tensor.empty() : tensor<4x3x6xf32>
  %r = linalg.broadcast ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x3x6xf32>) dimensions = [1]
  %eh = tensor.empty() : tensor<4x3x6xf16>
  %h = linalg.generic {indexing_maps = [#id3, #scalar, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r, %bias : tensor<4x3x6xf32>, tensor<f32>) outs(%eh : tensor<4x3x6xf16>) {
  ^bb0(%in: f32, %b: f32, %o: f16):
    %a = arith.addf %in, %b : f32
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x3x6xf16>
  %et = tensor.empty() : tensor<6x4x3xf16>
  %t = linalg.transpose ins(%h : tensor<4x3x6xf16>) outs(%et : tensor<6x4x3xf16>) permutation = [2, 0, 1]
  return %t : tensor<6x4x3xf16>
}

// -----

// What stays: a repeat only reshaped after it (the values' repeat_kv:
// nothing is computed on the copies), a repeat whose merged value has two
// users, an elementwise op that reads another tensor along the repeated
// dimension, and one that reads its elements' indices (a mask).

#in = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func.func @stays
// CHECK: %[[R1:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x2x12x8xf32>)
// CHECK: tensor.collapse_shape %[[R1]]
// CHECK: %[[R2:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x2x12x8xf32>)
// CHECK: %[[C2:.+]] = tensor.collapse_shape %[[R2]] {{\[}}[0], [1, 2], [3], [4]]
// CHECK: linalg.transpose ins(%[[C2]]
// CHECK: %[[R3:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x2x12x8xf32>)
// CHECK: %[[C3:.+]] = tensor.collapse_shape %[[R3]] {{\[}}[0], [1, 2], [3], [4]]
// CHECK: linalg.generic {{.+}} ins(%[[C3]], %{{.+}} : tensor<2x4x12x8xf32>, tensor<2x4x12x8xf32>)
// CHECK: %[[R4:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x2x12x8xf32>)
// CHECK: %[[C4:.+]] = tensor.collapse_shape %[[R4]] {{\[}}[0], [1, 2], [3], [4]]
// CHECK: linalg.generic {{.+}} ins(%[[C4]] : tensor<2x4x12x8xf32>)
// CHECK: linalg.index 1
func.func @stays(%v: tensor<2x2x12x8xf32>, %w: tensor<2x4x12x8xf32>) -> (tensor<8x12x8xf32>, tensor<2x4x12x8xf32>, tensor<2x4x8x12xf32>, tensor<2x4x12x8xf32>, tensor<2x4x12x8xf32>) {
  %e5 = tensor.empty() : tensor<2x2x2x12x8xf32>
  %r1 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x2x12x8xf32>) outs(%e5 : tensor<2x2x2x12x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x2x12x8xf32>
  %c1 = tensor.collapse_shape %r1 [[0, 1, 2], [3], [4]] : tensor<2x2x2x12x8xf32> into tensor<8x12x8xf32>
  %r2 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x2x12x8xf32>) outs(%e5 : tensor<2x2x2x12x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x2x12x8xf32>
  %c2 = tensor.collapse_shape %r2 [[0], [1, 2], [3], [4]] : tensor<2x2x2x12x8xf32> into tensor<2x4x12x8xf32>
  %et = tensor.empty() : tensor<2x4x8x12xf32>
  %t2 = linalg.transpose ins(%c2 : tensor<2x4x12x8xf32>) outs(%et : tensor<2x4x8x12xf32>) permutation = [0, 1, 3, 2]
  %r3 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x2x12x8xf32>) outs(%e5 : tensor<2x2x2x12x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x2x12x8xf32>
  %c3 = tensor.collapse_shape %r3 [[0], [1, 2], [3], [4]] : tensor<2x2x2x12x8xf32> into tensor<2x4x12x8xf32>
  %e4 = tensor.empty() : tensor<2x4x12x8xf32>
  %s3 = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c3, %w : tensor<2x4x12x8xf32>, tensor<2x4x12x8xf32>) outs(%e4 : tensor<2x4x12x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<2x4x12x8xf32>
  %r4 = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x2x12x8xf32>) outs(%e5 : tensor<2x2x2x12x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<2x2x2x12x8xf32>
  %c4 = tensor.collapse_shape %r4 [[0], [1, 2], [3], [4]] : tensor<2x2x2x12x8xf32> into tensor<2x4x12x8xf32>
  %s4 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c4 : tensor<2x4x12x8xf32>) outs(%e4 : tensor<2x4x12x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %h = linalg.index 1 : index
    %hi = arith.index_cast %h : index to i64
    %hf = arith.sitofp %hi : i64 to f32
    %m = arith.mulf %a, %hf : f32
    linalg.yield %m : f32
  } -> tensor<2x4x12x8xf32>
  return %c1, %c2, %t2, %s3, %s4 : tensor<8x12x8xf32>, tensor<2x4x12x8xf32>, tensor<2x4x8x12xf32>, tensor<2x4x12x8xf32>, tensor<2x4x12x8xf32>
}
