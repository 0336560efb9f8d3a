// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" | FileCheck %s
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" --summa-partition="remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A batch of 2 is smaller than the token split [depth, row] (4 blocks on
// [2, 2, 2]): the tokens [batch, seq] spread over both, the batch over
// depth and the sequence over row. Every rank still holds one contiguous
// block of the tokens, so the reshapes to and from [batch * seq, hidden]
// around the linear layer need no communication.
// CHECK-LABEL: func.func @small_batch
// CHECK-SAME: summa.layout = #summa.layout<@grid, {{\[\[}}depth], [row], [col]]>
// CHECK: tensor.collapse_shape {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [col]]>]
// CHECK: tensor.expand_shape {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth], [row], [col]]>]
// REMARK: remark: 2.5D SUMMA matmul
// REMARK-NOT: redistribution
func.func @small_batch(%x: tensor<2x8x32xf32> {summa.role = "activation"}, %w: tensor<32x32xf32> {summa.role = "weight"}) -> tensor<2x8x32xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul ins(%c, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = tensor.expand_shape %m [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
  return %r : tensor<2x8x32xf32>
}

// -----

// Token ids [batch, seq] whose tokens are laid out by their uses: the
// expansion of [batch * seq, hidden] spreads the same way.
// CHECK-LABEL: func.func @expand_spreads
// CHECK: tensor.expand_shape {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth], [row], [col]]>]
func.func @expand_spreads(%x: tensor<16x32xf32> {summa.role = "activation"}) -> tensor<2x8x32xf32> {
  %r = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
  return %r : tensor<2x8x32xf32>
}

