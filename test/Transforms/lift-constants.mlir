// RUN: summa-opt %s --summa-lift-constants="min-elements=16" | FileCheck %s
// RUN: summa-opt %s --summa-lift-constants="min-elements=16" --summa-assign-layouts="grid=2,2,1" | FileCheck %s --check-prefix=LAYOUT

// A [out, in] weight left as a constant (the exporter's default) becomes
// an argument named by summa.name, laid out from its data flow like any
// weight; a splat constant and a small one stay.
// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%arg0: tensor<8x4xf32>, %arg1: tensor<8x4xf32> {summa.name = "constant0"})
// CHECK-DAG: arith.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-DAG: arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00]> : tensor<8xf32>
// CHECK: linalg.transpose ins(%arg1
// LAYOUT: %arg1: tensor<8x4xf32> {summa.layout = #summa.layout<@grid, {{\[}}[col], [row]]>, summa.name = "constant0"}
func.func @linear(%x: tensor<8x4xf32>) -> tensor<8x8xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<8x4xf32>
  %small = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %ones = arith.constant dense<1.0> : tensor<8x8xf32>
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<4x8xf32>
  %wt = linalg.transpose ins(%w : tensor<8x4xf32>) outs(%et : tensor<4x8xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%y, %ones, %small : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    %r2 = arith.addf %r, %c : f32
    linalg.yield %r2 : f32
  } -> tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}
