//===- Families.h - what the op family files share --------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The model templates every family file attaches its rules with (one
// function per op and concern) and each family's registration.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_LIB_DIALECT_SUMMA_OPRULES_FAMILIES_H
#define SUMMA_LIB_DIALECT_SUMMA_OPRULES_FAMILIES_H

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"
#include "summa/Dialect/Summa/OpRules/OpRules.h"

#include "mlir/IR/DialectRegistry.h"

namespace mlir::summa::oprules {

using DimSplits = SmallVector<DimLayout>;

/// The layout rule of `Op` is `Rule`.
template <typename Op, LogicalResult (*Rule)(LayoutRuleState &, Op)>
struct LayoutModel
    : public LayoutRuleOpInterface::ExternalModel<LayoutModel<Op, Rule>, Op> {
  LogicalResult propagateLayouts(Operation *op, LayoutRuleState &s) const {
    return Rule(s, cast<Op>(op));
  }
};

/// The partition rewrite of `Op` is `Rule`.
template <typename Op, LogicalResult (*Rule)(PartitionState &, Op)>
struct PartitionModel
    : public PartitionRuleOpInterface::ExternalModel<PartitionModel<Op, Rule>,
                                                     Op> {
  LogicalResult partition(Operation *op, PartitionState &s) const {
    return Rule(s, cast<Op>(op));
  }
};

/// The derivative of `Op` is `Rule`.
template <typename Op, LogicalResult (*Rule)(DerivativeState &, Op)>
struct DerivativeModel
    : public DerivativeRuleOpInterface::ExternalModel<DerivativeModel<Op, Rule>,
                                                      Op> {
  LogicalResult differentiate(Operation *op, DerivativeState &s) const {
    return Rule(s, cast<Op>(op));
  }
};

/// The split model of `Op` is `Rule`.
template <typename Op, LogicalResult (*Rule)(SplitModelState &, Op)>
struct SplitCostModel
    : public SplitModelOpInterface::ExternalModel<SplitCostModel<Op, Rule>,
                                                  Op> {
  LogicalResult modelSplit(Operation *op, SplitModelState &s) const {
    return Rule(s, cast<Op>(op));
  }
};

/// A rule that does nothing: the op takes the layouts its users give it,
/// or passes its operands' on.
template <typename Op, void (*Rule)(DimClassState &, Op)>
struct DimClassModel
    : public DimClassOpInterface::ExternalModel<DimClassModel<Op, Rule>, Op> {
  void relateDimensions(Operation *op, DimClassState &s) const {
    Rule(s, cast<Op>(op));
  }
};

/// The data move of `Op` is `Rule`'s.
template <typename Op, std::optional<DataMove> (*Rule)(Op)>
struct DataMoveModel
    : public DataMoveOpInterface::ExternalModel<DataMoveModel<Op, Rule>, Op> {
  std::optional<DataMove> getDataMove(Operation *op) const {
    return Rule(cast<Op>(op));
  }
};

/// The local work of `Op` is `Rule`'s.
template <typename Op,
          LocalWork (*Rule)(Op, function_ref<int64_t(Value)>, int64_t)>
struct LocalWorkModel
    : public LocalWorkOpInterface::ExternalModel<LocalWorkModel<Op, Rule>, Op> {
  LocalWork getLocalWork(Operation *op, function_ref<int64_t(Value)> bytesOf,
                         int64_t divisor) const {
    return Rule(cast<Op>(op), bytesOf, divisor);
  }
};

/// The bytes of `v` where it is a ranked tensor, else 0.
inline int64_t tensorBytes(Value v, function_ref<int64_t(Value)> bytesOf) {
  return isa<RankedTensorType>(v.getType()) ? bytesOf(v) : 0;
}

/// The source's dimensions, each where it was (a move that keeps them).
inline SmallVector<int64_t> sameDims(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return llvm::to_vector(llvm::seq<int64_t>(0, ranked ? ranked.getRank() : 0));
}

template <typename State, typename Op>
LogicalResult noRule(State &, Op) {
  return success();
}

/// A partition rewrite that only gives the results their local types.
template <typename Op>
LogicalResult localizeOnly(PartitionState &s, Op op) {
  return s.localizeResults(op);
}

/// Each family's registration (its file).
void registerPassiveRules(DialectRegistry &registry);
void registerReshapeRules(DialectRegistry &registry);
void registerSliceRules(DialectRegistry &registry);
void registerStructuredRules(DialectRegistry &registry);
void registerScatterRules(DialectRegistry &registry);

} // namespace mlir::summa::oprules

#endif // SUMMA_LIB_DIALECT_SUMMA_OPRULES_FAMILIES_H
