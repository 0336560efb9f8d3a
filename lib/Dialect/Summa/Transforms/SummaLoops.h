//===- SummaLoops.h - recognising SUMMA step loops --------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_LIB_DIALECT_SUMMA_TRANSFORMS_SUMMALOOPS_H
#define SUMMA_LIB_DIALECT_SUMMA_TRANSFORMS_SUMMALOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::summa {

/// The number of steps q of a loop shaped like the SUMMA loops of
/// summa-expand-matmul (`scf.for %t = 0 to q step 1`, constant bounds,
/// q >= 2), or 0 for any other loop.
inline int64_t getSummaSteps(scf::ForOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *lb != 0 || *step != 1 || *ub < 2)
    return 0;
  return *ub;
}

} // namespace mlir::summa

#endif // SUMMA_LIB_DIALECT_SUMMA_TRANSFORMS_SUMMALOOPS_H
