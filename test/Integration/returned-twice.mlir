// A program that returns one tensor as two results, and an argument as a
// result (a training step whose update of a weight is the update of its
// state, a weight with no gradient returned as it is): every result gets a
// buffer of its own (summa-distinct-results) and each agrees with the
// unpartitioned program.
// RUN: summa-compile %s --grid=1,1,1 -o %t.111
// RUN: %mpirun -np 1 %t.111 --check --iters 0 | FileCheck %s
// RUN: summa-compile %s --grid=2,2,2 -o %t.222
// RUN: %mpirun -np 8 %t.222 --check --iters 0 | FileCheck %s
// CHECK: check: {{.*}}PASS
func.func @twice(%x: tensor<8x16xf32> {summa.role = "activation"}, %w: tensor<16x16xf32>, %v: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x16xf32>) outs(%f : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y, %y, %v, %w : tensor<8x16xf32>, tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}
