// RUN: summa-opt %s --summa-assign-layouts=grid=2,2,2 | FileCheck %s

// An argument without a role that reaches a product's weight slot is a
// weight ([[row], [col]], never split over depth) through every op whose
// rules say it only moves its data whole (DataMoveOpInterface): a cast, a
// conversion of its elements, a copy, a transpose (the weight read
// transposed is laid out [[col], [row]]). A function of each
// element alone (a negation) keeps it a weight too; a slice does not (the
// product reads a part of it: it carries tokens).

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @moved
// CHECK-SAME: %{{.*}}: tensor<8x8xbf16> {summa.layout = #summa.layout<@grid, {{\[\[}}row], [col]]>}
// CHECK-SAME: %{{.*}}: tensor<8x8xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}col], [row]]>}
func.func @moved(%x: tensor<8x8xf32>, %w: tensor<8x8xbf16>, %v: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %s = tensor.cast %w : tensor<8x8xbf16> to tensor<8x8xbf16>
  %wf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xbf16>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: bf16, %b: f32):
    %f = arith.extf %a : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<8x8xf32>
  %z = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%x, %wf : tensor<8x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e2 = tensor.empty() : tensor<8x8xf32>
  %vc = linalg.copy ins(%v : tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e3 = tensor.empty() : tensor<8x8xf32>
  %vt = linalg.transpose ins(%vc : tensor<8x8xf32>) outs(%e3 : tensor<8x8xf32>) permutation = [1, 0]
  %acc2 = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y2 = linalg.matmul ins(%y, %vt : tensor<8x8xf32>, tensor<8x8xf32>) outs(%acc2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y2 : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @negated
// CHECK-SAME: %{{.*}}: tensor<8x8xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}row], [col]]>}
func.func @negated(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %wn = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<8x8xf32>
  %z = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%x, %wn : tensor<8x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// CHECK-LABEL: func.func @sliced
// CHECK-SAME: %{{.*}}: tensor<16x8xf32> {summa.layout = #summa.layout<@grid, [2x[depth, row], [col]]>}
func.func @sliced(%x: tensor<8x8xf32>, %w: tensor<16x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %ws = tensor.extract_slice %w[0, 0] [8, 8] [1, 1] : tensor<16x8xf32> to tensor<8x8xf32>
  %z = arith.constant 0.0 : f32
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%x, %ws : tensor<8x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
