// params= takes roles or floats; a function without parameters is an
// error either way, and the default's message says what floats would take.
// RUN: not summa-opt %s --summa-differentiate="params=floats" 2>&1 | FileCheck %s --check-prefix=FLOATS
// FLOATS: error: summa-differentiate: no argument is a floating-point tensor without a summa.role
// RUN: not summa-opt %s --summa-differentiate="params=bogus" 2>&1 | FileCheck %s --check-prefix=BOGUS
// BOGUS: error: summa-differentiate: params=bogus is not roles or floats
// RUN: not summa-opt %s --summa-differentiate 2>&1 | FileCheck %s --check-prefix=ROLES
// ROLES: error: summa-differentiate: no argument has summa.role "weight" or "bias" (params=floats takes every floating-point tensor argument)
func.func @roles_only(%x: tensor<4xf32> {summa.role = "activation"}, %i: tensor<4xi64>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  return %s1 : tensor<f32>
}
