// RUN: summa-opt %s --summa-derive-generation=prompt=2 --canonicalize --cse | FileCheck %s
// RUN: summa-opt %s --summa-derive-generation="prompt=2 next-token=false" --canonicalize --cse | FileCheck %s --check-prefix=SAMPLE

// A one-layer causal language model small enough to read: token ids
// [1, 4] embedded, a self-attention whose query, keys and values are the
// embedded tokens themselves, a causal mask added to the scores, logits by
// the transposed embedding. The decode step takes the token at `pos`: its
// embedding is written into the one cache (the keys and the values are the
// same value) at `pos`, the mask's row `pos` is added to its scores over
// all 4 keys, and the greedy token, pos + 1, the cache and the generated
// ids are returned, each updating its argument. The cache is state (laid
// out as the step writes it); the step's products keep their weights in
// place (summa.weight_stationary, assign-layouts-weight-stationary.mlir).

// The prefill (prompt=2): the forward on the 2 prompt tokens at position
// 0, their embeddings written into a cache of zeros, the mask's rows 0 and
// 1, the logits of the last prompt token alone (the logits' product reads
// the attention's output at the last position only, as Hugging Face's
// generate() computes them), its greedy successor written after the
// prompt in the generated ids.
// CHECK-LABEL: func.func @lm_prefill(
// CHECK-SAME: %[[IDS:[^:]*]]: tensor<1x2xi64> {summa.name = "input_ids"}
// CHECK-SAME: %[[W:[^:]*]]: tensor<8x4xf32> {summa.name = "emb"}
// CHECK-SAME: -> (tensor<1x1x8xf32> {summa.name = "logits"}, tensor<1x1xi64> {summa.name = "token"}, tensor<i64> {summa.name = "pos"}, tensor<1x4x4xf32> {summa.name = "cache.0"}, tensor<1x4xi64> {summa.name = "generated"})
// CHECK: %[[P:.*]] = arith.constant dense<2> : tensor<i64>
// CHECK: %[[X:.*]] = linalg.generic {{.*}} ins(%[[IDS]] : tensor<1x2xi64>) outs(%{{.*}} : tensor<1x2x4xf32>)
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x4x4xf32>
// CHECK: %[[KV:.*]] = tensor.insert_slice %[[X]] into %[[Z]][0, 0, 0] [1, 2, 4] [1, 1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[KV]] : tensor<1x2x4xf32>, tensor<1x4x4xf32>)
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
// CHECK: %[[O:.*]] = tensor.extract_slice %{{.*}}[0, 1, 0] [1, 1, 4] [1, 1, 1] : tensor<1x2x4xf32> to tensor<1x1x4xf32>
// CHECK: %[[LAST:.*]] = linalg.generic {{.*}} ins(%[[O]], %[[W]] : tensor<1x1x4xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<1x1x8xf32>)
// CHECK: %[[NEXT:.*]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[LAST]] : tensor<1x1x8xf32>)
// CHECK: %[[G0:.*]] = tensor.insert_slice %[[IDS]] into %{{.*}}[0, 0] [1, 2] [1, 1]
// CHECK: %[[GEN:.*]] = tensor.insert_slice %[[NEXT]]#1 into %[[G0]][0, 2] [1, 1] [1, 1]
// CHECK: return %[[LAST]], %[[NEXT]]#1, %[[P]], %[[KV]], %[[GEN]]

// CHECK-LABEL: func.func @lm_decode(
// CHECK-SAME: %[[TOK:[^:]*]]: tensor<1x1xi64> {summa.name = "token"}
// CHECK-SAME: %[[POS:[^:]*]]: tensor<i64> {summa.name = "pos"}
// CHECK-SAME: %[[EMB:[^:]*]]: tensor<8x4xf32> {summa.name = "emb"}
// CHECK-SAME: %[[CACHE:[^:]*]]: tensor<1x4x4xf32> {summa.name = "cache.0", summa.role = "state"}
// CHECK-SAME: %[[OUT:[^:]*]]: tensor<1x4xi64> {summa.name = "generated"}
// CHECK-SAME: -> (tensor<1x1x8xf32>, tensor<1x1xi64> {summa.updates = 0 : i64}, tensor<i64> {summa.updates = 1 : i64}, tensor<1x4x4xf32> {summa.updates = 3 : i64}, tensor<1x4xi64> {summa.updates = 4 : i64}) attributes {summa.weight_stationary}
// CHECK: %[[P:.*]] = tensor.extract %[[POS]][] : tensor<i64>
// CHECK: %[[I:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK: %[[LO:.*]] = arith.maxsi %[[I]], %c0
// CHECK: %[[AT:.*]] = arith.minsi %[[LO]], %c3
// CHECK: %[[X1:.*]] = linalg.generic {{.*}} ins(%[[TOK]] : tensor<1x1xi64>) outs(%{{.*}} : tensor<1x1x4xf32>)
// CHECK: %[[KV:.*]] = tensor.insert_slice %[[X1]] into %[[CACHE]][0, %[[AT]], 0] [1, 1, 4] [1, 1, 1] : tensor<1x1x4xf32> into tensor<1x4x4xf32>
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[X1]], %[[KV]] : tensor<1x1x4xf32>, tensor<1x4x4xf32>) outs(%{{.*}} : tensor<1x1x4xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %{{.*}}[%[[AT]], 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<1x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[S]], %[[ROW]] : tensor<1x1x4xf32>, tensor<1x4xf32>)
// CHECK: %[[O:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[KV]] : tensor<1x1x4xf32>, tensor<1x4x4xf32>) outs(%{{.*}} : tensor<1x1x4xf32>)
// CHECK: %[[L:.*]] = linalg.generic {{.*}} ins(%[[O]], %[[EMB]] : tensor<1x1x4xf32>, tensor<8x4xf32>) outs(%{{.*}} : tensor<1x1x8xf32>)
// CHECK: %[[NP:.*]] = linalg.generic {{.*}} ins(%[[POS]] : tensor<i64>)
// CHECK: %[[N:.*]]:2 = linalg.generic {{.*}} ins(%[[L]] : tensor<1x1x8xf32>)
// CHECK: arith.cmpf ogt
// CHECK: %[[G:.*]] = tensor.insert_slice %[[N]]#1 into %[[OUT]][0, %{{.*}}] [1, 1] [1, 1]
// CHECK: return %[[L]], %[[N]]#1, %[[NP]], %[[KV]], %[[G]]

// next-token=false (summa-compile --generate, whose driver samples the
// token from the logits): no argmax and no generated ids; the decode
// step's token is an input nothing updates.
// SAMPLE-LABEL: func.func @lm_prefill(
// SAMPLE-SAME: -> (tensor<1x1x8xf32> {summa.name = "logits"}, tensor<i64> {summa.name = "pos"}, tensor<1x4x4xf32> {summa.name = "cache.0"})
// SAMPLE-NOT: iterator_types = ["parallel", "parallel", "reduction"]
// SAMPLE: return
// SAMPLE-LABEL: func.func @lm_decode(
// SAMPLE-SAME: %{{[^:]*}}: tensor<1x1xi64> {summa.name = "token"}
// SAMPLE-SAME: %{{[^:]*}}: tensor<i64> {summa.name = "pos"}
// SAMPLE-SAME: %{{[^:]*}}: tensor<8x4xf32> {summa.name = "emb"}
// SAMPLE-SAME: %{{[^:]*}}: tensor<1x4x4xf32> {summa.name = "cache.0", summa.role = "state"})
// SAMPLE-SAME: -> (tensor<1x1x8xf32>, tensor<i64> {summa.updates = 1 : i64}, tensor<1x4x4xf32> {summa.updates = 3 : i64}) attributes {summa.weight_stationary}
// SAMPLE-NOT: iterator_types = ["parallel", "parallel", "reduction"]
// SAMPLE: return

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
func.func @lm(%ids: tensor<1x4xi64>, %emb: tensor<8x4xf32> {summa.name = "emb"}) -> tensor<1x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %mask = arith.constant dense<[[0.0, -1.0e9, -1.0e9, -1.0e9], [0.0, 0.0, -1.0e9, -1.0e9], [0.0, 0.0, 0.0, -1.0e9], [0.0, 0.0, 0.0, 0.0]]> : tensor<4x4xf32>
  %e0 = tensor.empty() : tensor<1x4x4xf32>
  %x = linalg.generic {indexing_maps = [#ids, #bse], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x4xi64>) outs(%e0 : tensor<1x4x4xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 2 : index
    %v = tensor.extract %emb[%row, %col] : tensor<8x4xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x4xf32>
  %e1 = tensor.empty() : tensor<1x4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %scores = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %x : tensor<1x4x4xf32>, tensor<1x4x4xf32>) outs(%z1 : tensor<1x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4xf32>
  %masked = linalg.generic {indexing_maps = [#s3, #m3, #s3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scores, %mask : tensor<1x4x4xf32>, tensor<4x4xf32>) outs(%e1 : tensor<1x4x4xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4xf32>
  %weights = linalg.generic {indexing_maps = [#s3, #s3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%masked : tensor<1x4x4xf32>) outs(%e1 : tensor<1x4x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4xf32>
  %attended = linalg.generic {indexing_maps = [#pw, #pv, #po], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%weights, %x : tensor<1x4x4xf32>, tensor<1x4x4xf32>) outs(%z1 : tensor<1x4x4xf32>) {
  ^bb0(%w: f32, %v: f32, %acc: f32):
    %p = arith.mulf %w, %v : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4xf32>
  %e2 = tensor.empty() : tensor<1x4x8xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %logits = linalg.generic {indexing_maps = [#lx, #lw, #lo], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%attended, %emb : tensor<1x4x4xf32>, tensor<8x4xf32>) outs(%z2 : tensor<1x4x8xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %p = arith.mulf %a, %w : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<1x4x8xf32>
  return %logits : tensor<1x4x8xf32>
}
