// RUN: summa-opt %s -split-input-file --summa-assign-layouts="grid=2,2,2" | FileCheck %s

// A convolution (torch-mlir's nn.Conv2d, the bias broadcast into its
// accumulator): the filter is no activation; its output channels go over
// col, as a product's output columns, and it is replicated over depth and
// row. The image keeps its batch over [depth, row] and is gathered whole
// along its channels and its windowed height and width: a block of output
// rows reads input rows the same split of the input does not hold.
// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: %{{.*}}: tensor<8x3x6x6xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}depth, row], [], [], [col]]>}
// CHECK-SAME: %{{.*}}: tensor<16x3x2x2xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}col], [], [], []]>}
// CHECK-SAME: %{{.*}}: tensor<16xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}col]]>}
// CHECK-SAME: -> (tensor<8x16x5x5xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}depth, row], [col], [], []]>})
// CHECK: %[[IMAGE:.*]] = summa.relayout %arg0 to <@grid, {{\[\[}}depth, row], [], [], []]>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [col], [], []]>]} ins(%[[IMAGE]], %arg1
func.func @conv2d(%x: tensor<8x3x6x6xf32>, %w: tensor<16x3x2x2xf32>, %b: tensor<16xf32>) -> tensor<8x16x5x5xf32> {
  %0 = tensor.empty() : tensor<8x16x5x5xf32>
  %bias = linalg.broadcast ins(%b : tensor<16xf32>) outs(%0 : tensor<8x16x5x5xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<8x3x6x6xf32>, tensor<16x3x2x2xf32>) outs(%bias : tensor<8x16x5x5xf32>) -> tensor<8x16x5x5xf32>
  return %y : tensor<8x16x5x5xf32>
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// A use that wants the output's width over col (an activation [8, 16, 5, 5]
// multiplied in) does not split the convolution's windowed loop: the
// convolution keeps its channels over col, whole rows, and the other
// operand of the product is sliced to that layout.
// CHECK-LABEL: func.func @conv_split_use
// CHECK: %[[Y:.*]] = linalg.conv_2d_nchw_fchw {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [col], [], []]>]}
// CHECK: %[[R:.*]] = summa.relayout %arg2 to <@grid, {{\[\[}}depth, row], [col], [], []]>
// CHECK: linalg.generic {{.*}}ins(%[[R]], %[[Y]] :
func.func @conv_split_use(%x: tensor<8x3x6x6xf32>, %w: tensor<16x3x2x2xf32>, %r: tensor<8x16x5x5xf32>) -> tensor<8x16x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<8x16x5x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%0 : tensor<8x16x5x5xf32>) -> tensor<8x16x5x5xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<8x3x6x6xf32>, tensor<16x3x2x2xf32>) outs(%acc : tensor<8x16x5x5xf32>) -> tensor<8x16x5x5xf32>
  %p = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r, %y : tensor<8x16x5x5xf32>, tensor<8x16x5x5xf32>) outs(%0 : tensor<8x16x5x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8x16x5x5xf32>
  return %p : tensor<8x16x5x5xf32>
}

// -----

// Pooling: the window (a shape-only tensor) is whole, so are the pooled
// height and width; the batch keeps its split.
// CHECK-LABEL: func.func @maxpool
// CHECK: %[[X:.*]] = summa.relayout %arg0 to <@grid, {{\[\[}}depth, row], [], [], []]>
// CHECK: linalg.pooling_nchw_max {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [], [], []]>]} ins(%[[X]],
func.func @maxpool(%x: tensor<8x4x6x6xf32>) -> tensor<8x4x3x3xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<8x4x3x3xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%0 : tensor<8x4x3x3xf32>) -> tensor<8x4x3x3xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %y = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %window : tensor<8x4x6x6xf32>, tensor<2x2xf32>) outs(%init : tensor<8x4x3x3xf32>) -> tensor<8x4x3x3xf32>
  return %y : tensor<8x4x3x3xf32>
}

// -----

// A windowed generic (a moving weighted sum of 3 over a sequence whose last
// dimension an activation splits over col): the windowed dimension is
// whole, the tokens keep their split.
#in = affine_map<(t, i, k) -> (t, i + k)>
#win = affine_map<(t, i, k) -> (k)>
#out = affine_map<(t, i, k) -> (t, i)>
// CHECK-LABEL: func.func @moving_sum
// CHECK: %[[X:.*]] = summa.relayout %arg0 to <@grid, {{\[\[}}depth, row], []]>
// CHECK: linalg.generic {{.*}}ins(%[[X]], %arg1 : tensor<16x10xf32>, tensor<3xf32>) {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], []]>]
func.func @moving_sum(%x: tensor<16x10xf32>, %w: tensor<3xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<16x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %y = linalg.generic {indexing_maps = [#in, #win, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<16x10xf32>, tensor<3xf32>) outs(%acc : tensor<16x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

// -----

// A depthwise convolution after a convolution: the channels come over col
// and stay there (the image's, the filter's and the output's); the windowed
// dimensions are whole.
// CHECK-LABEL: func.func @depthwise
// CHECK-SAME: %{{.*}}: tensor<4x3x3xf32> {summa.layout = #summa.layout<@grid, {{\[\[}}col], [], []]>}
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [col], [], []]>]}
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}}summa.layouts = [#summa.layout<@grid, {{\[\[}}depth, row], [col], [], []]>]} ins(%[[C]], %arg2
func.func @depthwise(%x: tensor<8x3x7x7xf32>, %w0: tensor<4x3x2x2xf32>, %w: tensor<4x3x3xf32>) -> tensor<8x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4x6x6xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4x6x6xf32>) -> tensor<8x4x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w0 : tensor<8x3x7x7xf32>, tensor<4x3x2x2xf32>) outs(%a : tensor<8x4x6x6xf32>) -> tensor<8x4x6x6xf32>
  %0 = tensor.empty() : tensor<8x4x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%0 : tensor<8x4x4x4xf32>) -> tensor<8x4x4x4xf32>
  %y = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %w : tensor<8x4x6x6xf32>, tensor<4x3x3xf32>) outs(%acc : tensor<8x4x4x4xf32>) -> tensor<8x4x4x4xf32>
  return %y : tensor<8x4x4x4xf32>
}
