//===- Sizes.h - bytes of an element, iterations of a loop nest -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The sizes the planner's cost model and the ops' local-work rules both
// count: the bytes an element takes in memory and the iterations of a
// linalg op's static loop nest.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_SUPPORT_SIZES_H
#define SUMMA_SUPPORT_SIZES_H

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::summa {

/// Bytes one element of `type` takes in memory: an integer or float
/// rounded up to whole bytes, an index 8; 0 for anything else.
inline int64_t elementStorageBytes(Type type) {
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  if (isa<IndexType>(type))
    return 8;
  return 0;
}

/// The product of the static loop ranges of `op` (0 if one is dynamic).
inline int64_t staticLoopIterations(linalg::LinalgOp op) {
  int64_t iterations = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return 0;
    iterations *= range;
  }
  return iterations;
}

} // namespace mlir::summa

#endif // SUMMA_SUPPORT_SIZES_H
