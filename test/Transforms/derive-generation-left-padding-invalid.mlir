// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-derive-generation="prompt=2 left-padding=true"

// Left-padded rows need each row's positions: a position computed from
// the index of the tokens' loop along the sequence is a slot, the same for
// every row, and is refused.
#ids = affine_map<(b, s, e) -> (b, s)>
#bse = affine_map<(b, s, e) -> (b, s, e)>
func.func @inline_positions(%ids: tensor<2x4xi64>, %emb: tensor<8x4xf32>) -> tensor<2x4x8xf32> {
  %e0 = tensor.empty() : tensor<2x4x4xf32>
  %x0 = linalg.generic {indexing_maps = [#ids, #bse], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<2x4xi64>) outs(%e0 : tensor<2x4x4xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 2 : index
    %v = tensor.extract %emb[%row, %col] : tensor<8x4xf32>
    linalg.yield %v : f32
  } -> tensor<2x4x4xf32>
  // expected-error @+1 {{summa-derive-generation: left-padded rows need their own positions, and this op computes them from the index of its loop along the sequence}}
  %x = linalg.generic {indexing_maps = [#bse, #bse], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x0 : tensor<2x4x4xf32>) outs(%e0 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %i = linalg.index 1 : index
    %i64 = arith.index_cast %i : index to i64
    %p = arith.sitofp %i64 : i64 to f32
    %r = arith.addf %a, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %e2 = tensor.empty() : tensor<2x4x8xf32>
  return %e2 : tensor<2x4x8xf32>
}

// -----

// A position table meeting tokens that have lost their rows (summed over
// the batch): no row to count the positions of.
#ids = affine_map<(b, s, e) -> (b, s)>
#bse = affine_map<(b, s, e) -> (b, s, e)>
#se = affine_map<(b, s, e) -> (s, e)>
#s2 = affine_map<(s, e) -> (s, e)>
func.func @no_rows(%ids: tensor<2x4xi64>, %emb: tensor<8x4xf32>, %wpe: tensor<4x4xf32>) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x4xf32>
  %x0 = linalg.generic {indexing_maps = [#ids, #bse], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<2x4xi64>) outs(%e0 : tensor<2x4x4xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 2 : index
    %v = tensor.extract %emb[%row, %col] : tensor<8x4xf32>
    linalg.yield %v : f32
  } -> tensor<2x4x4xf32>
  %e1 = tensor.empty() : tensor<4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(s, e, b) -> (b, s, e)>, affine_map<(s, e, b) -> (s, e)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x0 : tensor<2x4x4xf32>) outs(%z1 : tensor<4x4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  // expected-error @+1 {{summa-derive-generation: left-padded rows need their own positions here, and this op has no loop over the batch's rows}}
  %x = linalg.generic {indexing_maps = [#s2, #s2, #s2], iterator_types = ["parallel", "parallel"]} ins(%sum, %wpe : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e1 : tensor<4x4xf32>) {
  ^bb0(%a: f32, %p: f32, %out: f32):
    %r = arith.addf %a, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<2x4x8xf32>
  return %e2 : tensor<2x4x8xf32>
}
