// Found by fuzzing (libFuzzer, an assertion in summa-fuzz, which compiles
// summa with assertions on): an indexing map that repeats a split loop
// dimension, here the output map (d0, d1) -> (d0, d0), made
// summa-assign-layouts build a layout that splits two dimensions over the
// same grid axes; LayoutAttr::get asserted, and a build without assertions
// created the invalid attribute. It is now an error at the op.
//
// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" -verify-diagnostics

func.func @diagonal_output(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-error @+1 {{operand #1 ('tensor<8x8xf32>') cannot be laid out: grid axis 'depth' splits more than one dimension}}
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
func.func @diagonal_input(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %w = tensor.empty() : tensor<8x8xf32>
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-error @+1 {{operand #1 ('tensor<8x8xf32>') cannot be laid out: grid axis 'depth' splits more than one dimension}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %w : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
