//===- LayoutRules.h - the layout rules of upstream ops ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The LayoutRuleOpInterface models of the upstream ops summa lays out
// (lib/Dialect/Summa/Transforms/LayoutRules.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_TRANSFORMS_LAYOUTRULES_H
#define SUMMA_DIALECT_SUMMA_TRANSFORMS_LAYOUTRULES_H

namespace mlir {
class DialectRegistry;
class Operation;
namespace summa {

/// Attaches LayoutRuleOpInterface to the linalg, tensor and arith ops summa
/// lays out, to func.return and to summa.relayout.
void registerLayoutRuleExternalModels(DialectRegistry &registry);

/// A producer that is cheaper to repeat than to redistribute: an empty
/// tensor, a splat constant, a fill of either, a reshape of those. The
/// solver copies it for a use that wants another layout; a structured op's
/// rule lets an init holding one follow the op rather than lead it.
bool isCheapToCopy(Operation *op);

} // namespace summa
} // namespace mlir

#endif // SUMMA_DIALECT_SUMMA_TRANSFORMS_LAYOUTRULES_H
