// A binary started on a number of ranks other than q·q·d says so on every
// rank and exits non-zero, without hanging.
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 -o %t
// RUN: not %mpirun -np 3 %t --check > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// RUN: not %mpirun -np 8 %t --check 2>&1 | FileCheck %s --check-prefix=EIGHT
// RUN: %mpirun -np 1 %t --help | FileCheck %s --check-prefix=HELP
// RUN: not %mpirun -np 4 %t --bogus 2>&1 | FileCheck %s --check-prefix=BOGUS

// Every rank speaks; rank 0 says what to do.
// CHECK-DAG: summa: rank 0: this program was compiled for grid [2,2,1] = 4 ranks but was launched on 3 ranks; run it with mpirun -np 4
// CHECK-DAG: summa: rank 1: grid [2,2,1] needs 4 ranks but 3 were launched
// CHECK-DAG: summa: rank 2: grid [2,2,1] needs 4 ranks but 3 were launched
// EIGHT: summa: rank 0: this program was compiled for grid [2,2,1] = 4 ranks but was launched on 8 ranks
// HELP: --check
// HELP: --iters
// BOGUS: --bogus
