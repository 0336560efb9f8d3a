// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-derive-generation=prompt=2

// A bidirectional attention (an encoder's: every position reads every
// other) has no decode step: the token's scores would weigh keys of
// positions not generated yet.
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
func.func @encoder(%ids: tensor<1x4xi64>, %emb: tensor<8x4xf32> {summa.name = "emb"}) -> tensor<1x4x8xf32> {
  %zero = arith.constant 0.0 : f32
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
  %weights = linalg.generic {indexing_maps = [#s3, #s3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scores : tensor<1x4x4xf32>) outs(%e1 : tensor<1x4x4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4xf32>
  // expected-error @+1 {{summa-derive-generation: the scores this op weighs the values with are not masked by position (a bidirectional attention, as an encoder's): a decode step would read keys of positions not generated yet}}
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

// -----

// expected-error @+1 {{summa-derive-generation: argument 0 must be the token ids, a static [batch, sequence] integer tensor; got 'tensor<1x4x4xf32>'}}
func.func @embedded(%x: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  return %x : tensor<1x4x4xf32>
}

// -----

// expected-error @+1 {{summa-derive-generation: result 0 must be the logits [batch, sequence, vocabulary]}}
func.func @loss(%ids: tensor<1x4xi64>, %w: tensor<8xf32>) -> tensor<f32> {
  %c = arith.constant dense<0.0> : tensor<f32>
  return %c : tensor<f32>
}

// -----

// A model with no attention: nothing relates two positions, there is no
// cache to keep (each position's logits are its token's alone).
#ids = affine_map<(b, s, v) -> (b, s)>
#out = affine_map<(b, s, v) -> (b, s, v)>
// expected-error @+1 {{summa-derive-generation: no attention relates two positions (the keys of a product of two values along the sequence); nothing to cache}}
func.func @bigram(%ids: tensor<1x4xi64>, %table: tensor<8x8xf32>) -> tensor<1x4x8xf32> {
  %e = tensor.empty() : tensor<1x4x8xf32>
  %r = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x4xi64>) outs(%e : tensor<1x4x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 2 : index
    %v = tensor.extract %table[%row, %col] : tensor<8x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x8xf32>
  return %r : tensor<1x4x8xf32>
}

// -----

// A convolution along the sequence reads it through a window (its result
// would be part of the logits; returned here beside them it is refused the
// same).
#ids = affine_map<(b, s, e) -> (b, s)>
#bse = affine_map<(b, s, e) -> (b, s, e)>
#in = affine_map<(b, s, e, k) -> (b, s + k, e)>
#w = affine_map<(b, s, e, k) -> (k)>
#o = affine_map<(b, s, e, k) -> (b, s, e)>
func.func @conv(%ids: tensor<1x4xi64>, %emb: tensor<8x4xf32>, %w: tensor<2xf32>) -> (tensor<1x4x4xf32>, tensor<1x3x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x4x4xf32>
  %x = linalg.generic {indexing_maps = [#ids, #bse], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<1x4xi64>) outs(%e0 : tensor<1x4x4xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 2 : index
    %v = tensor.extract %emb[%row, %col] : tensor<8x4xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x4xf32>
  %e1 = tensor.empty() : tensor<1x3x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  // expected-error @+1 {{summa-derive-generation: this op reads the sequence through a window; no decode step for it}}
  %c = linalg.generic {indexing_maps = [#in, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x4x4xf32>, tensor<2xf32>) outs(%z : tensor<1x3x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<1x3x4xf32>
  return %x, %c : tensor<1x4x4xf32>, tensor<1x3x4xf32>
}

// -----

// expected-error @+1 {{summa-derive-generation: more than one public function; name one with function=NAME}}
module {
  func.func @a(%ids: tensor<1x4xi64>) -> tensor<1x4x8xf32> {
    %c = arith.constant dense<0.0> : tensor<1x4x8xf32>
    return %c : tensor<1x4x8xf32>
  }
  func.func @b(%ids: tensor<1x4xi64>) -> tensor<1x4x8xf32> {
    %c = arith.constant dense<0.0> : tensor<1x4x8xf32>
    return %c : tensor<1x4x8xf32>
  }
}
