//===- Passes.td - summa conversion passes -------------*- tablegen -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_CONVERSION_PASSES_TD
#define SUMMA_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertSummaToRuntime : Pass<"convert-summa-to-runtime",
                                 "::mlir::ModuleOp"> {
  let summary = "Lower bufferized summa collectives and matmuls to runtime calls";
  let description = [{
    Replaces the memref forms of the summa collectives and `linalg.matmul`
    on memrefs of f32/f64 by `func.call`s of the runtime C ABI
    (runtime/include/summa/Runtime/SummaRuntime.h), declared once in
    RuntimeABI.cpp. Buffers are passed as (aligned pointer as `index`,
    element offset); strides must be unit in the innermost dimension.
    Remaining `summa.matmul` ops (not expanded) and tensor-form collectives
    are errors. `summa.async_broadcast` / `summa.async_reduce` call the
    runtime's `...Start` functions, `summa.wait` calls `summaRtWait`, and
    `!summa.token` becomes the runtime's request handle (`i64`), also where
    `scf` loops carry it.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // SUMMA_CONVERSION_PASSES_TD
