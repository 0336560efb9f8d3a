// RUN: summa-opt %s -split-input-file --summa-promote-floats -verify-diagnostics

// A float's bits read as an integer have no f64 meaning: the module stays
// as it was and the pass fails with the op that stops it.
func.func @bits(%x: f32) -> i32 {
  // expected-error @+1 {{summa-promote-floats: the module cannot be computed in f64: 'arith.bitcast' op operand type 'f64' and result type 'i32' are cast incompatible}}
  %b = arith.bitcast %x : f32 to i32
  return %b : i32
}

// -----

// Weights whose data is not in the file cannot be widened.
func.func @elided() -> tensor<4xf32> {
  // expected-error @+1 {{summa-promote-floats: this constant's data is not available (an elided resource?), so the module cannot be computed in f64}}
  %r = arith.constant dense_resource<__elided__> : tensor<4xf32>
  return %r : tensor<4xf32>
}
