// A product of narrower inputs into a wider C (f32 x f32 into f64 here; bf16
// into f32 in torch-mlir's bf16 exports, which only --target=cuda runs)
// compiles on every grid, and agrees with the unpartitioned function, which
// computes it as written (mixed, without summa-normalize's widening).
// RUN: summa-compile %s --grid=1,1,1 -o %t.111
// RUN: %mpirun -np 1 %t.111 --check --tol 1e-12 --iters 0 | FileCheck %s
// RUN: summa-compile %s --grid=2,2,2 -o %t.222
// RUN: %mpirun -np 8 %t.222 --check --tol 1e-12 --iters 0 | FileCheck %s
// CHECK: check: PASS
// The bf16 form compiles for the GPU.
// RUN: summa-compile %S/Inputs/mixed_bf16.mlir --grid=2,2,1 --target=cuda -o %t.bf16
func.func @mixed(%x: tensor<16x8xf32> {summa.name = "x", summa.role = "activation"}, %w: tensor<8x12xf32> {summa.name = "w", summa.role = "weight"}) -> tensor<16x12xf64> {
  %z = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<16x12xf64>
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<16x12xf64>) -> tensor<16x12xf64>
  %m = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x12xf32>) outs(%f : tensor<16x12xf64>) -> tensor<16x12xf64>
  return %m : tensor<16x12xf64>
}
