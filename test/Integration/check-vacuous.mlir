// --check fails when every reference output is all zeros: a program that
// writes zeros (or nothing) would pass it, so it proves nothing. One zero
// output among others is only noted.
// RUN: summa-compile %s --entry=zero --grid=1,1,1 -o %t.zero
// RUN: not %mpirun -np 1 %t.zero --check --iters 0 | FileCheck %s --check-prefix=ZERO
// ZERO: check: result0 rel_err=0.000e+00 max_abs_err=0.000e+00 (the reference is all zeros)
// ZERO: check: FAIL every reference output is all zeros
// RUN: summa-compile %s --entry=some_zero --grid=1,1,1 -o %t.some
// RUN: %mpirun -np 1 %t.some --check --iters 0 | FileCheck %s --check-prefix=SOME
// SOME: check: result1 {{.*}}(the reference is all zeros)
// SOME: check: PASS
func.func @zero(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %z : tensor<8x8xf32>
}

func.func @some_zero(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = linalg.add ins(%x, %x : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %y, %z : tensor<8x8xf32>, tensor<8x8xf32>
}
