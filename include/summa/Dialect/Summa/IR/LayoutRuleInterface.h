//===- LayoutRuleInterface.h - how an op relates layouts --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// LayoutRuleOpInterface (LayoutRuleInterface.td) and the solver state its
// rules read and write.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_LAYOUTRULEINTERFACE_H
#define SUMMA_DIALECT_SUMMA_IR_LAYOUTRULEINTERFACE_H

#include "summa/Dialect/Summa/IR/SummaOps.h"

#include "mlir/IR/OpDefinition.h"

namespace mlir {
namespace summa {

/// The phases of the layout solver (docs/Layouts.md).
enum class LayoutPhase {
  /// Only anchors (SUMMA contractions) run.
  Contractions,
  /// Every rule runs; a use that disagrees with its value is left alone.
  Propagate,
  /// Every rule runs; a use that disagrees gets a copy or a relayout.
  Resolve,
};

/// What a layout rule sees of the solver: the layouts values have, and the
/// calls by which it states the layouts it wants. Implemented by
/// summa-assign-layouts.
class LayoutRuleState {
public:
  virtual ~LayoutRuleState();

  virtual LayoutPhase getPhase() const = 0;
  /// The grid every layout of this function refers to.
  virtual GridOp getGrid() const = 0;
  /// The layout `v` has, or null.
  virtual LayoutAttr lookup(Value v) const = 0;
  /// The use `operand` wants its value laid out by `layout`.
  virtual void want(OpOperand &operand, LayoutAttr layout) = 0;
  /// The op of `result` produces it laid out by `layout`.
  virtual void define(OpResult result, LayoutAttr layout) = 0;
  /// The layout of `dims` on the grid.
  virtual LayoutAttr make(ArrayRef<DimLayout> dims) const = 0;
  /// The same, or a diagnostic at `op` naming `value` when no layout can
  /// express `dims` (one axis splitting two dimensions).
  virtual FailureOr<LayoutAttr>
  makeChecked(ArrayRef<DimLayout> dims, Operation *op, Value value) const = 0;
  /// The groups that dimension `dim` of `v`, split over `axes`, is
  /// factored into by the slices of it (1 if none).
  virtual int64_t hintedGroups(Value v, unsigned dim,
                               ArrayRef<GridAxis> axes) = 0;
  /// Records that `op` reduces over loops split by `axes`: its results are
  /// partial until all-reduced. Returns false (and records nothing) when an
  /// all-reduce cannot complete it (an unknown combiner, an accumulator
  /// that is not the identity).
  virtual bool recordPartialReduction(Operation *op,
                                      ArrayRef<GridAxis> axes) = 0;
  /// Records that every result of `op` is, on each rank, its share of a
  /// sum over the ranks of `axes` (a gather from a table split along a
  /// computed index: each rank picks the rows it owns and zero elsewhere;
  /// a scatter-add into zeros of updates split over `axes`): completed by
  /// an all-reduce (sum).
  virtual void recordPartialSum(Operation *op, ArrayRef<GridAxis> axes) = 0;
  /// Forgets what recordPartialReduction or recordPartialSum recorded for
  /// `op`.
  virtual void forgetPartialReduction(Operation *op) = 0;
};

} // namespace summa
} // namespace mlir

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h.inc"

#endif // SUMMA_DIALECT_SUMMA_IR_LAYOUTRULEINTERFACE_H
