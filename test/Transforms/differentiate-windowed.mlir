// RUN: summa-opt %s -split-input-file --summa-differentiate | FileCheck %s

// A convolution with its bias as the accumulator's initial value (torch-mlir's
// nn.Conv2d): the bias enters each output element once, so its adjoint is
// the output's adjoint summed over the tokens and positions the broadcast
// spreads it to, not once per step of the convolution's reduction over
// input channels and the window (which made it 3 * 2 * 2 = 12 times too
// large). The input's adjoint scatters through the window: its windowed
// loops (the output positions and the window) are reductions of the
// adjoint generic, since several of them add to one input element; the
// filter's sums over the batch and the output positions.
// CHECK-LABEL: func.func @conv_grad
// CHECK-SAME: attributes {summa.gradcheck = {gradients = @conv_grad, loss = @conv, params = array<i64: 1, 2>}}
// CHECK: %[[BIAS:.*]] = linalg.broadcast ins(%arg2
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%arg0, %arg1 : {{.*}}) outs(%[[BIAS]] :
// CHECK: %[[DY:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-NOT: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "reduction", "reduction", "parallel", "parallel", "parallel"]} ins(%arg0, %arg1, %[[BIAS]], %[[DY]] : {{.*}}) outs(%{{.*}} : tensor<4x3x2x2xf32>)
// CHECK-NOT: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%arg2, %{{.*}}, %[[DY]] : {{.*}}) outs(%{{.*}} : tensor<4xf32>)
func.func @conv(%x: tensor<2x3x5x5xf32>, %w: tensor<4x3x2x2xf32> {summa.role = "weight"}, %b: tensor<4xf32> {summa.role = "bias"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<2x4x4x4xf32>
  %bias = linalg.broadcast ins(%b : tensor<4xf32>) outs(%0 : tensor<2x4x4x4xf32>) dimensions = [0, 2, 3]
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x5x5xf32>, tensor<4x3x2x2xf32>) outs(%bias : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %e = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%y : tensor<2x4x4x4xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The input's adjoint of a strided convolution (params=floats would give it
// too; here the input is a parameter by its role): the output positions and
// the window are reductions, the batch and the input channels parallel.
// CHECK-LABEL: func.func @strided_grad
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction", "reduction", "parallel", "reduction", "reduction"]} ins(%arg0, %arg1, {{.*}}) outs(%{{.*}} : tensor<2x3x6x6xf32>)
func.func @strided(%x: tensor<2x3x6x6xf32> {summa.role = "weight"}, %w: tensor<4x3x2x2xf32> {summa.role = "weight"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<2x4x3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%0 : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<2x3x6x6xf32>, tensor<4x3x2x2xf32>) outs(%f : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %e = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> ()>], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%y : tensor<2x4x3x3xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}
