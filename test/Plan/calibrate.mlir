// summa-plan --calibrate runs summa-calibrate under mpiexec (and two loop
// nests compiled by summa-compile) for each number of ranks and writes a
// machine file that --machine reads. Not a timed assertion: tiny sizes
// (--calibrate-quick) on 1 and 2 ranks, and the file is only checked to be
// well formed. Bad requests are one error line.
// RUN: summa-plan --calibrate --calibrate-quick --calibrate-ranks 1,2 -o %t.json 2>&1 | FileCheck %s --check-prefix=LOG
// RUN: %python %S/check_machine.py %t.json 1,2 | FileCheck %s --check-prefix=FILE
// RUN: summa-plan %summa_src/examples/mlp.mlir --ranks 2 --machine %t.json | FileCheck %s --check-prefix=PLAN
// With a model, --calibrate then plans it on the machine just measured.
// RUN: summa-plan %summa_src/examples/mlp.mlir --ranks 1 --calibrate --calibrate-quick --calibrate-ranks 1 -o %t.1.json 2>/dev/null | FileCheck %s --check-prefix=THEN
// RUN: not summa-plan --calibrate --calibrate-ranks 0 -o %t.bad.json 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not summa-plan --calibrate --calibrate-quick --calibrate-ranks 1 -o %t.nodir/machine.json 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: not summa-plan --calibrate --calibrate-program %t.nothing 2>&1 | FileCheck %s --check-prefix=NOPROG

// LOG: summa-plan: calibrating on 1 rank
// LOG: summa-plan: calibrating on 2 ranks
// LOG: summa-plan: wrote machine file '{{.*}}.json'
// FILE: machine file OK: 2 GEMM, 2 local, 5 collective entries (1 group sizes)
// PLAN: machine: '{{.*}}.json' (calibrated on {{.*}}): 2 ranks, 2 per node; per rank GEMM {{[0-9.e+]+}} GFLOP/s, local loop nests {{[0-9.e+]+}} GB/s; collectives measured on groups of 2
// PLAN: best:
// THEN: machine: '{{.*}}.1.json' (calibrated
// THEN: best: [1,1,1]
// ZERO: summa-plan: error: --calibrate: the numbers of ranks to calibrate with must be positive
// NODIR: summa-plan: error: --calibrate: cannot write machine file '{{.*}}nodir/machine.json': No such file or directory
// NOPROG: summa-plan: error: --calibrate needs summa-calibrate, not found at '{{.*}}nothing' (build it, or give --calibrate-program)
