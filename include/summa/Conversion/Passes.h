//===- Passes.h - summa conversion passes -----------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_CONVERSION_PASSES_H
#define SUMMA_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace mlir::summa {

#define GEN_PASS_DECL
#include "summa/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "summa/Conversion/Passes.h.inc"

} // namespace mlir::summa

#endif // SUMMA_CONVERSION_PASSES_H
