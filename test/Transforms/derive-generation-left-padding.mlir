// RUN: summa-opt %s --summa-derive-generation="prompt=2 next-token=false left-padding=true" --canonicalize --cse | FileCheck %s

// left-padding=true: rows of different lengths, left-padded to one, as
// Hugging Face's generate() takes them. Both steps take `start` [B], the
// slot of each row's first token. A row's positions count from its start:
// the position table the tokens meet is read at pos + i - start[b] per row
// (clamped into the table), a tensor of [B, T, E] instead of the block
// [T, E] at pos. The causal mask still relates slots (its row is taken at
// pos), and the scores it meets have the keys before each row's start set
// to the lowest f32, so that no query weighs the padding.

// CHECK-LABEL: func.func @lm_prefill(
// CHECK-SAME: %[[IDS:[^:]*]]: tensor<2x2xi64> {summa.name = "input_ids"}
// CHECK-SAME: %[[START:[^:]*]]: tensor<2xi64> {summa.name = "start"}
// CHECK-SAME: %[[EMB:[^:]*]]: tensor<8x4xf32> {summa.name = "emb"}
// CHECK-SAME: %[[WPE:[^:]*]]: tensor<4x4xf32> {summa.name = "wpe"}
// CHECK: %[[X0:.*]] = linalg.generic {{.*}} ins(%[[IDS]] : tensor<2x2xi64>)
// CHECK: %[[PE:.*]] = linalg.generic {indexing_maps = [#[[ROW:.*]], #[[ALL:.*]]], {{.*}} ins(%[[START]] : tensor<2xi64>) outs(%{{.*}} : tensor<2x2x4xf32>)
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[E:.*]] = linalg.index 2 : index
// CHECK: %[[S:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[P:.*]] = arith.subi %[[I]], %[[S]] : index
// CHECK: %[[LO:.*]] = arith.maxsi %[[P]], %c0
// CHECK: %[[AT:.*]] = arith.minsi %[[LO]], %c3
// CHECK: tensor.extract %[[WPE]][%[[AT]], %[[E]]] : tensor<4x4xf32>
// CHECK: %[[X:.*]] = linalg.generic {{.*}} ins(%[[X0]], %[[PE]] : tensor<2x2x4xf32>, tensor<2x2x4xf32>)
// CHECK: %[[KV:.*]] = tensor.insert_slice %[[X]] into
// CHECK: %[[SC:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[KV]] : tensor<2x2x4xf32>, tensor<2x4x4xf32>)
// CHECK: %[[ROWS:.*]] = tensor.extract_slice %{{.*}}[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
// CHECK: %[[PAD:.*]] = linalg.generic {{.*}} ins(%[[SC]], %[[START]] : tensor<2x2x4xf32>, tensor<2xi64>)
// CHECK: ^bb0(%[[V:.*]]: f32, %[[FIRST:.*]]: i64, %{{.*}}: f32):
// CHECK: %[[K:.*]] = linalg.index 2 : index
// CHECK: %[[K64:.*]] = arith.index_cast %[[K]] : index to i64
// CHECK: %[[BEFORE:.*]] = arith.cmpi slt, %[[K64]], %[[FIRST]] : i64
// CHECK: arith.select %[[BEFORE]], %cst{{.*}}, %[[V]] : f32
// CHECK: linalg.generic {{.*}} ins(%[[PAD]], %[[ROWS]] : tensor<2x2x4xf32>, tensor<2x4xf32>)
// CHECK: return

// The decode step: `start` after the position; the token's position in
// its row is pos - start[b].
// CHECK-LABEL: func.func @lm_decode(
// CHECK-SAME: %[[TOK:[^:]*]]: tensor<2x1xi64> {summa.name = "token"}
// CHECK-SAME: %[[POS:[^:]*]]: tensor<i64> {summa.name = "pos"}
// CHECK-SAME: %[[START:[^:]*]]: tensor<2xi64> {summa.name = "start"}
// CHECK-SAME: %[[EMB:[^:]*]]: tensor<8x4xf32> {summa.name = "emb"}
// CHECK-SAME: %[[WPE:[^:]*]]: tensor<4x4xf32> {summa.name = "wpe"}
// CHECK-SAME: %{{[^:]*}}: tensor<2x4x4xf32> {summa.name = "cache.0", summa.role = "state"})
// CHECK-SAME: -> (tensor<2x1x8xf32>, tensor<i64> {summa.updates = 1 : i64}, tensor<2x4x4xf32> {summa.updates = 5 : i64})
// CHECK: %[[SLOT:.*]] = arith.minsi %{{.*}}, %c3 : index
// CHECK: %[[PE:.*]] = linalg.generic {{.*}} ins(%[[START]] : tensor<2xi64>) outs(%{{.*}} : tensor<2x1x4xf32>)
// CHECK: %[[S:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[P:.*]] = arith.subi %[[SLOT]], %[[S]] : index
// CHECK: %[[LO:.*]] = arith.maxsi %[[P]], %c0
// CHECK: %[[AT:.*]] = arith.minsi %[[LO]], %c3
// CHECK: tensor.extract %[[WPE]][%[[AT]], %{{.*}}] : tensor<4x4xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[PE]] : tensor<2x1x4xf32>, tensor<2x1x4xf32>)
// CHECK: %[[ROW:.*]] = tensor.extract_slice %{{.*}}[%[[SLOT]], 0] [1, 4] [1, 1] : tensor<4x4xf32> to tensor<1x4xf32>
// CHECK: %[[PAD:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[START]] : tensor<2x1x4xf32>, tensor<2xi64>)
// CHECK: linalg.generic {{.*}} ins(%[[PAD]], %[[ROW]] : tensor<2x1x4xf32>, tensor<1x4xf32>)

#ids = affine_map<(b, s, e) -> (b, s)>
#bse = affine_map<(b, s, e) -> (b, s, e)>
#se = affine_map<(b, s, e) -> (s, e)>
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
func.func @lm(%ids: tensor<2x4xi64>, %emb: tensor<8x4xf32> {summa.name = "emb"}, %wpe: tensor<4x4xf32> {summa.name = "wpe"}) -> tensor<2x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %mask = arith.constant dense<[[0.0, -1.0e9, -1.0e9, -1.0e9], [0.0, 0.0, -1.0e9, -1.0e9], [0.0, 0.0, 0.0, -1.0e9], [0.0, 0.0, 0.0, 0.0]]> : tensor<4x4xf32>
  %e0 = tensor.empty() : tensor<2x4x4xf32>
  %x0 = linalg.generic {indexing_maps = [#ids, #bse], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<2x4xi64>) outs(%e0 : tensor<2x4x4xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 2 : index
    %v = tensor.extract %emb[%row, %col] : tensor<8x4xf32>
    linalg.yield %v : f32
  } -> tensor<2x4x4xf32>
  %x = linalg.generic {indexing_maps = [#bse, #se, #bse], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x0, %wpe : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e0 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %p: f32, %out: f32):
    %r = arith.addf %a, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %scores = linalg.generic {indexing_maps = [#q, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %x : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%z1 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %masked = linalg.generic {indexing_maps = [#s3, #m3, #s3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scores, %mask : tensor<2x4x4xf32>, tensor<4x4xf32>) outs(%e0 : tensor<2x4x4xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %r = arith.addf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x4xf32>
  %weights = linalg.generic {indexing_maps = [#s3, #s3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%masked : tensor<2x4x4xf32>) outs(%e0 : tensor<2x4x4xf32>) {
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
  %e2 = tensor.empty() : tensor<2x4x8xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %logits = linalg.generic {indexing_maps = [#lx, #lw, #lo], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%attended, %emb : tensor<2x4x4xf32>, tensor<8x4xf32>) outs(%z2 : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %p = arith.mulf %a, %w : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8xf32>
  return %logits : tensor<2x4x8xf32>
}
