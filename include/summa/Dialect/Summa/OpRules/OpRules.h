//===- OpRules.h - the rules of the ops summa reads -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The external models of the op-rule interfaces (LayoutRuleInterface.td) for
// the upstream ops summa reads and summa's own, one file per op family
// (lib/Dialect/Summa/OpRules/): each family file holds, for its ops, the
// layout rule, the partition rewrite, the derivative and the planner's
// split model.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_OPRULES_OPRULES_H
#define SUMMA_DIALECT_SUMMA_OPRULES_OPRULES_H

namespace mlir {
class DialectRegistry;
class Operation;
namespace summa {

/// Attaches the rules of every op family (MLIRSummaComputeRules).
void registerOpRuleExternalModels(DialectRegistry &registry);

/// Attaches the rules of the families that need nothing of summa's linalg
/// passes: the data-movement ops (reshapes, slices, concatenation, pad)
/// and the passive ones (MLIRSummaOpRules, which summa-differentiate's
/// library can link).
void registerMovementOpRules(DialectRegistry &registry);

/// A producer that is cheaper to repeat than to redistribute: an empty
/// tensor, a splat constant, a fill of either, a reshape of those. The
/// solver copies it for a use that wants another layout; a structured op's
/// rule lets an init holding one follow the op rather than lead it.
bool isCheapToCopy(Operation *op);

} // namespace summa
} // namespace mlir

#endif // SUMMA_DIALECT_SUMMA_OPRULES_OPRULES_H
