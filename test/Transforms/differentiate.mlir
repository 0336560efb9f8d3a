// RUN: summa-opt %s -split-input-file --summa-differentiate="sgd-lr=0.5" | FileCheck %s

// loss = Σ (X·W + b)² / 4: dY = 2Y/4 broadcast from the loss, db = Σ_tokens
// dY (a reduction over the loop the bias map drops), dW = Xᵀ·dY (the Aᵀ·B
// SUMMA form), and SGD updates marked with the argument they replace.
// CHECK-LABEL: func.func @linear_loss_grad
// CHECK-SAME: (%[[X:[^:]*]]: tensor<2x2xf32> {summa.role = "activation"}, %[[W:[^:]*]]: tensor<2x2xf32> {summa.role = "weight"}, %[[B:[^:]*]]: tensor<2xf32> {summa.role = "bias"})
// CHECK-SAME: -> (tensor<1xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2x2xf32> {summa.updates = 1 : i64}, tensor<2xf32> {summa.updates = 2 : i64})
// The seed: d loss = 1.
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[SEED:.*]] = linalg.fill ins(%[[ONE]] : f32)
// d y from the loss reduction: a parallel generic over both loops.
// CHECK: %[[DY:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%{{.*}}, %{{.*}}, %[[SEED]] :
// db: the bias map drops d0, so d0 is a reduction.
// CHECK: %[[DB:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "parallel"]{{.*}} ins(%{{.*}}, %[[B]], %{{.*}}, %[[DY]] :
// dW = Xᵀ·dY: linalg.matmul with maps (d2, d0), (d2, d1).
// CHECK: %[[DW:.*]] = linalg.matmul indexing_maps = [#[[MA:.*]], #[[MB:.*]], #{{.*}}] ins(%[[X]], %{{.*}} : tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK: return %{{.*}}, %[[DW]], %[[DB]], %{{.*}}, %{{.*}}
func.func @linear_loss(%x: tensor<2x2xf32> {summa.role = "activation"},
                       %w: tensor<2x2xf32> {summa.role = "weight"},
                       %b: tensor<2xf32> {summa.role = "bias"}) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<2x2xf32>, tensor<2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  %le = tensor.empty() : tensor<1xf32>
  %lf = linalg.fill ins(%zero : f32) outs(%le : tensor<1xf32>) -> tensor<1xf32>
  %loss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>],
                          iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<2x2xf32>) outs(%lf : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %q = arith.constant 2.500000e-01 : f32
    %sc = arith.mulf %sq, %q : f32
    %r = arith.addf %sc, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %loss : tensor<1xf32>
}

// -----

// An embedding: the table read inside the body at a token id and yielded
// is a gather; its adjoint is a scatter-add of the output adjoint's rows
// into the table's rows the ids name (summa.scatter: O(tokens x hidden),
// not a one-hot product over the vocabulary). The ids become the scatter's
// [tokens, 1] index column, computed by a generic over the free loop.
// CHECK-LABEL: func.func @embedding_grad
// CHECK-SAME: (%[[ID:.*]]: tensor<4xi64>, %[[T:.*]]: tensor<16x8xf32> {summa.role = "weight"})
// CHECK: %[[COL:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[ID]] : tensor<4xi64>) outs(%{{.*}} : tensor<4xi64>)
// CHECK: arith.index_cast
// CHECK: %[[IDX:.*]] = tensor.expand_shape %[[COL]] {{\[}}[0, 1]] output_shape [4, 1] : tensor<4xi64> into tensor<4x1xi64>
// CHECK: %[[DT:.*]] = summa.scatter dimension_map = [0] ins(%{{.*}}, %[[IDX]] : tensor<4x8xf32>, tensor<4x1xi64>) outs(%{{.*}} : tensor<16x8xf32>) {
// CHECK: ^bb0(%[[U:.*]]: f32, %[[C:.*]]: f32):
// CHECK: %[[SUM:.*]] = arith.addf %[[C]], %[[U]] : f32
// CHECK: summa.yield %[[SUM]] : f32
// CHECK: return %{{.*}}, %[[DT]]
func.func @embedding(%ids: tensor<4xi64>, %table: tensor<16x8xf32> {summa.role = "weight"}) -> tensor<f32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<4x8xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A table with a padding index (summa.padding_idx, PyTorch's
// nn.Embedding(padding_idx)): the output adjoint is zero where a lookup read
// that row (the row computed as the gather computes it), before the
// scatter-add, so the padding row gets nothing from lookups.
// CHECK-LABEL: func.func @embedding_padding_grad
// CHECK-SAME: (%[[ID:.*]]: tensor<4xi64>, %[[T:.*]]: tensor<16x8xf32> {summa.padding_idx = 3 : i64, summa.role = "weight"})
// CHECK: %[[MASKED:.*]] = linalg.generic {{.*}} ins(%[[ID]], %{{.*}} : tensor<4xi64>, tensor<4x8xf32>)
// CHECK: ^bb0(%[[I:.*]]: i64, %[[G:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ROW:.*]] = arith.index_cast %[[I]] : i64 to index
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[PAD:.*]] = arith.cmpi eq, %[[ROW]], %[[C3]] : index
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SEL:.*]] = arith.select %[[PAD]], %[[Z]], %[[G]] : f32
// CHECK: linalg.yield %[[SEL]] : f32
// CHECK: summa.scatter dimension_map = [0] ins(%[[MASKED]], %{{.*}} : tensor<4x8xf32>, tensor<4x1xi64>)
func.func @embedding_padding(%ids: tensor<4xi64>, %table: tensor<16x8xf32> {summa.role = "weight", summa.padding_idx = 3}) -> tensor<f32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<4x8xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The logit a cross-entropy picks: the computed index (the target) depends
// on the loop that also indexes the table's rows, so no scatter of whole
// rows expresses the adjoint; it is the one-hot generic over the gather's
// loops and the vocabulary, O(tokens x vocabulary) like the logits.
// CHECK-DAG: #[[T2:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[LOGITS:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @pick_grad
// CHECK: %[[DL:.*]] = linalg.generic {indexing_maps = [#[[T2]], #[[T2]], #[[LOGITS]]], iterator_types = ["parallel", "parallel"]}
// CHECK: %[[V:.*]] = linalg.index 1 : index
// CHECK: %[[HIT:.*]] = arith.cmpi eq, %{{.*}}, %[[V]] : index
// CHECK: arith.select %[[HIT]]
// CHECK: return %{{.*}}, %[[DL]]
func.func @pick(%targets: tensor<4xi64>, %logits: tensor<4x16xf32> {summa.role = "weight"}) -> tensor<f32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%targets : tensor<4xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%t: i64, %o: f32):
    %row = linalg.index 0 : index
    %col = arith.index_cast %t : i64 to index
    %v = tensor.extract %logits[%row, %col] : tensor<4x16xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%y : tensor<4xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The step's results replace the function's, attributes included: the step
// of a function whose one result had attributes (here one an earlier tool
// left) has one attribute dictionary per result (was: the function's one,
// and a verifier error on the step).
// CHECK-LABEL: func.func @attributed_result_grad
// CHECK-SAME: -> (tensor<f32>, tensor<4x4xf32>, tensor<4x4xf32> {summa.updates = 1 : i64})
func.func @attributed_result(%x: tensor<2x4xf32> {summa.role = "activation"}, %w: tensor<4x4xf32> {summa.role = "weight"}) -> (tensor<f32> {test.kept = 1 : i64}) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<2x4xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
