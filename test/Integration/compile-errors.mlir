// summa-compile reports bad input with a location and exits non-zero.
// RUN: not summa-compile %summa_src/examples/mlp.mlir --grid=2,3,1 -o %t 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: not summa-compile %summa_src/examples/mlp.mlir --grid=2,2,2 --target=tpu -o %t 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not summa-compile %s --grid=2,2,1 -o %t 2>&1 | FileCheck %s --check-prefix=NOLAYOUT
// RUN: not summa-compile %t.missing.mlir --grid=1,1,1 -o %t 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not summa-compile %summa_src/examples/mlp.mlir --grid=1,1,1 --lift-constants=-1 -o %t 2>&1 | FileCheck %s --check-prefix=LIFT
// RUN: not summa-compile %summa_src/examples/mlp.mlir --grid=1,1,1 --save-constants=%t.c.safetensors -o %t 2>&1 | FileCheck %s --check-prefix=SAVE

// GRID: summa-compile: error: --grid must be q,q,d with q >= 1 and d >= 1
// TARGET: summa-compile: error: unknown --target 'tpu' (expected cpu or cuda)
// MISSING: summa-compile: error: {{.*}}missing.mlir
// LIFT: summa-compile: error: --lift-constants must be >= 0
// SAVE: summa-compile: error: --save-constants needs --lift-constants=N
// NOLAYOUT: compile-errors.mlir:[[@LINE+3]]:8: error: 'tensor.reshape' is not supported by summa (no layout rule)

func.func @f(%x: tensor<8x8xf32>, %s: tensor<1xi64>) -> tensor<64xf32> {
  %r = tensor.reshape %x(%s) : (tensor<8x8xf32>, tensor<1xi64>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
// Pass-manager options reach summa-compile's pipelines.
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=1,1,1 --emit=spmd-mlir --mlir-print-ir-after=summa-partition -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINTIR
// PRINTIR: IR Dump After SummaPartition
