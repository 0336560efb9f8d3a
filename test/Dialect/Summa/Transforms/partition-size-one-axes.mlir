// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-partition | FileCheck %s

// A grid axis of one rank splits nothing: on [1, 1, 2], y's [depth, row] and
// [col] are x's [depth] and [] (assign-layouts may leave either where a
// dimension meets another, as for Gemma's rotary table), and the local op
// reads matching elements.

#id = affine_map<(d0, d1) -> (d0, d1)>
summa.grid @grid shape = [1, 1, 2]
// CHECK-LABEL: func.func @size_one_axes
// CHECK-SAME: tensor<2x4xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<2x4xf32>)
func.func @size_one_axes(%x: tensor<4x4xf32> {summa.layout = #summa.layout<@grid, [[depth], []]>}, %y: tensor<4x4xf32> {summa.layout = #summa.layout<@grid, [[depth, row], [col]]>}) -> (tensor<4x4xf32> {summa.layout = #summa.layout<@grid, [[depth], []]>}) {
  %e = tensor.empty() {summa.layouts = [#summa.layout<@grid, [[depth], []]>]} : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) attrs = {summa.layouts = [#summa.layout<@grid, [[depth], []]>]} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

// On [2, 2, 1] the same layouts split dimension 1 of y and not of x: an
// error, not a local op that mixes elements of different ranks.

#id = affine_map<(d0, d1) -> (d0, d1)>
summa.grid @grid shape = [2, 2, 1]
func.func @mixed(%x: tensor<4x4xf32> {summa.layout = #summa.layout<@grid, [[row], []]>}, %y: tensor<4x4xf32> {summa.layout = #summa.layout<@grid, [[row], [col]]>}) -> (tensor<4x4xf32> {summa.layout = #summa.layout<@grid, [[row], []]>}) {
  %e = tensor.empty() {summa.layouts = [#summa.layout<@grid, [[row], []]>]} : tensor<4x4xf32>
  // expected-error @+1 {{loop 1 is laid out differently by two operands (operand 1 dimension 1 has layout #summa.layout<@grid, [[row], [col]]>); the local op would mix elements of different ranks}}
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) attrs = {summa.layouts = [#summa.layout<@grid, [[row], []]>]} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
