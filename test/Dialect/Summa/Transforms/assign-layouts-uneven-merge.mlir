// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" | FileCheck %s

// A dimension split unevenly (padded last blocks, docs/Layouts.md "Uneven
// dimensions") that a reshape merges with others would put its padding
// inside the merged dimension. The reshape keeps instead the axes of the
// split that divide the merged group's leading dimension (none, or fewer),
// and redistributes where the other side wants more: the program is laid
// out and partitioned, never refused. End-to-end: uneven-splits.mlir.

// 6 tokens over the 4 blocks of [depth, row] (blocks of 2, the last one
// padding), expanded into [2, 3]: the batch of 2 takes depth, which divides
// it; the tokens are gathered over row first (the hidden dimension keeps
// col).
// CHECK-LABEL: func.func @uneven_merged
// CHECK: %[[X:.*]] = summa.relayout %arg0 to <@grid, {{\[\[}}depth], [col]]>
// CHECK: tensor.expand_shape %[[X]] {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth], [], [col]]>]
func.func @uneven_merged(%x: tensor<6x8xf32>) -> tensor<2x3x8xf32> {
  %e = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 3, 8] : tensor<6x8xf32> into tensor<2x3x8xf32>
  return %e : tensor<2x3x8xf32>
}

// -----

// A batch of 3 with a sequence of 8: neither depth nor row divides the
// batch, so the merged tokens are whole on every rank (the hidden
// dimension keeps col).
// CHECK-LABEL: func.func @batch_of_three
// CHECK-SAME: summa.layout = #summa.layout<@grid, {{\[\[}}depth, row], [], [col]]>
// CHECK: %[[X:.*]] = summa.relayout %arg0 to <@grid, {{\[\[}}], [], [col]]>
// CHECK: tensor.collapse_shape %[[X]] {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}], [col]]>]
func.func @batch_of_three(%x: tensor<3x8x32xf32> {summa.role = "activation"}) -> tensor<24x32xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<3x8x32xf32> into tensor<24x32xf32>
  return %c : tensor<24x32xf32>
}

// -----

// A batch of 2 images of 5 tokens (ViT on [2, 2, 2]): the sequence of 5
// cannot take row, the batch takes depth; the tokens [10] are split over
// depth alone on both sides of the reshape.
// CHECK-LABEL: func.func @two_by_five
// CHECK: %[[X:.*]] = summa.relayout %arg0 to <@grid, {{\[\[}}depth], [], [col]]>
// CHECK: tensor.collapse_shape %[[X]] {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth], [col]]>]
func.func @two_by_five(%x: tensor<2x5x32xf32> {summa.role = "activation"}) -> tensor<10x32xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x5x32xf32> into tensor<10x32xf32>
  return %c : tensor<10x32xf32>
}

// -----

// 3 heads of 4 on q = 2: the heads cannot take col, so the hidden dimension
// [12] is gathered whole before it is split into heads (the attention of
// these heads runs on every column of ranks).
// CHECK-LABEL: func.func @three_heads
// CHECK: %[[X:.*]] = summa.relayout %arg0 to <@grid, {{\[\[}}depth, row], []]>
// CHECK: tensor.expand_shape %[[X]] {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [], [], []]>]
func.func @three_heads(%x: tensor<32x12xf32>) -> tensor<8x4x3x4xf32> {
  %h = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [8, 4, 3, 4] : tensor<32x12xf32> into tensor<8x4x3x4xf32>
  return %h : tensor<8x4x3x4xf32>
}

// -----

// 3 sequences of 16 tokens, expanded into [3, 16, 4, 4]: the tokens are
// gathered whole (no axis divides 3), the heads keep col.
// CHECK-LABEL: func.func @three_sequences
// CHECK: %[[X:.*]] = summa.relayout %arg0 to <@grid, {{\[\[}}], [col]]>
// CHECK: tensor.expand_shape %[[X]] {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}], [], [col], []]>]
func.func @three_sequences(%x: tensor<48x16xf32>) -> tensor<3x16x4x4xf32> {
  %h = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [3, 16, 4, 4] : tensor<48x16xf32> into tensor<3x16x4x4xf32>
  return %h : tensor<3x16x4x4xf32>
}
