//===- SummaDialect.h - summa dialect ---------------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_H
#define SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dialect.h"

#include "summa/Dialect/Summa/IR/SummaOpsDialect.h.inc"

#endif // SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_H
