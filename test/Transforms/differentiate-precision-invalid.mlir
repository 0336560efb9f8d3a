// RUN: summa-opt %s --summa-differentiate="params=floats precision=fp8" -verify-diagnostics
// RUN: not summa-opt %s --summa-differentiate="params=floats precision=BF16" 2>&1 | FileCheck %s
// CHECK: error: summa-differentiate: precision=BF16 is not f32 or bf16

// precision= takes f32 or bf16 (lower case, as the MLIR type); anything
// else is an error at the function, not a step in some other precision.
// expected-error @+1 {{summa-differentiate: precision=fp8 is not f32 or bf16}}
func.func @layer(%x: tensor<4x8xf32> {summa.name = "x", summa.role = "activation"}, %w: tensor<8x8xf32> {summa.name = "w"}) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
