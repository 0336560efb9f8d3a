//===- Reductions.h - recognising reduction combiners -----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_ANALYSIS_REDUCTIONS_H
#define SUMMA_DIALECT_SUMMA_ANALYSIS_REDUCTIONS_H

#include "summa/Dialect/Summa/IR/SummaOps.h"

namespace mlir::summa {

/// The reduction kind that combines the accumulator `acc` (a block argument
/// of a structured op's body) into the value yielded at `position`, if the
/// body is `yield combine(f(...), acc)` with `acc` used only there.
std::optional<ReductionKind> getCombinerKind(BlockArgument acc,
                                             unsigned position);

/// True if `value` is `linalg.fill` of the identity of `kind` (every rank
/// may start a partial result from it).
bool isIdentityFill(Value value, ReductionKind kind);

} // namespace mlir::summa

#endif // SUMMA_DIALECT_SUMMA_ANALYSIS_REDUCTIONS_H
