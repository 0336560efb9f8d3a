// Uses that want another layout than their value has get an explicit
// summa.relayout (summa-assign-layouts), which summa-partition turns into
// all-gathers of the dimensions whose split changes and a local slice.
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" | FileCheck %s
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" --summa-partition | FileCheck %s --check-prefix=PART

// A weight on the lhs of a forward product: the lhs is re-laid out as an
// activation.
// CHECK-LABEL: func.func @weight_times_weight
// CHECK: summa.relayout %arg0 to <@grid, {{\[}}[depth, row], [col]]>
// PART-LABEL: func.func @weight_times_weight
// PART: summa.all_gather %arg0 on @grid axes = [row] dim = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
// PART: tensor.extract_slice {{.*}} : tensor<8x4xf32> to tensor<2x4xf32>
// PART: summa.matmul
func.func @weight_times_weight(%a: tensor<8x8xf32> {summa.role = "weight"}, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %mm : tensor<8x8xf32>
}

// -----

// A product whose maps are none of the SUMMA forms is a local product: its
// contracted dimension is gathered.
// CHECK-LABEL: func.func @transposed_result
// CHECK: summa.relayout
// PART-LABEL: func.func @transposed_result
// PART: summa.all_gather %arg0 on @grid axes = [col] dim = 1
// PART: linalg.matmul
// PART-NOT: summa.matmul
func.func @transposed_result(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (n, m)>]
      ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %mm : tensor<8x8xf32>
}

// -----

// Concatenation along a split dimension of inputs of one size: the result
// is factored into one group per input, each rank concatenates its tiles.
// CHECK-LABEL: func.func @concat
// CHECK-NOT: summa.relayout
// CHECK: tensor.concat {{.*}}summa.layouts = [#summa.layout<@grid, [2x[depth, row], [col]]>]
// PART-LABEL: func.func @concat
// PART-NOT: summa.all_gather
// PART: tensor.concat dim(0) %arg0, %arg0 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
func.func @concat(%x: tensor<8x8xf32>) -> tensor<16x8xf32> {
  %r = tensor.concat dim(0) %x, %x : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// Inputs of different sizes along a split dimension: that dimension is
// taken whole.
// CHECK-LABEL: func.func @concat_unequal
// CHECK: summa.relayout %arg0 to <@grid, {{\[}}[], [col]]>
// CHECK: tensor.concat {{.*}}summa.layouts = [#summa.layout<@grid, {{\[}}[], [col]]>]
// PART-LABEL: func.func @concat_unequal
// PART: summa.all_gather %arg0 on @grid axes = [depth, row] dim = 0 : tensor<2x4xf32> -> tensor<8x4xf32>
// PART: tensor.concat dim(0) {{.*}} -> tensor<24x4xf32>
func.func @concat_unequal(%x: tensor<8x8xf32>, %y: tensor<16x8xf32>) -> tensor<24x8xf32> {
  %r = tensor.concat dim(0) %x, %y : (tensor<8x8xf32>, tensor<16x8xf32>) -> tensor<24x8xf32>
  return %r : tensor<24x8xf32>
}

// -----

// An activation added to a weight: the weight is sliced to the activation's
// blocks (it is whole over depth and holds more than each block needs).
// CHECK-LABEL: func.func @conflict
// CHECK: summa.relayout %arg1 to <@grid, {{\[}}[depth, row], [col]]>
// PART-LABEL: func.func @conflict
// PART: summa.all_gather %arg1 on @grid axes = [row] dim = 0
// PART: tensor.extract_slice
func.func @conflict(%x: tensor<8x8xf32>, %y: tensor<8x8xf32> {summa.role = "weight"}) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// -----

// An argument no rule reaches is replicated.
// CHECK-LABEL: func.func @unused_vector
// CHECK-SAME: summa.layout = #summa.layout<@grid, {{\[}}[]]>
func.func @unused_vector(%b: tensor<8xf32>) {
  return
}

// -----

// A slice across tiles that no factored layout keeps inside them (its
// offset, 3, is no multiple of the 2 col blocks; factored.mlir has the
// aligned slices of GPT-2's fused c_attn) gathers the sliced dimension.
// CHECK-LABEL: func.func @slice_across_tiles
// CHECK: summa.relayout %arg0 to <@grid, {{\[}}[depth, row], []]>
// PART-LABEL: func.func @slice_across_tiles
// PART: summa.all_gather %arg0 on @grid axes = [col] dim = 1 : tensor<4x4xf32> -> tensor<4x8xf32>
// PART: tensor.extract_slice %{{.*}}[0, 3] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
func.func @slice_across_tiles(%x: tensor<16x8xf32>) -> tensor<16x4xf32> {
  %s = tensor.extract_slice %x[0, 3] [16, 4] [1, 1] : tensor<16x8xf32> to tensor<16x4xf32>
  return %s : tensor<16x4xf32>
}

// -----

// A rank-reducing slice: the dropped dimension is not split.
// CHECK-LABEL: func.func @slice_rank_reducing
// PART-LABEL: func.func @slice_rank_reducing
// PART: summa.all_gather %arg0 on @grid axes = [depth, row] dim = 0
// PART: tensor.extract_slice %{{.*}}[0, 0] [1, 4] [1, 1] : tensor<16x4xf32> to tensor<4xf32>
func.func @slice_rank_reducing(%x: tensor<16x8xf32>) -> tensor<8xf32> {
  %s = tensor.extract_slice %x[0, 0] [1, 8] [1, 1] : tensor<16x8xf32> to tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// Softmax over a split dimension takes it whole.
// CHECK-LABEL: func.func @softmax_split
// CHECK: summa.relayout %arg0 to <@grid, {{\[}}[depth, row], []]>
func.func @softmax_split(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %p : tensor<16x8xf32>
}

// -----

// A reduction whose accumulator is not the combiner's identity cannot be
// completed by an all-reduce: the reduced dimension is gathered.
// CHECK-LABEL: func.func @not_identity
// CHECK: summa.relayout %arg0 to <@grid, {{\[}}[depth, row], []]>
// CHECK-NOT: summa.reduce_axes
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @not_identity(%x: tensor<16x8xf32>) -> tensor<16xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x8xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

// Nor can one whose combiner is not a known kind.
// CHECK-LABEL: func.func @unknown_combiner
// CHECK: summa.relayout %arg0 to <@grid, {{\[}}[depth, row], []]>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @unknown_combiner(%x: tensor<16x8xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x8xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.subf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %s : tensor<16xf32>
}

// -----

// A named reduction (matvec) over a split dimension: gathered too.
// CHECK-LABEL: func.func @matvec_split_k
// CHECK: summa.relayout %arg0 to <@grid, {{\[}}[depth, row], []]>
func.func @matvec_split_k(%a: tensor<16x8xf32>, %x: tensor<8xf32>) -> tensor<16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %y = linalg.matvec ins(%a, %x : tensor<16x8xf32>, tensor<8xf32>) outs(%f : tensor<16xf32>) -> tensor<16xf32>
  return %y : tensor<16xf32>
}

// -----

// Merging a split dimension into the one outside it: the merged dimension
// is factored into groups, one per index of the outer dimension, each split
// as the inner one was (each rank holds its block of every group); nothing
// is gathered.
// CHECK-LABEL: func.func @inner_split
// CHECK-SAME: -> (tensor<32x16xf32> {summa.layout = #summa.layout<@grid, {{\[}}4x[depth, row], [col]]>})
// CHECK-NOT: summa.relayout
// CHECK: tensor.collapse_shape {{.*}}summa.layouts = [#summa.layout<@grid, {{\[}}4x[depth, row], [col]]>]
// CHECK-NOT: summa.relayout
// CHECK: return
func.func @inner_split(%y: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %h = tensor.expand_shape %y [[0, 1], [2, 3]] output_shape [8, 4, 4, 4] : tensor<32x16xf32> into tensor<8x4x4x4xf32>
  %e = tensor.empty() : tensor<4x8x4x4xf32>
  %t = linalg.transpose ins(%h : tensor<8x4x4x4xf32>) outs(%e : tensor<4x8x4x4xf32>) permutation = [1, 0, 2, 3]
  %c = tensor.collapse_shape %t [[0, 1], [2, 3]] : tensor<4x8x4x4xf32> into tensor<32x16xf32>
  return %c : tensor<32x16xf32>
}

// -----

// A weight stored [out, in] (PyTorch's nn.Linear) and transposed before the
// product is laid out [[col], [row]], so that its transpose is the SUMMA
// weight without any communication.
// CHECK-LABEL: func.func @torch_linear
// CHECK-SAME: %arg1: tensor<16x8xf32> {summa.layout = #summa.layout<@grid, {{\[}}[col], [row]]>}
// CHECK-NOT: summa.relayout
// PART-LABEL: func.func @torch_linear
// PART-NOT: summa.all_gather
// PART: summa.matmul
func.func @torch_linear(%x: tensor<16x8xf32>, %w: tensor<16x8xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<8x16xf32>
  %wt = linalg.transpose ins(%w : tensor<16x8xf32>) outs(%et : tensor<8x16xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %mm = linalg.matmul ins(%x, %wt : tensor<16x8xf32>, tensor<8x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %mm : tensor<16x16xf32>
}

// -----

// One tensor.empty shared by a weight-shaped and an activation-shaped result
// (torch-mlir does this when tokens equal hidden): each use gets its own.
// CHECK-LABEL: func.func @shared_empty
// CHECK-COUNT-2: tensor.empty() {summa.layouts
// CHECK-NOT: summa.relayout
func.func @shared_empty(%x: tensor<8x8xf32>, %w: tensor<8x8xf32> {summa.role = "weight"}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %g = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %y : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y, %g : tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// A non-splat constant (a rotary table, a mask) is replicated and each rank
// slices its block.
// PART-LABEL: func.func @dense_constant
// PART: %[[C:.*]] = arith.constant dense<{{.*}}> : tensor<8x8xf32>
// PART: tensor.extract_slice %[[C]]{{.*}} : tensor<8x8xf32> to tensor<2x4xf32>
func.func @dense_constant(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %c : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// A scalar read from a split tensor: the tensor is gathered whole.
// CHECK-LABEL: func.func @scalar_read
// CHECK: summa.relayout %arg0 to <@grid, {{\[}}[], []]>
// CHECK: tensor.extract
// PART-LABEL: func.func @scalar_read
// PART: summa.all_gather %arg0 on @grid axes = [depth, row] dim = 0
// PART: summa.all_gather %{{.*}} on @grid axes = [col] dim = 1
// PART: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<8x8xf32>
func.func @scalar_read(%x: tensor<8x8xf32>) -> f32 {
  %c3 = arith.constant 3 : index
  %v = tensor.extract %x[%c3, %c3] : tensor<8x8xf32>
  return %v : f32
}
