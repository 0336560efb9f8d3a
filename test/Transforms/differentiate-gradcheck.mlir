// The derivative rules checked inside summa-opt (summa-test-gradcheck, a
// test-only pass of test/lib): each step summa-differentiate derives is
// compiled by JIT as the binary's --gradcheck compiles it and its gradients
// compared with finite differences of the loss, without summa-compile or
// MPI (gradcheck-planted.mlir runs the binary's own).
// RUN: summa-opt %s -split-input-file --summa-differentiate="params=floats" --summa-test-gradcheck --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#all2 = affine_map<(d0, d1) -> ()>

// A strided convolution with its bias as the accumulator's initial value,
// and a max pooling after it.
// CHECK: remark: gradcheck: x passes
// CHECK: remark: gradcheck: w passes
// CHECK: remark: gradcheck: b passes
func.func @conv_pool(%x: tensor<2x3x7x7xf32> {summa.name = "x"}, %w: tensor<4x3x3x3xf32> {summa.name = "w"}, %b: tensor<4xf32> {summa.name = "b"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<2x4x3x3xf32>
  %bias = linalg.broadcast ins(%b : tensor<4xf32>) outs(%0 : tensor<2x4x3x3xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<2x3x7x7xf32>, tensor<4x3x3x3xf32>) outs(%bias : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %pe = tensor.empty() : tensor<2x4x2x2xf32>
  %pi = linalg.fill ins(%ninf : f32) outs(%pe : tensor<2x4x2x2xf32>) -> tensor<2x4x2x2xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %win : tensor<2x4x3x3xf32>, tensor<2x2xf32>) outs(%pi : tensor<2x4x2x2xf32>) -> tensor<2x4x2x2xf32>
  %c = tensor.collapse_shape %p [[0, 1], [2, 3]] : tensor<2x4x2x2xf32> into tensor<8x4xf32>
  %e = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [#id2, #all2], iterator_types = ["reduction", "reduction"]} ins(%c : tensor<8x4xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    %s = arith.addf %t, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// An embedding lookup (a gather) whose row 0 is padding, and the logits of
// the tied table (A·Bᵀ): the padding row is frozen (its gradient is zero by
// definition), the rest follows the loss.
// CHECK: remark: gradcheck: table passes
#ids = affine_map<(a, b, c) -> (a, b)>
#out3 = affine_map<(a, b, c) -> (a, b, c)>
#id2b = affine_map<(d0, d1) -> (d0, d1)>
#all2b = affine_map<(d0, d1) -> ()>
func.func @embed(%ids: tensor<4x3xi64>, %table: tensor<6x8xf32> {summa.name = "table", summa.padding_idx = 0 : i64}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x3x8xf32>
  %g = linalg.generic {indexing_maps = [#ids, #out3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<4x3xi64>) outs(%e0 : tensor<4x3x8xf32>) {
  ^bb0(%i: i64, %o: f32):
    %r = arith.index_cast %i : i64 to index
    %c = linalg.index 2 : index
    %v = tensor.extract %table[%r, %c] : tensor<6x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x3x8xf32>
  %flat = tensor.collapse_shape %g [[0, 1], [2]] : tensor<4x3x8xf32> into tensor<12x8xf32>
  %le = tensor.empty() : tensor<12x6xf32>
  %lz = linalg.fill ins(%zero : f32) outs(%le : tensor<12x6xf32>) -> tensor<12x6xf32>
  %logits = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%flat, %table : tensor<12x8xf32>, tensor<6x8xf32>) outs(%lz : tensor<12x6xf32>) -> tensor<12x6xf32>
  %e = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [#id2b, #all2b], iterator_types = ["reduction", "reduction"]} ins(%logits : tensor<12x6xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    %s = arith.addf %t, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Slices, a concatenation and a pad (a rotary embedding's halves swapped
// and negated, a padded window): each family's adjoint.
// CHECK: remark: gradcheck: q passes
#id2c = affine_map<(d0, d1) -> (d0, d1)>
#all2c = affine_map<(d0, d1) -> ()>
func.func @halves(%q: tensor<4x8xf32> {summa.name = "q"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %lo = tensor.extract_slice %q[0, 0] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %hi = tensor.extract_slice %q[0, 4] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %ne = tensor.empty() : tensor<4x4xf32>
  %neg = linalg.generic {indexing_maps = [#id2c, #id2c], iterator_types = ["parallel", "parallel"]} ins(%hi : tensor<4x4xf32>) outs(%ne : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4x4xf32>
  %rot = tensor.concat dim(1) %neg, %lo : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  %padded = tensor.pad %rot low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x8xf32> to tensor<6x8xf32>
  %e = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [#id2c, #all2c], iterator_types = ["reduction", "reduction"]} ins(%padded : tensor<6x8xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %fi = arith.index_cast %i : index to i64
    %f = arith.sitofp %fi : i64 to f32
    %w = arith.mulf %a, %f : f32
    %sq = arith.mulf %w, %a : f32
    %s = arith.addf %sq, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
