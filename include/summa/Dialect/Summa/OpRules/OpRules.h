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

#include "mlir/Support/LLVM.h"

namespace mlir {
class DialectRegistry;
class Operation;
namespace summa {

/// Attaches the rules of every op family, once, with the dialects
/// (summa/InitAllSumma.h's registerAllSummaDialects calls it).
void registerOpRuleExternalModels(DialectRegistry &registry);

/// Fails with an error at `anchor` where the op rules were not registered
/// in its context: a pass that asks ops for their rules calls it first, so
/// that a tool that forgot them stops with a message instead of treating
/// every op as one without a rule.
LogicalResult requireOpRules(Operation *anchor);

/// A producer that is cheaper to repeat than to redistribute: an empty
/// tensor, a splat constant, a fill of either, a reshape of those. The
/// solver copies it for a use that wants another layout; a structured op's
/// rule lets an init holding one follow the op rather than lead it.
bool isCheapToCopy(Operation *op);

} // namespace summa
} // namespace mlir

#endif // SUMMA_DIALECT_SUMMA_OPRULES_OPRULES_H
