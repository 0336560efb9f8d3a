// Found by fuzzing (libFuzzer, an assertion in summa-fuzz, which compiles
// summa with assertions on): an indexing map that repeats a split loop
// dimension, here the output map (d0, d1) -> (d0, d0), made
// summa-assign-layouts build a layout that splits two dimensions over the
// same grid axes; LayoutAttr::get asserted, and a build without assertions
// created the invalid attribute. Such a loop (a diagonal) is now left
// unsplit, and the operand that splits it is gathered.
//
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" --summa-partition | FileCheck %s

// CHECK-LABEL: func.func @diagonal_output
// CHECK: summa.all_gather %arg0 on @grid axes = [depth, row] dim = 0 : tensor<2x4xf32> -> tensor<8x4xf32>
func.func @diagonal_output(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d0)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// The same loop dimension twice in the map of an input that has no layout
// yet.
// CHECK-LABEL: func.func @diagonal_input
// CHECK: summa.all_gather %arg0 on @grid axes = [depth, row] dim = 0 : tensor<2x4xf32> -> tensor<8x4xf32>
func.func @diagonal_input(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %w = tensor.empty() : tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
