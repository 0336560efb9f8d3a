// An op added by its family file alone: tensor.cast's rules (layout,
// partition, derivative, split model) are in lib/Dialect/Summa/OpRules/
// Reshape.cpp, and each pass reaches them through the op-rule interfaces
// (docs/Architecture.md, "Add an op"). The cast keeps the weight's layout
// and becomes a cast of its local tile.
// RUN: summa-opt %s --summa-assign-layouts="grid=2,2,2" | FileCheck %s
// RUN: summa-opt %s --summa-assign-layouts="grid=2,2,2" --summa-partition | FileCheck %s --check-prefix=PART

// CHECK-LABEL: func.func @cast_loss
// CHECK: tensor.cast %arg1 {summa.layouts = [#summa.layout<@grid, {{\[}}[row], [col]]>]} : tensor<8x8xf32> to tensor<8x8xf32>
// CHECK: linalg.matmul {summa.layouts = [#summa.layout<@grid, {{\[}}[depth, row], [col]]>]} ins(%arg0, %cast
// PART-LABEL: func.func @cast_loss
// PART: %[[C:.*]] = tensor.cast %arg1 : tensor<4x4xf32> to tensor<4x4xf32>
// PART: summa.matmul %arg0, %[[C]], %{{.*}} on @grid form = ab : tensor<2x4xf32>, tensor<4x4xf32>

func.func @cast_loss(%x: tensor<8x8xf32> {summa.role = "activation"},
                     %w: tensor<8x8xf32> {summa.role = "weight"}) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %wc = tensor.cast %w : tensor<8x8xf32> to tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%x, %wc : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %le = tensor.empty() : tensor<1xf32>
  %lf = linalg.fill ins(%zero : f32) outs(%le : tensor<1xf32>) -> tensor<1xf32>
  %loss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0)>],
                          iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<8x8xf32>) outs(%lf : tensor<1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  return %loss : tensor<1xf32>
}
