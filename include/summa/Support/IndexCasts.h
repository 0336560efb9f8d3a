//===- IndexCasts.h - an index through integer casts ------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_SUPPORT_INDEXCASTS_H
#define SUMMA_SUPPORT_INDEXCASTS_H

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir::summa {

/// Whether `op` only casts an integer (index_cast, index_castui, extsi,
/// extui, trunci): a token id keeps naming the same row through it.
inline bool isIntegerCast(Operation *op) {
  return op->getNumOperands() == 1 &&
         isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
             arith::ExtUIOp, arith::TruncIOp>(op);
}

/// The value `index` is computed from through integer casts alone: the
/// token id a gather's body reads from an integer input and casts to an
/// index, or the index itself.
inline Value stripIndexCasts(Value index) {
  while (Operation *def = index.getDefiningOp()) {
    if (!isIntegerCast(def))
      break;
    index = def->getOperand(0);
  }
  return index;
}

} // namespace mlir::summa

#endif // SUMMA_SUPPORT_INDEXCASTS_H
