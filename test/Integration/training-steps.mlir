// Several training steps: updated weights are fed back (--steps), every
// depth replica of every weight-shaped output stays bit-identical
// (--exact-replicas), and non-negative inputs are honoured.
// RUN: summa-compile %S/Inputs/sgd_steps.mlir --grid=2,2,2 -o %t.222
// RUN: %mpirun -np 8 %t.222 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: summa-compile %S/Inputs/sgd_steps.mlir --grid=1,1,4 -o %t.114
// RUN: %mpirun -np 4 %t.114 --check --steps 3 --exact-replicas | FileCheck %s
// RUN: %mpirun -np 1 %t.114 --help | FileCheck %s --check-prefix=HELP

// CHECK-DAG: check: result0 replicas bit-identical
// CHECK-DAG: check: result1 replicas bit-identical
// CHECK: check: PASS max_rel_err={{[0-9.e+-]+}}
// HELP: --steps N
// HELP: --exact-replicas
