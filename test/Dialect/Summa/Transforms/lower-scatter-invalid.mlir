// RUN: summa-opt %s --summa-lower-scatter -verify-diagnostics

func.func @tensors(%u: tensor<4x8xf32>, %ids: tensor<4x1xi64>, %t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  // expected-error @+1 {{summa-lower-scatter takes buffers: bufferize this summa.scatter first}}
  %r = summa.scatter dimension_map = [0] ins(%u, %ids : tensor<4x8xf32>, tensor<4x1xi64>) outs(%t : tensor<16x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    summa.yield %a : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}
