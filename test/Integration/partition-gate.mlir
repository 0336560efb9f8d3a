// A product whose contracted dimension stays split in both operands
// (Inputs/gate-const.mlir: a one-column gate, the hidden dimension over
// col) is completed by an all-reduce; without it each rank would hold a
// partial sum (Qwen2-MoE's shared-expert gate gave wrong outputs on q = 2).
// RUN: summa-opt %S/Inputs/gate-const.mlir --summa-normalize --summa-assign-layouts=grid=2,2,1 --summa-partition=remarks 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: local matmul whose contracted dimension is split over [col] in both operands: summa.all_reduce (sum) over [col]
// RUN: summa-compile %S/Inputs/gate-const.mlir --grid=2,2,1 -o %t.221
// RUN: %mpirun -np 4 %t.221 --check --iters 0 | FileCheck %s
// RUN: summa-compile %S/Inputs/gate-const.mlir --grid=2,2,2 -o %t.222
// RUN: %mpirun -np 8 %t.222 --check --iters 0 | FileCheck %s
// CHECK: check: PASS
//
// The same gate with its weight an argument ([hidden, 1]: its one column
// is not split, so the operands disagree on the contracted dimension): the
// weight is redistributed to the activation's split of it; in the derived
// step the weight's gradient (Aᵀ·B of one column) is computed in the
// operands' layout and redistributed to the weight's. Forward and step
// against the unpartitioned program.
// RUN: summa-compile %S/Inputs/gate-arg.mlir --grid=2,2,1 -o %t.arg221
// RUN: %mpirun -np 4 %t.arg221 --check --iters 0 | FileCheck %s
// RUN: summa-opt %S/Inputs/gate-arg.mlir --summa-differentiate="sgd-lr=0.1 params=floats" -o %t.step.mlir
// RUN: summa-compile %t.step.mlir --entry=gate_grad --grid=2,2,1 -o %t.step221
// RUN: %mpirun -np 4 %t.step221 --check --iters 0 --gradcheck | FileCheck %s
// RUN: summa-compile %t.step.mlir --entry=gate_grad --grid=2,2,2 -o %t.step222
// RUN: %mpirun -np 8 %t.step222 --check --iters 0 | FileCheck %s
