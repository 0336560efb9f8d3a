//===- SummaDialect.h - summa dialect ---------------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_H
#define SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

#include "summa/Dialect/Summa/IR/SummaOpsDialect.h.inc"
#include "summa/Dialect/Summa/IR/SummaEnums.h.inc"

namespace mlir::summa {
/// The dialect's discardable attributes; SummaDialect's verifiers check each
/// one's place and type, and refuse other `summa.` names.
/// On function arguments and results: the tensor's layout (written by
/// summa-assign-layouts, or given).
constexpr llvm::StringLiteral kLayoutAttrName = "summa.layout";
/// On a function argument: activation, weight, bias or replicated.
constexpr llvm::StringLiteral kRoleAttrName = "summa.role";
/// On a function argument: how the driver fills it ("nonnegative").
constexpr llvm::StringLiteral kInitAttrName = "summa.init";
/// On arguments, results and ops: a name for files and messages.
constexpr llvm::StringLiteral kNameAttrName = "summa.name";
/// On a function result (an argument once results are out-parameters): the
/// argument it is the updated value of.
constexpr llvm::StringLiteral kUpdatesAttrName = "summa.updates";
/// On an op: the layouts of its operands and results (summa-assign-layouts).
constexpr llvm::StringLiteral kLayoutsAttrName = "summa.layouts";
/// On a structured op that reduces over split dimensions: the axes its
/// partial results are all-reduced over, and the kind per result (by
/// name: "sum", "max", ...).
constexpr llvm::StringLiteral kReduceAxesAttrName = "summa.reduce_axes";
constexpr llvm::StringLiteral kReduceKindsAttrName = "summa.reduce_kinds";
/// On a function: a dispatch function of summa-outline-dispatches.
constexpr llvm::StringLiteral kDispatchAttrName = "summa.dispatch";

/// One dimension of a layout: the grid axes that split it, outer to inner,
/// and the number of groups it is factored into (see LayoutAttr).
struct DimLayout {
  llvm::SmallVector<GridAxis> axes;
  int64_t groups = 1;

  DimLayout() = default;
  DimLayout(llvm::SmallVector<GridAxis> axes, int64_t groups = 1)
      : axes(std::move(axes)), groups(groups) {}
  DimLayout(std::initializer_list<GridAxis> axes)
      : axes(axes), groups(1) {}
  bool operator==(const DimLayout &other) const {
    return axes == other.axes && groups == other.groups;
  }
  bool operator!=(const DimLayout &other) const { return !(*this == other); }
  bool isSplit() const { return !axes.empty(); }
};
} // namespace mlir::summa

#endif // SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_H
