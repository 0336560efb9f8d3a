// summa-plan reads a program with torch-mlir's tm_tensor.scan (its import
// runs convert-tm-tensor-to-linalg, as summa-compile's does) and plans it.
// RUN: summa-plan %summa_src/test/Integration/Inputs/scan.mlir --ranks 4 | FileCheck %s
// CHECK: summa-plan: @scans (read from the IR)
// CHECK: * [2,2,1]    counted
// CHECK: best: [2,2,1]
