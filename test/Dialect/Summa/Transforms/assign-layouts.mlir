// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" | FileCheck %s
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" --summa-print-layouts -o /dev/null | FileCheck %s --check-prefix=PRINT

#id = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>

// Roles by default: the rhs of a matmul is a weight, another matrix an
// activation, a vector takes the layout of the dimension it broadcasts along.
// CHECK: summa.grid @grid shape = [2, 2, 2]
// CHECK-LABEL: func.func @linear
// CHECK-SAME: %{{.*}}: tensor<16x8xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}depth, row], [col]]>}
// CHECK-SAME: %{{.*}}: tensor<8x4xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}row], [col]]>}
// CHECK-SAME: %{{.*}}: tensor<4xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}col]]>}
// CHECK-SAME: -> (tensor<16x4xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}depth, row], [col]]>})
// CHECK: tensor.empty() {summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [col]]>]}
// CHECK: linalg.fill {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [col]]>]
// CHECK: linalg.matmul {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [col]]>]
// CHECK: linalg.generic {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [col]]>]

// PRINT-LABEL: layouts of @linear:
// PRINT-NEXT: %arg0 : tensor<16x8xf32>  #summa.layout<@grid, {{\[\[}}depth, row], [col]]>  local tensor<4x4xf32>
// PRINT-NEXT: %arg1 : tensor<8x4xf32>  #summa.layout<@grid, {{\[\[}}row], [col]]>  local tensor<4x2xf32>
// PRINT-NEXT: %arg2 : tensor<4xf32>  #summa.layout<@grid, {{\[\[}}col]]>  local tensor<2xf32>
// PRINT-NEXT: %0 = tensor.empty : tensor<16x4xf32>  #summa.layout<@grid, {{\[\[}}depth, row], [col]]>  local tensor<4x2xf32>
// PRINT-NEXT: %1 = linalg.fill : tensor<16x4xf32>
// PRINT-NEXT: %2 = linalg.matmul : tensor<16x4xf32>
// PRINT-NEXT: %3 = linalg.generic : tensor<16x4xf32>
// PRINT-NEXT: result #0 : tensor<16x4xf32>  #summa.layout<@grid, {{\[\[}}depth, row], [col]]>  local tensor<4x2xf32>
func.func @linear(%x: tensor<16x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<16x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x4xf32>) -> tensor<16x4xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x4xf32>) outs(%f : tensor<16x4xf32>) -> tensor<16x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<16x4xf32>, tensor<4xf32>) outs(%e : tensor<16x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<16x4xf32>
  return %y : tensor<16x4xf32>
}

// -----

// Explicit roles win over the defaults; a replicated tensor splits nothing.
// CHECK-LABEL: func.func @roles
// CHECK-SAME: {summa.layout = #summa.layout<@grid, {{\[\[}}depth, row], [col]]>, summa.role = "activation"}
// CHECK-SAME: {summa.layout = #summa.layout<@grid, {{\[\[}}col]]>, summa.role = "bias"}
// CHECK-SAME: {summa.layout = #summa.layout<@grid, {{\[\[}}], []]>, summa.role = "replicated"}
func.func @roles(%x: tensor<16x8xf32> {summa.role = "activation"},
                 %b: tensor<8xf32> {summa.role = "bias"},
                 %r: tensor<4x4xf32> {summa.role = "replicated"}) -> tensor<16x8xf32> {
  return %x : tensor<16x8xf32>
}

// -----

// An existing grid is reused when it matches.
// CHECK: summa.grid @grid shape = [2, 2, 2]
// CHECK-NOT: summa.grid
summa.grid @grid shape = [2, 2, 2]
func.func @reuse(%x: tensor<16x8xf32>) -> tensor<16x8xf32> {
  return %x : tensor<16x8xf32>
}
