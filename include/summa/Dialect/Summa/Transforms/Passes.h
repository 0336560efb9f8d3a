//===- Passes.h - summa transformation passes -------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_TRANSFORMS_PASSES_H
#define SUMMA_DIALECT_SUMMA_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::summa {

#define GEN_PASS_DECL
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"

} // namespace mlir::summa

#endif // SUMMA_DIALECT_SUMMA_TRANSFORMS_PASSES_H
