//===- SummaDialect.h - summa dialect ---------------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_H
#define SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"

#include <string>

#include "summa/Dialect/Summa/IR/SummaAttrNames.h"
#include "summa/Dialect/Summa/IR/SummaEnums.h.inc"
#include "summa/Dialect/Summa/IR/SummaOpsDialect.h.inc"

namespace mlir::summa {
/// The one rule for a grid's shape: [q, q, d] with q >= 1 and d >= 1, and at
/// most INT32_MAX ranks (MPI's). Returns what is wrong, empty when nothing.
std::string gridShapeError(llvm::ArrayRef<int64_t> shape);
inline bool isGridShape(llvm::ArrayRef<int64_t> shape) {
  return gridShapeError(shape).empty();
}

/// One dimension of a layout: the grid axes that split it, outer to inner,
/// and the number of groups it is factored into (see LayoutAttr).
struct DimLayout {
  llvm::SmallVector<GridAxis> axes;
  int64_t groups = 1;

  DimLayout() = default;
  DimLayout(llvm::SmallVector<GridAxis> axes, int64_t groups = 1)
      : axes(std::move(axes)), groups(groups) {}
  DimLayout(std::initializer_list<GridAxis> axes) : axes(axes), groups(1) {}
  bool operator==(const DimLayout &other) const {
    return axes == other.axes && groups == other.groups;
  }
  bool operator!=(const DimLayout &other) const { return !(*this == other); }
  bool isSplit() const { return !axes.empty(); }
};
} // namespace mlir::summa

#endif // SUMMA_DIALECT_SUMMA_IR_SUMMADIALECT_H
