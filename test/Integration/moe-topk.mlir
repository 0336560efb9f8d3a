// A mixture-of-experts router's torch.topk (tm_tensor.sort, Inputs/topk.mlir)
// against numpy's stable descending argsort (Inputs/topk_ref.py wrote both
// files: ties at the top of a row, a row of equal scores), the values and
// the expert indices exactly, on one rank and partitioned (the tokens split
// over the grid, the experts of a row on one rank).
// RUN: summa-compile %S/Inputs/topk.mlir --grid=1,1,1 -o %t.111
// RUN: %mpirun -np 1 %t.111 --inputs %S/Inputs/topk.inputs.safetensors --expect %S/Inputs/topk.expect.safetensors --tol 0 --iters 0 | FileCheck %s
// RUN: summa-compile %S/Inputs/topk.mlir --grid=2,2,2 -o %t.222
// RUN: %mpirun -np 8 %t.222 --inputs %S/Inputs/topk.inputs.safetensors --expect %S/Inputs/topk.expect.safetensors --tol 0 --iters 0 --check | FileCheck %s
// CHECK: expect: result0 rel_err=0.000e+00
// CHECK: expect: result1 rel_err=0.000e+00
// CHECK: expect: PASS
