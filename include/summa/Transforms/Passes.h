//===- Passes.h - summa's passes on linalg ----------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Passes on upstream linalg/tensor IR (Passes.td): summa-normalize,
// summa-lift-constants, summa-decompose-aggregates, summa-differentiate.
// They run before summa-assign-layouts and create no summa op.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_TRANSFORMS_PASSES_H
#define SUMMA_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::summa {

#define GEN_PASS_DECL
#include "summa/Transforms/Passes.h.inc"

/// summa-normalize's rewrites on `root` (the pass runs them on the module;
/// summa-differentiate on the function it derives a step from, so that the
/// backward is derived from the forms the partitioner reads).
LogicalResult normalizeForms(Operation *root);

/// summa-sink-repeats' rewrite on `root` (summa-derive-generation runs it
/// on the forward first, so that a cache holds each key once).
LogicalResult sinkRepeats(Operation *root);

/// The attributes of a linalg.matmul to build it again with other
/// operands of its accumulator's type or floats: its indexing maps (which
/// linalg::getPrunedAttributeList leaves out) and discardable attributes,
/// not the operand segments or the cast (the default, extf, is the one
/// for floats; operands already widened need none).
SmallVector<NamedAttribute> productAttributes(Operation *matmul);

#define GEN_PASS_REGISTRATION
#include "summa/Transforms/Passes.h.inc"

} // namespace mlir::summa

#endif // SUMMA_TRANSFORMS_PASSES_H
