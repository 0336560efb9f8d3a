// --grid=auto asks the planner (summa-plan's cost model) for the grid.
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=auto --ranks=4 -o %t 2>&1 | FileCheck %s --check-prefix=PICK
// RUN: %mpirun -np 4 %t --check | FileCheck %s
// RUN: not summa-compile %summa_src/examples/gpt.mlir --grid=auto -o %t.x 2>&1 | FileCheck %s --check-prefix=RANKS
// gpt_layer.mlir (batch 4, 4 heads) divides no grid of 128 ranks evenly:
// the planner counts them all (uneven splits are cut back where reshapes
// merge them) and picks [4,4,8]. A model no grid can lay out (a dynamic
// batch) is an error.
// RUN: summa-compile %summa_src/examples/gpt_layer.mlir --grid=auto --ranks=128 -o %t.128 2>&1 | FileCheck %s --check-prefix=PICK128
// RUN: not summa-compile %S/Inputs/dynamic-batch.mlir --grid=auto --ranks=4 -o %t.x 2>&1 | FileCheck %s --check-prefix=NONE
// examples/gpt.mlir on 64 ranks: the planner picks [2,2,16] (test/Plan/table.mlir).
// RUN: summa-compile %summa_src/examples/gpt.mlir --grid=auto --ranks=64 -o %t.64 2>&1 | FileCheck %s --check-prefix=PICK64

// PICK: summa-compile: --grid=auto picked [{{[0-9]+}},{{[0-9]+}},{{[0-9]+}}]:
// CHECK: check: PASS
// RANKS: summa-compile: error: --grid=auto needs --ranks=P
// PICK128: summa-compile: --grid=auto picked [4,4,8]:
// NONE: summa-compile: error: --grid=auto: no grid of 4 ranks can partition the model (summa-plan tells why)
// PICK64: summa-compile: --grid=auto picked [2,2,16]:
