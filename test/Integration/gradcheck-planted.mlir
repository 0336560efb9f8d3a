// --gradcheck finds a wrong derivative rule that --check cannot see. A
// test-only pass (test/lib, summa-opt only) attaches a rule to linalg.exp
// that forgets the factor exp(x); the step summa-differentiate derives with
// it passes --check (its unpartitioned reference runs the same wrong
// derivative) and fails --gradcheck, which compares the gradient with
// finite differences of the loss. Without the planted rule it passes both.
// RUN: summa-opt %s --summa-test-wrong-exp-derivative --summa-differentiate="sgd-lr=0.1" -o %t.wrong.mlir
// RUN: summa-compile %t.wrong.mlir --entry=exp_loss_grad --grid=2,2,1 -O0 -o %t.wrong
// RUN: not %mpirun -np 4 %t.wrong --check --gradcheck --iters 0 | FileCheck %s --check-prefix=WRONG
// RUN: summa-opt %s --summa-differentiate="sgd-lr=0.1" -o %t.right.mlir
// RUN: summa-compile %t.right.mlir --entry=exp_loss_grad --grid=2,2,1 -O0 -o %t.right
// RUN: %mpirun -np 4 %t.right --check --gradcheck --iters 0 | FileCheck %s --check-prefix=RIGHT
// A program that is not a derived step has nothing to check:
// RUN: summa-compile %s --entry=exp_loss --grid=1,1,1 -O0 -o %t.forward
// RUN: not %mpirun -np 1 %t.forward --gradcheck --iters 0 | FileCheck %s --check-prefix=NONE
// And a step compiled without its gradient functions has none either:
// RUN: summa-compile %t.right.mlir --entry=exp_loss_grad --grid=1,1,1 -O0 --gradcheck=false -o %t.without
// RUN: not %mpirun -np 1 %t.without --gradcheck --iters 0 | FileCheck %s --check-prefix=NONE

// WRONG: check: PASS
// WRONG: gradcheck: w rel_err={{.*}}
// WRONG: gradcheck: FAIL w: the derived gradient differs from the finite differences of the loss

// RIGHT: check: PASS
// RIGHT: gradcheck: w rel_err=
// RIGHT: gradcheck: PASS

// NONE: gradcheck: this program has no gradient check

#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> ()>
func.func @exp_loss(%x: tensor<8x4xf32> {summa.role = "activation"},
                    %w: tensor<4x6xf32> {summa.role = "weight", summa.name = "w"},
                    %r: tensor<8x6xf32> {summa.role = "activation"}) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %h = linalg.matmul ins(%x, %w : tensor<8x4xf32>, tensor<4x6xf32>) outs(%acc : tensor<8x6xf32>) -> tensor<8x6xf32>
  %y = linalg.exp ins(%h : tensor<8x6xf32>) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %p = linalg.mul ins(%y, %r : tensor<8x6xf32>, tensor<8x6xf32>) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %s0 = tensor.empty() : tensor<f32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]} ins(%p : tensor<8x6xf32>) outs(%s1 : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %loss : tensor<f32>
}
