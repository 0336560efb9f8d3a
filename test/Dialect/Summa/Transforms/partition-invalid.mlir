// RUN: summa-opt %s -split-input-file -verify-diagnostics --summa-partition

// summa-partition reads the layouts of summa-assign-layouts; a value
// without one is an error at its op.
summa.grid @grid shape = [2, 2, 1]
func.func @constant_without_layout(%x: tensor<4x4xf32> {summa.layout = #summa.layout<@grid, [[row], [col]]>}) -> tensor<4x4xf32> {
  // expected-error @+1 {{value of type 'tensor<4x4xf32>' has no layout; run summa-assign-layouts first}}
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}

// -----

summa.grid @grid shape = [2, 2, 1]
// expected-error @+1 {{value of type 'tensor<4x4xf32>' has no layout; run summa-assign-layouts first}}
func.func @argument_without_layout(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = summa.relayout %x to <@grid, [[row], []]> {summa.layouts = [#summa.layout<@grid, [[row], []]>]} : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
