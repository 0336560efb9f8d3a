//===- Scatter.cpp - the rules of summa.scatter -----------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa.scatter (slices written or added at computed indices: an
// embedding's gradient):
//   - layout: the result and the original share a layout; updates take the
//     splits of the dimensions they cover;
//   - partition: local indices (the partitioner's rewrite), local types;
//   - derivative: none (the differentiator writes scatters; it does not
//     read them);
//   - split model: none (computed replicated by the planner's model).
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "summa/Dialect/Summa/Analysis/Reductions.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::oprules;

/// summa.scatter: the result and the original share a layout, the original
/// keeping its own unless it is a fill (the zeros of a gradient), which
/// follows the result's uses. Each slice dimension of the updates takes
/// the split of the dimension of the original it covers (a dimension the
/// slice covers only in part is whole). A dimension indexed by a computed
/// value may stay split: each rank applies the updates that land in its
/// block. The updates' batch dimensions keep the axes the original does
/// not use when the scatter adds into zeros: each rank then adds its share
/// of the updates, a partial sum over those axes; otherwise they are whole.
static LogicalResult visitScatter(LayoutRuleState &s, ScatterOp op) {
  if (!op.getResult())
    return success();
  LayoutAttr layout = s.lookup(op.getResult());
  if (!layout && !isCheapToCopy(op.getOriginal().getDefiningOp()))
    layout = s.lookup(op.getOriginal());
  if (!layout)
    return success();
  auto original = cast<RankedTensorType>(op.getOriginal().getType());
  auto updates = cast<RankedTensorType>(op.getUpdates().getType());
  int64_t batch = op.getBatchRank();
  DimSplits splits = layout.getDims();
  DimSplits updateSplits(updates.getRank());
  for (auto [i, d] : llvm::enumerate(op.getSliceDims())) {
    if (updates.getDimSize(batch + i) != original.getDimSize(d))
      splits[d] = DimLayout();
    updateSplits[batch + i] = splits[d];
  }
  layout = s.make(splits);
  s.want(op.getOriginalMutable(), layout);
  s.define(op->getResult(0), layout);
  llvm::SmallSet<GridAxis, 3> used;
  for (const DimLayout &split : splits)
    used.insert(split.axes.begin(), split.axes.end());
  LayoutAttr have = s.lookup(op.getUpdates());
  if (!have && s.getPhase() != LayoutPhase::Resolve)
    return success();
  bool partial =
      op.isAdd() && isIdentityFill(op.getOriginal(), ReductionKind::sum);
  SmallVector<GridAxis> shared;
  DimSplits indexSplits(batch + 1);
  for (int64_t d = 0; d < batch && partial && have; ++d) {
    SmallVector<GridAxis> kept;
    for (GridAxis a : have.getDimSplit(d))
      if (!used.contains(a)) {
        kept.push_back(a);
        used.insert(a);
      }
    llvm::append_range(shared, kept);
    updateSplits[d] = indexSplits[d] = DimLayout(kept);
  }
  s.want(op.getUpdatesMutable(), s.make(updateSplits));
  s.want(op.getIndicesMutable(), s.make(indexSplits));
  s.forgetPartialReduction(op);
  if (!shared.empty())
    s.recordPartialSum(op, shared);
  return success();
}

static LogicalResult partitionScatter(PartitionState &s, ScatterOp op) {
  return s.partitionScatterOp(op);
}

//===----------------------------------------------------------------------===//
// Dimension classes
//===----------------------------------------------------------------------===//

/// The result's dimensions index the original's (unless the original is a
/// fill, which would join every op that shares it), and an update's slice
/// dimensions the result's that they are as large as.
static void relateScatter(DimClassState &s, ScatterOp op) {
  if (!op.getResult())
    return;
  int64_t batch = op.getBatchRank();
  auto type = cast<RankedTensorType>(op.getResult().getType());
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.getDimSize(d) > 1 &&
        !isCheapToCopy(op.getOriginal().getDefiningOp()))
      s.unite(op.getOriginal(), d, op.getResult(), d);
  for (auto [i, d] : llvm::enumerate(op.getSliceDims()))
    if (DimClassState::dimSize(op.getUpdates(), batch + i) ==
            type.getDimSize(d) &&
        type.getDimSize(d) > 1)
      s.unite(op.getUpdates(), batch + static_cast<int64_t>(i), op.getResult(),
              d);
}

void oprules::registerScatterRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, SummaDialect *) {
    ScatterOp::attachInterface<LayoutModel<ScatterOp, visitScatter>,
                               PartitionModel<ScatterOp, partitionScatter>,
                               DimClassModel<ScatterOp, relateScatter>>(*ctx);
  });
}
