// RUN: summa-opt %s --pass-pipeline="builtin.module(func.func(summa-approximate-math{ops=tanh,gelu}))" -verify-diagnostics

// A function upstream has no approximation of is an error, not ignored.
// expected-error @+1 {{summa-approximate-math: no polynomial approximation of 'gelu' (ops=... takes tanh, exp, expm1, erf, erfc, log, log2, log1p, atan, atan2, asin, acos, cbrt, sin, cos)}}
func.func @f(%x: f32) -> f32 {
  %t = math.tanh %x : f32
  return %t : f32
}
