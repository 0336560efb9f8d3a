// RUN: summa-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(summa-approximate-math))" | FileCheck %s
// RUN: summa-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(summa-approximate-math{ops=exp}))" | FileCheck %s --check-prefix=EXP

// GeLU's tanh and softmax's exp on f32 become arithmetic (no libm call
// left for LLVM's vectoriser to stop at); f64 and unlisted functions stay.
// CHECK-LABEL: func.func @transformer_functions
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp {{.*}} : f32
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.log %{{.*}} : f32
// EXP-LABEL: func.func @transformer_functions
// EXP: math.tanh
// EXP-NOT: math.exp {{.*}} : f32
// EXP: math.exp %{{.*}} : f64
func.func @transformer_functions(%x: f32, %d: f64) -> (f32, f32, f64, f32) {
  %t = math.tanh %x : f32
  %e = math.exp %x : f32
  %ed = math.exp %d : f64
  %l = math.log %x : f32
  return %t, %e, %ed, %l : f32, f32, f64, f32
}

// -----

// Vectors of f32 too, and erf (the exact GeLU).
// CHECK-LABEL: func.func @vectors
// CHECK-NOT: math.erf
// CHECK-NOT: math.tanh
// CHECK: return
func.func @vectors(%v: vector<8xf32>, %x: f32) -> (vector<8xf32>, f32) {
  %t = math.tanh %v : vector<8xf32>
  %e = math.erf %x : f32
  return %t, %e : vector<8xf32>, f32
}
