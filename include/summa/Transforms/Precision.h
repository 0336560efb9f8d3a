//===- Precision.h - mixed precision of a derived step ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-differentiate precision=bf16: the products of the derived step (the
// forward's GEMMs and the backward's) read bf16 operands, accumulate in f32
// and round their results to bf16, as torch.autocast's bf16 matmuls and
// their autograd compute them; everything else (normalisations, softmax,
// the loss, the gradients' sums, the optimizer with its f32 master weights
// and state) stays in the function's own precision.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_TRANSFORMS_PRECISION_H
#define SUMMA_TRANSFORMS_PRECISION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::summa {

/// Whether `op` is a product in the sense of precision=bf16: a contraction
/// on tensors with M, N and K dimensions (a GEMM or a batched one:
/// linalg.matmul in any form, batch_matmul, a generic with a multiply-add
/// body), every operand floating-point. Batched dot products (the
/// LayerNorm scale's gradient, softmax's backward sum) are not: autocast
/// computes those in f32 too.
bool isPrecisionProduct(linalg::LinalgOp op);

/// Rewrites `step` for `precision` ("f32": nothing; "bf16"): every product
/// (isPrecisionProduct) whose element types are wider than bf16 reads its
/// operands rounded to bf16 as bf16 tensors (arith.truncf, one per value,
/// placed where the value is defined so that a forward value the backward
/// reads again is kept in bf16), accumulates in its own type, and its
/// result is rounded to bf16 (its users read the rounded value, widened
/// back; a product reading it takes the bf16 tensor itself).
LogicalResult applyPrecision(func::FuncOp step, StringRef precision);

} // namespace mlir::summa

#endif // SUMMA_TRANSFORMS_PRECISION_H
