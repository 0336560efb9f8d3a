// Bad requests get one clear error line (exit status 1); a model that no
// grid can partition still gets its table (exit status 2).
// RUN: not summa-plan %s 2>&1 | FileCheck %s --check-prefix=NORANKS
// RUN: not summa-plan %s --ranks 0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not summa-plan %s --ranks -3 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not summa-plan %s --ranks 8 --grid 2,2,1 2>&1 | FileCheck %s --check-prefix=GRIDP
// RUN: not summa-plan %s --ranks 6 --grid 2,3,1 2>&1 | FileCheck %s --check-prefix=GRIDQ
// RUN: not summa-plan %s --ranks 4 --gpus-per-node 0 2>&1 | FileCheck %s --check-prefix=GPN
// RUN: not summa-plan %s --ranks 4 --gemm-efficiency 2 2>&1 | FileCheck %s --check-prefix=EFF
// RUN: not summa-plan %S/Inputs/no-such-file.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not summa-plan %S/Inputs/malformed.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not summa-plan %S/Inputs/two-functions.mlir --ranks 4 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not summa-plan %S/Inputs/two-functions.mlir --ranks 4 --entry nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: summa-plan %S/Inputs/two-functions.mlir --ranks 4 --entry a | FileCheck %s --check-prefix=ENTRYOK
// RUN: not summa-plan --ranks 2 2>&1 | FileCheck %s --check-prefix=NOMODEL
// RUN: not summa-plan %s --ranks 2 --describe layers=1 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not summa-plan --ranks 2 --describe layers=2 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not summa-plan --ranks 2 --describe layers=2,hidden=30,heads=4,seq=8,batch=4 2>&1 | FileCheck %s --check-prefix=HEADS
// RUN: not summa-plan --ranks 2 --describe layers=x 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not summa-plan --ranks 2 --describe foo=1 2>&1 | FileCheck %s --check-prefix=KEY
// RUN: not summa-plan --ranks 2 --describe layers=0 2>&1 | FileCheck %s --check-prefix=POS
// RUN: not summa-plan --ranks 2 --describe layers=1,hidden=32,heads=4,seq=8,batch=4,dtype=i8 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not summa-plan %S/Inputs/unsupported.mlir --ranks 4 > %t.out; FileCheck %s --check-prefix=NOGRID < %t.out
// RUN: summa-plan %S/Inputs/unsupported.mlir --ranks 4; test $? -eq 2

// NORANKS: summa-plan: error: --ranks P is required
// ZERO: summa-plan: error: --ranks must be positive, got 0
// NEG: summa-plan: error: --ranks must be positive, got -3
// GRIDP: summa-plan: error: --grid 2,2,1 has 4 ranks, not --ranks 8
// GRIDQ: summa-plan: error: --grid must be q,q,d with q >= 1 and d >= 1
// GPN: summa-plan: error: --gpus-per-node must be positive
// EFF: summa-plan: error: --gemm-efficiency must be in (0, 1]
// NOFILE: summa-plan: error: cannot open input file '{{.*}}no-such-file.mlir'
// PARSE: malformed.mlir:3:3: error: cannot name an operation with no results
// TWO: error: more than one public function; choose one with --entry
// ENTRY: error: no function named @nope
// ENTRYOK: summa-plan: @a (read from the IR): 8 tokens, hidden 8, f32; 1 weight matrix
// ENTRYOK: best: [1,1,4]:
// NOMODEL: summa-plan: error: no model: give a model.mlir or --describe
// BOTH: summa-plan: error: give either a model file or --describe, not both
// MISSING: summa-plan: error: --describe: the description has no 'hidden'
// HEADS: summa-plan: error: --describe: hidden (30) is not a multiple of heads (4)
// NOTINT: summa-plan: error: --describe: the value of 'layers' is not an integer: 'x'
// KEY: summa-plan: error: --describe: unknown key 'foo'
// POS: summa-plan: error: --describe: 'layers' must be positive, got 0
// DTYPE: summa-plan: error: --describe: dtype must be bf16, f16, f32 or f64, got 'i8'
// NOGRID: summa-plan: @s (read from the IR): 0 tokens, hidden 0, f32
// NOGRID: [1,1,4] no: argument 0: dimension 0 of 'tensor<?x8xf32>' is dynamic; summa needs static shapes
// NOGRID: [2,2,1] no: argument 0: dimension 0 of 'tensor<?x8xf32>' is dynamic; summa needs static shapes
// NOGRID: 1D no: 'func.func': dynamic shapes are not modelled
// NOGRID: DP no: 'func.func': dynamic shapes are not modelled
// NOGRID: no grid: no grid of 4 ranks can partition the model
