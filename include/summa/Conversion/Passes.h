//===- Passes.h - summa conversion passes -----------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_CONVERSION_PASSES_H
#define SUMMA_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::summa {

/// The runtime API version (SUMMA_RT_API_VERSION of
/// runtime/include/summa/Runtime/SummaRuntime.h) that the code this
/// compiler emits calls, and the tables its drivers describe, are written
/// for. summa-compile's generated main refuses to build against another
/// header and to run against another library.
constexpr int kRuntimeAPIVersion = 9;

#define GEN_PASS_DECL
#include "summa/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "summa/Conversion/Passes.h.inc"

} // namespace mlir::summa

#endif // SUMMA_CONVERSION_PASSES_H
