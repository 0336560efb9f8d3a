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

// -----

// A convolution laid out by hand with its output width over col and its
// input width whole: each column of ranks would read the input window of
// output columns it does not compute (oh * stride + kh from 0), so the
// partitioner refuses it. summa-assign-layouts keeps windowed dimensions
// whole (assign-layouts-windowed.mlir).
summa.grid @grid shape = [2, 2, 1]
func.func @windowed_split(%x: tensor<4x3x6x7xf32> {summa.layout = #summa.layout<@grid, [[row], [], [], []]>}, %w: tensor<8x3x2x2xf32> {summa.layout = #summa.layout<@grid, [[], [], [], []]>}, %acc: tensor<4x8x5x6xf32> {summa.layout = #summa.layout<@grid, [[row], [], [], [col]]>}) -> tensor<4x8x5x6xf32> {
  // expected-error @+1 {{operand 2 dimension 3 (indexed by d3) is split over [col]; a dimension reached through a window is whole on every rank}}
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>, summa.layouts = [#summa.layout<@grid, [[row], [], [], [col]]>]} ins(%x, %w : tensor<4x3x6x7xf32>, tensor<8x3x2x2xf32>) outs(%acc : tensor<4x8x5x6xf32>) -> tensor<4x8x5x6xf32>
  return %y : tensor<4x8x5x6xf32>
}
