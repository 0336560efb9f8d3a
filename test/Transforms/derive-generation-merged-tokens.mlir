// RUN: summa-opt %s --summa-derive-generation=prompt=2 --canonicalize --cse | FileCheck %s

// The model of derive-generation.mlir, on a batch of 2, with a router's step between its
// attention and its logits, as a mixture of experts computes it on the
// batch's tokens merged into one dimension ([B, S, E] -> [B·S, E]): a
// score per token ([B·S]), given a unit dimension ([B·S] -> [B·S, 1]) and
// multiplied into the token's vector; on the way the score is repeated
// for 2 choices, the [B·S, 2] merged into [B·S·2] and computed on there
// (a top-2 router's [tokens·k], a batched product over it as Mixtral's
// experts are), then split back. The merged tokens keep
// the sequence, with what is below it (the 2 choices) carried through the
// product: the prefill's 2 prompt tokens and the decode's one
// token take the choices and the unit dimension the same way.

// CHECK-LABEL: func.func @lm_prefill(
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [4, 2] : tensor<8xf32> into tensor<4x2xf32>
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
// CHECK-LABEL: func.func @lm_decode(
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>

#ids = affine_map<(b, s, e) -> (b, s)>
#bse = affine_map<(b, s, e) -> (b, s, e)>
#q = affine_map<(b, i, j, e) -> (b, i, e)>
#k = affine_map<(b, i, j, e) -> (b, j, e)>
#s = affine_map<(b, i, j, e) -> (b, i, j)>
#s3 = affine_map<(b, i, j) -> (b, i, j)>
#m3 = affine_map<(b, i, j) -> (i, j)>
#pw = affine_map<(b, i, e, j) -> (b, i, j)>
#pv = affine_map<(b, i, e, j) -> (b, j, e)>
#po = affine_map<(b, i, e, j) -> (b, i, e)>
#lx = affine_map<(b, i, v, e) -> (b, i, e)>
#lw = affine_map<(b, i, v, e) -> (v, e)>
#lo = affine_map<(b, i, v, e) -> (b, i, v)>
func.func @lm(%ids: tensor<2x4xi64>, %emb: tensor<8x4xf32> {summa.name = "emb"}) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %mask = arith.constant dense<[[0.0, -1.0e9, -1.0e9, -1.0e9], [0.0, 0.0, -1.0e9, -1.0e9], [0.0, 0.0, 0.0, -1.0e9], [0.0, 0.0, 0.0, 0.0]]> : tensor<4x4xf32>
  %e0 = tensor.empty() : tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [#ids, #bse], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<2x4xi64>) outs(%e0 : tensor<2x4x4xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 2 : index
    %v = tensor.extract %emb[%row, %col] : tensor<8x4xf32>
    linalg.yield %v : f32
  } -> tensor<2x4x4xf32>
  %e1 = tensor.empty() : tensor<2x4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %scores = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %x : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z1 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %masked = linalg.generic {indexing_maps = [#s3, #m3, #s3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scores, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e1 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %weights = linalg.generic {indexing_maps = [#s3, #s3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%masked : tensor<2x4x4xf32>) outs(%e1 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %attended = linalg.generic {indexing_maps = [#pw, #pv, #po], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%weights, %x : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z1 : tensor<2x4x4xf32>) {
  ^bb0(%w: f32, %v: f32, %acc: f32):
    %p = arith.mulf %w, %v : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %flat = tensor.collapse_shape %attended [[0, 1], [2]] : tensor<2x4x4xf32> into tensor<8x4xf32>
  %e3 = tensor.empty() : tensor<8xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
  %score = linalg.generic {indexing_maps = [affine_map<(t, e) -> (t, e)>, affine_map<(t, e) -> (t)>], iterator_types = ["parallel", "reduction"]} ins(%flat : tensor<8x4xf32>) outs(%z3 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %e5 = tensor.empty() : tensor<8x2xf32>
  %pair = linalg.generic {indexing_maps = [affine_map<(t, k) -> (t)>, affine_map<(t, k) -> (t, k)>], iterator_types = ["parallel", "parallel"]} ins(%score : tensor<8xf32>) outs(%e5 : tensor<8x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<8x2xf32>
  %choices = tensor.collapse_shape %pair [[0, 1]] : tensor<8x2xf32> into tensor<16xf32>
  %c3 = tensor.expand_shape %choices [[0, 1, 2]] output_shape [16, 1, 1] : tensor<16xf32> into tensor<16x1x1xf32>
  %e6 = tensor.empty() : tensor<16x1x1xf32>
  %z6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<16x1x1xf32>) -> tensor<16x1x1xf32>
  %squares = linalg.batch_matmul ins(%c3, %c3 : tensor<16x1x1xf32>, tensor<16x1x1xf32>) outs(%z6 : tensor<16x1x1xf32>) -> tensor<16x1x1xf32>
  %weighted = tensor.collapse_shape %squares [[0, 1, 2]] : tensor<16x1x1xf32> into tensor<16xf32>
  %per = tensor.expand_shape %weighted [[0, 1]] output_shape [8, 2] : tensor<16xf32> into tensor<8x2xf32>
  %z8 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8xf32>) -> tensor<8xf32>
  %combined = linalg.generic {indexing_maps = [affine_map<(t, k) -> (t, k)>, affine_map<(t, k) -> (t)>], iterator_types = ["parallel", "reduction"]} ins(%per : tensor<8x2xf32>) outs(%z8 : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %unit = tensor.expand_shape %combined [[0, 1]] output_shape [8, 1] : tensor<8xf32> into tensor<8x1xf32>
  %e4 = tensor.empty() : tensor<8x4xf32>
  %routed = linalg.generic {indexing_maps = [affine_map<(t, e) -> (t, e)>, affine_map<(t, e) -> (t, 0)>, affine_map<(t, e) -> (t, e)>], iterator_types = ["parallel", "parallel"]} ins(%flat, %unit : tensor<8x4xf32>, tensor<8x1xf32>) outs(%e4 : tensor<8x4xf32>) {
  ^bb0(%a: f32, %w: f32, %out: f32):
    %r = arith.mulf %a, %w : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  %tokens = tensor.expand_shape %routed [[0, 1], [2]] output_shape [2, 4, 4] : tensor<8x4xf32> into tensor<2x4x4xf32>
  %e2 = tensor.empty() : tensor<2x4x8xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %logits = linalg.generic {indexing_maps = [#lx, #lw, #lo], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%tokens, %emb : tensor<2x4x4xf32>, tensor<8x4xf32>) outs(%z2 : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %p = arith.mulf %a, %w : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8xf32>
  return %logits : tensor<2x4x8xf32>
}
