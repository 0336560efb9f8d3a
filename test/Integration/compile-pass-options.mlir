// summa-compile takes MLIR's pass-manager options for every pipeline it
// runs: --mlir-timing prints one report covering the partitioning, the
// reference's promotion to f64 and both lowerings; --mlir-print-ir-after
// prints the IR after the named pass.
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 --emit=llvm -o /dev/null --mlir-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: Execution time report
// TIMING-DAG: SummaAssignLayouts
// TIMING-DAG: SummaPartition
// TIMING-DAG: reference in f64
// TIMING-DAG: SummaPromoteFloats
// TIMING-DAG: ConvertSummaToRuntime
// TIMING-DAG: SummaOutlineDispatches
// RUN: summa-compile %summa_src/examples/mlp.mlir --grid=2,2,1 --emit=spmd-mlir -o /dev/null --mlir-print-ir-after=summa-partition 2>&1 | FileCheck %s --check-prefix=PRINT
// PRINT: IR Dump After SummaPartition
// PRINT: summa.matmul
