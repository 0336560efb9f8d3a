// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" | FileCheck %s --check-prefix=LAYOUT
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" --summa-partition | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// LayerNorm statistics over the column-split hidden dimension: a local
// partial sum, then one all-reduce along the row (the group spanning col).
// LAYOUT-LABEL: func.func @row_sum
// LAYOUT: linalg.generic
// LAYOUT-SAME: summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row]]>]
// LAYOUT-SAME: summa.reduce_axes = array<i32: 1>
// LAYOUT-SAME: summa.reduce_kinds = [0 : i32]
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[X:.*]]: tensor<4x4xf32>
// CHECK: %[[P:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4x4xf32>) outs(%{{.*}} : tensor<4xf32>)
// CHECK: %[[S:.*]] = summa.all_reduce %[[P]] on @grid axes = [col] kind = sum : tensor<4xf32> -> tensor<4xf32>
// CHECK: return %[[S]]
func.func @row_sum(%x: tensor<16x8xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x8xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %r = arith.addf %sq, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// A max over the split dimension is completed with kind max.
// CHECK-LABEL: func.func @row_max
// CHECK: summa.all_reduce %{{.*}} on @grid axes = [col] kind = max : tensor<4xf32> -> tensor<4xf32>
func.func @row_max(%x: tensor<16x8xf32>) -> tensor<16xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x8xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

// Heads: the token dimension splits onto the batch factor, the hidden one
// onto the heads; a reduction over the (unsplit) head dimension is local; a
// softmax over the unsplit key dimension is local; merging the heads back
// restores the activation layout.
// LAYOUT-LABEL: func.func @heads
// LAYOUT: tensor.expand_shape {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [], [col], []]>]
// LAYOUT: linalg.softmax {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [], [col], []]>]
// LAYOUT: tensor.collapse_shape {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [col]]>]
// CHECK-LABEL: func.func @heads
// CHECK-SAME: (%[[X:.*]]: tensor<8x8xf32>
// CHECK: %[[H:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0, 1], [2, 3]] output_shape [2, 4, 2, 4] : tensor<8x8xf32> into tensor<2x4x2x4xf32>
// CHECK: linalg.softmax dimension(3) ins(%[[H]] : tensor<2x4x2x4xf32>) outs(%{{.*}} : tensor<2x4x2x4xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] : tensor<2x4x2x4xf32> into tensor<8x8xf32>
// CHECK-NOT: summa.all_reduce
func.func @heads(%x: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %h = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [8, 4, 4, 4] : tensor<32x16xf32> into tensor<8x4x4x4xf32>
  %e = tensor.empty() : tensor<8x4x4x4xf32>
  %p = linalg.softmax dimension(3) ins(%h : tensor<8x4x4x4xf32>) outs(%e : tensor<8x4x4x4xf32>) -> tensor<8x4x4x4xf32>
  %y = tensor.collapse_shape %p [[0, 1], [2, 3]] : tensor<8x4x4x4xf32> into tensor<32x16xf32>
  return %y : tensor<32x16xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// linalg.index of a split loop reads the global index: the local index
// plus the rank's block times the tile size.
// CHECK-LABEL: func.func @positions
// CHECK-DAG: %[[K:.*]] = summa.coord @grid axis = depth
// CHECK-DAG: %[[I:.*]] = summa.coord @grid axis = row
// CHECK-DAG: %[[J:.*]] = summa.coord @grid axis = col
// CHECK: linalg.generic
// CHECK: %[[T:.*]] = linalg.index 0 : index
// CHECK-NEXT: arith.addi %[[T]], %{{.*}} : index
// CHECK: %[[H:.*]] = linalg.index 1 : index
// CHECK-NEXT: arith.addi %[[H]], %{{.*}} : index
func.func @positions(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = linalg.index 0 : index
    %h = linalg.index 1 : index
    %s = arith.addi %t, %h : index
    %i = arith.index_cast %s : index to i64
    %f = arith.sitofp %i : i64 to f32
    %r = arith.addf %in, %f : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

// -----

// linalg.transpose carries each dimension's split to its new position.
// LAYOUT-LABEL: func.func @heads_major
// LAYOUT: linalg.transpose {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [col], [], []]>]
// CHECK-LABEL: func.func @heads_major
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x4x2x4xf32>) outs(%{{.*}} : tensor<2x2x4x4xf32>) permutation = [0, 2, 1, 3]
func.func @heads_major(%x: tensor<32x16xf32>) -> tensor<8x4x4x4xf32> {
  %h = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [8, 4, 4, 4] : tensor<32x16xf32> into tensor<8x4x4x4xf32>
  %e = tensor.empty() : tensor<8x4x4x4xf32>
  %t = linalg.transpose ins(%h : tensor<8x4x4x4xf32>) outs(%e : tensor<8x4x4x4xf32>) permutation = [0, 2, 1, 3]
  return %t : tensor<8x4x4x4xf32>
}

// -----

// A slice along an unsplit dimension stays inside every tile: the split
// dimensions keep their tile size.
// CHECK-LABEL: func.func @slice_inside_tiles
// CHECK: tensor.extract_slice %{{.*}}[0, 4, 0] [4, 16, 4] [1, 1, 1] : tensor<4x24x4xf32> to tensor<4x16x4xf32>
func.func @slice_inside_tiles(%x: tensor<16x24x8xf32> {summa.role = "activation"}) -> tensor<16x16x8xf32> {
  %s = tensor.extract_slice %x[0, 4, 0] [16, 16, 8] [1, 1, 1] : tensor<16x24x8xf32> to tensor<16x16x8xf32>
  return %s : tensor<16x16x8xf32>
}
