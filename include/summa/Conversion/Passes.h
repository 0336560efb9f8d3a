//===- Passes.h - summa conversion passes -----------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_CONVERSION_PASSES_H
#define SUMMA_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::summa {

/// The runtime API version (SUMMA_RT_API_VERSION of
/// runtime/include/summa/Runtime/SummaRuntime.h) that the code this
/// compiler emits calls, and the tables its drivers describe, are written
/// for. summa-compile's generated main refuses to build against another
/// header and to run against another library.
constexpr int kRuntimeAPIVersion = 6;

#define GEN_PASS_DECL
#include "summa/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "summa/Conversion/Passes.h.inc"

} // namespace mlir::summa

#endif // SUMMA_CONVERSION_PASSES_H
