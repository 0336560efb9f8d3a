// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" --summa-partition | FileCheck %s
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" --summa-partition="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A vocabulary-parallel embedding: the table is a weight, split like any
// other ([[row], [col]]: the vocabulary over row, the hidden dimension over
// col), never replicated. Each rank reads the rows it owns at local
// indices, zero elsewhere; the partial sums over row are reduce-scattered
// straight into the activation's layout (the tokens over [depth, row]).
// CHECK-LABEL: func.func @embedding
// CHECK-SAME: %[[T:[a-z0-9]+]]: tensor<32x16xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}row], [col]]>}
// CHECK: %[[ROW:.*]] = summa.coord @grid axis = row
// CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %c32
// CHECK: %[[G:.*]] = linalg.generic
// CHECK: %[[ID:.*]] = arith.index_cast
// CHECK: %[[LOCAL:.*]] = arith.subi %[[ID]], %[[OFF]] : index
// CHECK: %[[MINE:.*]] = arith.cmpi ult, %[[LOCAL]], %{{.*}} : index
// CHECK: %[[SAFE:.*]] = arith.select %[[MINE]], %[[LOCAL]], %{{.*}} : index
// CHECK: %[[H:.*]] = linalg.index 2 : index
// CHECK: %[[V:.*]] = tensor.extract %[[T]]{{\[}}%[[SAFE]], %[[H]]] : tensor<32x16xf32>
// CHECK: %[[PICK:.*]] = arith.select %[[MINE]], %[[V]], %{{.*}} : f32
// CHECK: linalg.yield %[[PICK]] : f32
// CHECK: summa.reduce_scatter %[[G]] on @grid axes = [row] dim = 0 kind = sum : tensor<2x8x16xf32> -> tensor<1x8x16xf32>
// CHECK-NOT: summa.all_gather
// REMARK: remark: gather from a table laid out as #summa.layout<@grid, {{\[\[}}row], [col]]>: each rank reads the rows it owns over [row], zero elsewhere
// REMARK: remark: redistribution of 'tensor<2x8x16xf32>' from #summa.layout<@grid, {{\[\[}}depth], [], [col]]> to #summa.layout<@grid, {{\[\[}}depth, row], [], [col]]>: its sum over [row] becomes a summa.reduce_scatter over [row] of dimension 0
#ids = affine_map<(b, s, h) -> (b, s)>
#out = affine_map<(b, s, h) -> (b, s, h)>
func.func @embedding(%ids: tensor<4x8xi64>, %table: tensor<64x32xf32>, %x: tensor<4x8x32xf32> {summa.role = "activation"}) -> tensor<4x8x32xf32> {
  %e = tensor.empty() : tensor<4x8x32xf32>
  %y = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<4x8xi64>) outs(%e : tensor<4x8x32xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 2 : index
    %v = tensor.extract %table[%row, %col] : tensor<64x32xf32>
    linalg.yield %v : f32
  } -> tensor<4x8x32xf32>
  %z = linalg.generic {indexing_maps = [#out, #out, #out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y, %x : tensor<4x8x32xf32>, tensor<4x8x32xf32>) outs(%e : tensor<4x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8x32xf32>
  return %z : tensor<4x8x32xf32>
}

// -----

// The logit a cross-entropy picks, from logits split over the vocabulary
// (col): a masked local pick and one all-reduce of a value per token, never
// the logits gathered.
// CHECK-LABEL: func.func @pick
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: tensor.extract %{{.*}} : tensor<4x32xf32>
// CHECK: summa.all_reduce %[[P]] on @grid axes = [col] kind = sum : tensor<4x1xf32> -> tensor<4x1xf32>
// CHECK-NOT: summa.all_gather
// REMARK-LABEL: gather from a table laid out as #summa.layout<@grid, {{\[\[}}depth, row], [col]]>: each rank reads the rows it owns over [col], zero elsewhere
#t2 = affine_map<(t, u) -> (t, u)>
func.func @pick(%x: tensor<16x32xf32> {summa.role = "activation"}, %w: tensor<32x64xf32> {summa.role = "weight"}, %targets: tensor<16x1xi64>) -> tensor<16x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %logits = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x64xf32>) outs(%f : tensor<16x64xf32>) -> tensor<16x64xf32>
  %p = tensor.empty() : tensor<16x1xf32>
  %picked = linalg.generic {indexing_maps = [#t2, #t2], iterator_types = ["parallel", "parallel"]}
      ins(%targets : tensor<16x1xi64>) outs(%p : tensor<16x1xf32>) {
  ^bb0(%t: i64, %o: f32):
    %row = linalg.index 0 : index
    %col = arith.index_cast %t : i64 to index
    %v = tensor.extract %logits[%row, %col] : tensor<16x64xf32>
    linalg.yield %v : f32
  } -> tensor<16x1xf32>
  return %picked : tensor<16x1xf32>
}

// -----

// An embedding's gradient into zeros: the rows of a [[row], [col]] table
// each rank owns, its share of the updates (the tokens over depth, the
// axes the table leaves): indices offset by the rank's row block (the rows
// of other ranks fall outside and are skipped), then the depth all-reduce
// of any weight gradient.
// CHECK-LABEL: func.func @scatter
// CHECK: %[[SHIFT:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<2x8x1xi64>)
// CHECK: arith.subi
// CHECK: %[[S:.*]] = summa.scatter dimension_map = [0] ins(%{{.*}}, %[[SHIFT]] : tensor<2x8x16xf32>, tensor<2x8x1xi64>) outs(%{{.*}} : tensor<32x16xf32>)
// CHECK: summa.all_reduce %[[S]] on @grid axes = [depth] kind = sum : tensor<32x16xf32>
// REMARK-LABEL: redistribution of 'tensor<1x8x16xf32>' from #summa.layout<@grid, {{\[\[}}depth, row], [], [col]]> to #summa.layout<@grid, {{\[\[}}depth], [], [col]]>: 512 bytes received per rank; summa.all_gather over [row] of dimension 0
// REMARK: remark: scatter into a tensor laid out as #summa.layout<@grid, {{\[\[}}row], [col]]>: indices offset by this rank's block, the updates of rows other ranks own skipped
func.func @scatter(%dy: tensor<4x8x32xf32> {summa.role = "activation"}, %ids: tensor<4x8x1xi64>, %w: tensor<64x32xf32> {summa.role = "weight"}) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %g = summa.scatter dimension_map = [0] ins(%dy, %ids : tensor<4x8x32xf32>, tensor<4x8x1xi64>) outs(%f : tensor<64x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %b, %a : f32
    summa.yield %s : f32
  } -> tensor<64x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%w, %g : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
