//===- GemmOperands.h - a linalg.matmul as runtime arguments ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// What the passes that turn a linalg.matmul on buffers into a runtime GEMM
// (convert-summa-to-runtime: summaRtMatmul; convert-gemm-epilogues-to-
// runtime: summaRtMatmulEpilogue) share: buffers as the runtime takes them,
// the GEMM's sizes and transposes, and the zero fill a GEMM may overwrite
// instead of accumulating into.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_LIB_CONVERSION_SUMMATORUNTIME_GEMMOPERANDS_H
#define SUMMA_LIB_CONVERSION_SUMMATORUNTIME_GEMMOPERANDS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir::summa {

/// A memref decomposed for the runtime: aligned base pointer, element
/// offset, sizes and strides as values.
struct BufferArgs {
  Value base, offset;
  SmallVector<Value> sizes, strides;
};

BufferArgs decompose(OpBuilder &b, Location loc, Value memref);

/// The leading dimension of the row-major matrix `matrix` (2-D) for BLAS
/// and cuBLAS: its row stride, or, with one row, at least its row length
/// (the stride of a unit dimension says nothing, and may be 1 after a
/// reshape, which the libraries refuse: "lda must be >= max(1, cols)").
Value leadingDimension(OpBuilder &b, Location loc, const BufferArgs &matrix);

/// A linalg.matmul (A·B, A·Bᵀ or Aᵀ·B) as the runtime's GEMM takes it:
/// row-major C[m, n] (+)= op(A)·op(B).
struct GemmArgs {
  int32_t dtype;
  BufferArgs a, b;
  Value m, n, k;
  bool transA, transB;
};

/// The arguments of `matmul`, created at `b`'s insertion point; the matmul
/// must be one the runtime takes (convert-summa-to-runtime checks it).
GemmArgs getGemmArgs(OpBuilder &b, Location loc, linalg::MatmulOp matmul);

/// Whether the runtime's GEMM takes `matmul`, a linalg.matmul on buffers:
/// A·B, A·Bᵀ or Aᵀ·B, of one runtime element type, unit stride in the last
/// dimension. With `emitError`, a failure says why at the op.
LogicalResult
checkRuntimeGemm(linalg::MatmulOp matmul,
                 function_ref<InFlightDiagnostic()> emitError = {});

/// Whether `fill` writes +0.0.
bool isZeroFill(linalg::FillOp fill);

/// The allocation (or argument) a buffer is a view of.
Value rootBuffer(Value buffer);

/// The `linalg.fill` of zero that last wrote all of `matmul`'s C before it,
/// in the same block, with nothing in between touching any view of C's
/// buffer; null if there is none. The GEMM may then overwrite C (beta = 0)
/// and the fill go.
linalg::FillOp zeroFillBefore(linalg::MatmulOp matmul);

} // namespace mlir::summa

#endif // SUMMA_LIB_CONVERSION_SUMMATORUNTIME_GEMMOPERANDS_H
