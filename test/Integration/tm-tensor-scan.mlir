// tm_tensor.scan (torch-mlir's cumsum) computes what a sequential scan does:
// Inputs/scan.mlir's inclusive scan with a combiner that is not commutative
// and exclusive scan from an accumulator, with their accumulators, against
// the values Inputs/scan_reference.py computes by a plain Python loop,
// exactly, unpartitioned and on four ranks.
// RUN: %python %S/Inputs/scan_reference.py %t.in %t.expected
// RUN: summa-compile %S/Inputs/scan.mlir --grid=1,1,1 -o %t.111
// RUN: %mpirun -np 1 %t.111 --inputs %t.in --expect %t.expected --tol 0 --atol 0 --check --iters 0 | FileCheck %s
// RUN: summa-compile %S/Inputs/scan.mlir --grid=2,2,1 -o %t.221
// RUN: %mpirun -np 4 %t.221 --inputs %t.in --expect %t.expected --tol 0 --atol 0 --check --iters 0 | FileCheck %s
// CHECK: check: PASS
// CHECK: expect: result0 rel_err=0.000e+00 max_abs_err=0.000e+00
// CHECK: expect: result1 rel_err=0.000e+00 max_abs_err=0.000e+00
// CHECK: expect: result2 rel_err=0.000e+00 max_abs_err=0.000e+00
// CHECK: expect: result3 rel_err=0.000e+00 max_abs_err=0.000e+00
// CHECK: expect: PASS

