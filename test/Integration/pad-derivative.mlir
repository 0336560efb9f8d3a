// tensor.pad's derivative, a rule of its family file alone
// (lib/Dialect/Summa/OpRules/Slice.cpp; docs/Architecture.md, "Add an op"):
// the source's adjoint is the result's slice at the low padding. The derived
// gradient of a loss over a padded product (Inputs/pad.mlir) against
// PyTorch's autograd through F.pad (Inputs/pad_ref.py wrote the inputs and
// the answer), on one rank and partitioned (the padded dimension gathered,
// the adjoint's slice scattered back to the weight's layout).
// RUN: summa-opt %S/Inputs/pad.mlir --summa-differentiate="function=pad_loss" -o %t.grad.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.grad.mlir
// RUN: summa-compile %t.grad.mlir --entry=pad_loss_grad --grid=1,1,1 -o %t.111
// RUN: %mpirun -np 1 %t.111 --inputs %S/Inputs/pad.inputs.safetensors --expect %S/Inputs/pad.expect.safetensors --tol 1e-5 --iters 0 --gradcheck | FileCheck %s
// RUN: summa-compile %t.grad.mlir --entry=pad_loss_grad --grid=2,2,1 -o %t.221
// RUN: %mpirun -np 4 %t.221 --inputs %S/Inputs/pad.inputs.safetensors --expect %S/Inputs/pad.expect.safetensors --tol 1e-5 --iters 0 --check | FileCheck %s
// RUN: summa-plan %t.grad.mlir --entry=pad_loss_grad --ranks 4 | FileCheck %s --check-prefix=PLAN

// IR-LABEL: func.func @pad_loss_grad
// IR: %[[P:.*]] = tensor.pad
// IR: %[[D:.*]] = linalg.generic {{.*}} ins(%[[P]],
// IR: tensor.extract_slice %[[D]][0, 2] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
// CHECK: expect: result0 rel_err=
// CHECK: expect: result1 rel_err=
// CHECK: expect: PASS
// PLAN-NOT: not modelled
// PLAN: 1D model
// PLAN: DP model
