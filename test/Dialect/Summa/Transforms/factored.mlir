// Factored layouts: a dimension that slices cut into equal chunks is laid
// out as groups of those chunks, each group split over the grid, so that
// every slice stays inside every tile (no redistribution).
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,1" | FileCheck %s
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,1" --summa-partition | FileCheck %s --check-prefix=PART
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=4,4,1" | FileCheck %s --check-prefix=Q4

// A fused Q/K/V projection as torch-mlir writes nanoGPT's c_attn: an
// [out, in] weight transposed, a bias, then three slices of the 3h columns.
// The weight, its transpose, the bias and the product all take 3 groups;
// each slice is one group and keeps the split over col.
// CHECK-LABEL: func.func @fused_qkv
// CHECK-SAME: %arg1: tensor<24x8xf32> {summa.layout = #summa.layout<@grid, [3x[col], [row]]>}
// CHECK-SAME: %arg2: tensor<24xf32> {summa.layout = #summa.layout<@grid, [3x[col]]>}
// CHECK: linalg.matmul {{.*}}summa.layouts = [#summa.layout<@grid, {{\[}}[depth, row], 3x[col]]>]
// CHECK: tensor.extract_slice {{.*}}[0, 8] [8, 8]{{.*}}summa.layouts = [#summa.layout<@grid, {{\[}}[depth, row], [col]]>]
// CHECK-NOT: summa.relayout
// PART-LABEL: func.func @fused_qkv
// PART-SAME: %arg1: tensor<12x4xf32>
// PART-SAME: %arg2: tensor<12xf32>
// PART-NOT: summa.all_gather
// PART: summa.matmul {{.*}} -> tensor<4x12xf32>
// Global columns [8, 16) are local columns [4, 8) of every rank.
// PART: tensor.extract_slice %{{.*}}[0, 0] [4, 4] [1, 1] : tensor<4x12xf32> to tensor<4x4xf32>
// PART: tensor.extract_slice %{{.*}}[0, 4] [4, 4] [1, 1] : tensor<4x12xf32> to tensor<4x4xf32>
// PART: tensor.extract_slice %{{.*}}[0, 8] [4, 4] [1, 1] : tensor<4x12xf32> to tensor<4x4xf32>
// PART-NOT: summa.all_gather
// On a 4x4 grid, 4 blocks still divide each chunk of 8 columns.
// Q4-LABEL: func.func @fused_qkv
// Q4: linalg.matmul {{.*}}3x[col]
func.func @fused_qkv(%x: tensor<8x8xf32> {summa.role = "activation"}, %w: tensor<24x8xf32>, %b: tensor<24xf32>)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<8x24xf32>
  %wt = linalg.transpose ins(%w : tensor<24x8xf32>) outs(%te : tensor<8x24xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x24xf32>) -> tensor<8x24xf32>
  %mm = linalg.matmul ins(%x, %wt : tensor<8x8xf32>, tensor<8x24xf32>) outs(%f : tensor<8x24xf32>) -> tensor<8x24xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<8x24xf32>, tensor<24xf32>) outs(%e : tensor<8x24xf32>) {
  ^bb0(%m: f32, %c: f32, %o: f32):
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x24xf32>
  %q = tensor.extract_slice %biased[0, 0] [8, 8] [1, 1] : tensor<8x24xf32> to tensor<8x8xf32>
  %k = tensor.extract_slice %biased[0, 8] [8, 8] [1, 1] : tensor<8x24xf32> to tensor<8x8xf32>
  %v = tensor.extract_slice %biased[0, 16] [8, 8] [1, 1] : tensor<8x24xf32> to tensor<8x8xf32>
  return %q, %k, %v : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Chunks the grid cannot divide (6 columns over 4 blocks of col): no
// groups; the slice's source is gathered instead.
// Q4-LABEL: func.func @indivisible_chunks
// Q4-NOT: 4x[col]
// Q4: summa.relayout
// CHECK-LABEL: func.func @indivisible_chunks
// CHECK: linalg.matmul {{.*}}4x[col]
func.func @indivisible_chunks(%x: tensor<16x16xf32> {summa.role = "activation"}, %w: tensor<16x24xf32> {summa.role = "weight"})
    -> tensor<16x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x16xf32>, tensor<16x24xf32>) outs(%f : tensor<16x24xf32>) -> tensor<16x24xf32>
  %s = tensor.extract_slice %mm[0, 6] [16, 6] [1, 1] : tensor<16x24xf32> to tensor<16x6xf32>
  return %s : tensor<16x6xf32>
}

// -----

// A factored value that another use wants whole (a softmax over its
// columns): the all-gather's blocks are put back in group order.
// CHECK-LABEL: func.func @gather_factored
// CHECK: summa.relayout %{{.*}} to <@grid, {{\[}}[depth, row], []]>
// PART-LABEL: func.func @gather_factored
// PART: summa.all_gather {{.*}} axes = [col] dim = 1 : tensor<4x6xf32> -> tensor<4x12xf32>
// PART: tensor.expand_shape {{.*}} output_shape [4, 2, 3, 2] : tensor<4x12xf32> into tensor<4x2x3x2xf32>
// PART: linalg.transpose {{.*}} permutation = [0, 2, 1, 3]
// PART: tensor.collapse_shape {{.*}} : tensor<4x3x2x2xf32> into tensor<4x12xf32>
func.func @gather_factored(%x: tensor<8x8xf32> {summa.role = "activation"}, %w: tensor<8x12xf32> {summa.role = "weight"})
    -> (tensor<8x4xf32>, tensor<8x12xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x12xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x12xf32>) -> tensor<8x12xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x12xf32>) outs(%f : tensor<8x12xf32>) -> tensor<8x12xf32>
  %s = tensor.extract_slice %mm[0, 4] [8, 4] [1, 1] : tensor<8x12xf32> to tensor<8x4xf32>
  %e2 = tensor.empty() : tensor<8x12xf32>
  %r = linalg.softmax dimension(1) ins(%mm : tensor<8x12xf32>) outs(%e2 : tensor<8x12xf32>) -> tensor<8x12xf32>
  return %s, %r : tensor<8x4xf32>, tensor<8x12xf32>
}

// -----

// A constant bias of a factored product: each rank slices its block of
// every group of the whole constant.
// CHECK-LABEL: func.func @constant_bias
// CHECK: arith.constant {summa.layouts = [#summa.layout<@grid, [3x[col]]>]} dense<
// PART-LABEL: func.func @constant_bias
// PART: %[[CST:.*]] = arith.constant dense<{{.*}}> : tensor<24xf32>
// PART: %[[EXP:.*]] = tensor.expand_shape %[[CST]] {{\[}}[0, 1]] output_shape [3, 8] : tensor<24xf32> into tensor<3x8xf32>
// PART: %[[SL:.*]] = tensor.extract_slice %[[EXP]][0, %{{.*}}] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
// PART: %[[COL:.*]] = tensor.collapse_shape %[[SL]] {{\[}}[0, 1]] : tensor<3x4xf32> into tensor<12xf32>
// PART: linalg.generic {{.*}} ins(%{{.*}}, %[[COL]] : tensor<4x12xf32>, tensor<12xf32>)
func.func @constant_bias(%x: tensor<8x8xf32> {summa.role = "activation"}, %w: tensor<8x24xf32> {summa.role = "weight"}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %b = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0]> : tensor<24xf32>
  %e = tensor.empty() : tensor<8x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x24xf32>) -> tensor<8x24xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x24xf32>) outs(%f : tensor<8x24xf32>) -> tensor<8x24xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<8x24xf32>, tensor<24xf32>) outs(%e : tensor<8x24xf32>) {
  ^bb0(%m: f32, %c: f32, %o: f32):
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x24xf32>
  %q = tensor.extract_slice %biased[0, 0] [8, 8] [1, 1] : tensor<8x24xf32> to tensor<8x8xf32>
  %k = tensor.extract_slice %biased[0, 8] [8, 8] [1, 1] : tensor<8x24xf32> to tensor<8x8xf32>
  return %q, %k : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A linalg.index of a factored loop is made global group by group.
// PART-LABEL: func.func @index_of_factored
// PART: %[[I:.*]] = linalg.index 1 : index
// PART: arith.divui %[[I]], %c4
// PART: arith.remui %[[I]], %c4
func.func @index_of_factored(%x: tensor<8x8xf32> {summa.role = "activation"}, %w: tensor<8x24xf32> {summa.role = "weight"}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x24xf32>) -> tensor<8x24xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x24xf32>) outs(%f : tensor<8x24xf32>) -> tensor<8x24xf32>
  %idx = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<8x24xf32>) outs(%e : tensor<8x24xf32>) {
  ^bb0(%m: f32, %o: f32):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %jf = arith.sitofp %ji : i64 to f32
    %s = arith.addf %m, %jf : f32
    linalg.yield %s : f32
  } -> tensor<8x24xf32>
  %q = tensor.extract_slice %idx[0, 0] [8, 8] [1, 1] : tensor<8x24xf32> to tensor<8x8xf32>
  %k = tensor.extract_slice %idx[0, 8] [8, 8] [1, 1] : tensor<8x24xf32> to tensor<8x8xf32>
  return %q, %k : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// The backward of a fused Q/K/V projection (a Conv1D [in, 3h] weight), as
// summa-differentiate writes it: the adjoints of Q, K and V inserted into
// zeros and summed, the input gradient dQKV·Wᵀ contracting the 3h
// dimension, the weight gradient Xᵀ·dQKV, the SGD update. The inserted
// pieces, their sum, both products and the update are factored like the
// weight itself: 3 groups, each slice inside every tile, the contracted
// dimension factored alike in both operands; nothing is redistributed.
// CHECK-LABEL: func.func @fused_qkv_backward
// CHECK-SAME: %arg3: tensor<8x24xf32> {summa.layout = #summa.layout<@grid, {{\[}}[row], 3x[col]]>, summa.role = "weight"}
// CHECK: tensor.insert_slice {{.*}}summa.layouts = [#summa.layout<@grid, {{\[}}[depth, row], 3x[col]]>]
// CHECK: linalg.matmul {{.*}}summa.layouts = [#summa.layout<@grid, {{\[}}[depth, row], [col]]>]
// CHECK: linalg.matmul {{.*}}summa.layouts = [#summa.layout<@grid, {{\[}}[row], 3x[col]]>]
// CHECK-NOT: summa.relayout
// PART-LABEL: func.func @fused_qkv_backward
// PART-NOT: summa.all_gather
// PART: summa.matmul {{.*}} form = abt
// PART: summa.matmul {{.*}} form = atb
// PART-NOT: summa.all_gather
func.func @fused_qkv_backward(%dq: tensor<8x8xf32> {summa.role = "activation"}, %dk: tensor<8x8xf32> {summa.role = "activation"},
                              %dv: tensor<8x8xf32> {summa.role = "activation"}, %w: tensor<8x24xf32> {summa.role = "weight"},
                              %x: tensor<8x8xf32> {summa.role = "activation"})
    -> (tensor<8x8xf32>, tensor<8x24xf32> {summa.updates = 3 : i64}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x24xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x24xf32>) -> tensor<8x24xf32>
  %iq = tensor.insert_slice %dq into %z[0, 0] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<8x24xf32>
  %ik = tensor.insert_slice %dk into %z[0, 8] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<8x24xf32>
  %iv = tensor.insert_slice %dv into %z[0, 16] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<8x24xf32>

  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%iq, %ik, %iv : tensor<8x24xf32>, tensor<8x24xf32>, tensor<8x24xf32>) outs(%e : tensor<8x24xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %s0 = arith.addf %a, %b : f32
    %s1 = arith.addf %s0, %c : f32
    linalg.yield %s1 : f32
  } -> tensor<8x24xf32>
  %ex = tensor.empty() : tensor<8x8xf32>
  %fx = linalg.fill ins(%zero : f32) outs(%ex : tensor<8x8xf32>) -> tensor<8x8xf32>
  %dx = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%sum, %w : tensor<8x24xf32>, tensor<8x24xf32>) outs(%fx : tensor<8x8xf32>) -> tensor<8x8xf32>
  %ew = tensor.empty() : tensor<8x24xf32>
  %zw = linalg.fill ins(%zero : f32) outs(%ew : tensor<8x24xf32>) -> tensor<8x24xf32>
  %dw = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%x, %sum : tensor<8x8xf32>, tensor<8x24xf32>) outs(%zw : tensor<8x24xf32>) -> tensor<8x24xf32>
  %new = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%w, %dw : tensor<8x24xf32>, tensor<8x24xf32>) outs(%e : tensor<8x24xf32>) {
  ^bb0(%a: f32, %g: f32, %o: f32):
    %s = arith.subf %a, %g : f32
    linalg.yield %s : f32
  } -> tensor<8x24xf32>
  return %dx, %new : tensor<8x8xf32>, tensor<8x24xf32>
}

// -----

// Multi-query attention's fused projection (GPTBigCode): 32 query columns
// (4 heads of 8) and one key and one value head of 8 make 6 groups of 8,
// each cut in 2 over col. The query slice (4 groups) expanded to
// [batch, seq, 4 heads, 8] is each head's 8 cut in 2, the heads whole (the
// groups were "4 heads cut in 2 in each of 4 groups", not divisible); the
// collapse back is 4 groups again, with no redistribution either way.
// CHECK-LABEL: func.func @multi_query
// CHECK: linalg.matmul {{.*}}summa.layouts = [#summa.layout<@grid, {{\[}}[depth, row], 6x[col]]>]
// CHECK: tensor.extract_slice {{.*}}[0, 0] [32, 32]{{.*}}summa.layouts = [#summa.layout<@grid, {{\[}}[depth, row], 4x[col]]>]
// CHECK: tensor.expand_shape {{.*}}summa.layouts = [#summa.layout<@grid, {{\[}}[depth, row], [], [], [col]]>]
// CHECK: tensor.collapse_shape {{.*}}summa.layouts = [#summa.layout<@grid, {{\[}}[depth, row], [], 4x[col]]>]
// CHECK-NOT: summa.relayout
// PART-LABEL: func.func @multi_query
// PART-NOT: summa.all_gather
// PART: tensor.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3]] output_shape [2, 8, 4, 4] : tensor<16x16xf32> into tensor<2x8x4x4xf32>
// PART-NOT: summa.all_gather
// PART: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<2x8x4x4xf32> into tensor<2x8x16xf32>
// PART-NOT: summa.all_gather
// PART: return
func.func @multi_query(%x: tensor<32x32xf32> {summa.role = "activation"}, %w: tensor<32x48xf32>) -> (tensor<4x8x32xf32>, tensor<32x8xf32>, tensor<32x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x48xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %y = linalg.matmul ins(%x, %w : tensor<32x32xf32>, tensor<32x48xf32>) outs(%f : tensor<32x48xf32>) -> tensor<32x48xf32>
  %q = tensor.extract_slice %y[0, 0] [32, 32] [1, 1] : tensor<32x48xf32> to tensor<32x32xf32>
  %k = tensor.extract_slice %y[0, 32] [32, 8] [1, 1] : tensor<32x48xf32> to tensor<32x8xf32>
  %v = tensor.extract_slice %y[0, 40] [32, 8] [1, 1] : tensor<32x48xf32> to tensor<32x8xf32>
  %q4 = tensor.expand_shape %q [[0, 1], [2, 3]] output_shape [4, 8, 4, 8] : tensor<32x32xf32> into tensor<4x8x4x8xf32>
  %e4 = tensor.empty() : tensor<4x8x4x8xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q4 : tensor<4x8x4x8xf32>) outs(%e4 : tensor<4x8x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8x4x8xf32>
  %back = tensor.collapse_shape %h [[0], [1], [2, 3]] : tensor<4x8x4x8xf32> into tensor<4x8x32xf32>
  return %back, %k, %v : tensor<4x8x32xf32>, tensor<32x8xf32>, tensor<32x8xf32>
}
