//===- Reshape.cpp - the rules of tensor reshapes ---------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// tensor.expand_shape and tensor.collapse_shape: a split moves between a
// collapsed dimension and the dimensions of its group (layout); the local
// reshape takes the tile's sizes (partition); the adjoint is the inverse
// reshape (derivative); and in the planner's split model a split lands on
// the dimension of its group where its groups are cut. tensor.cast between
// static types (the same shape): the value keeps its layout and split, the
// adjoint is cast back.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::oprules;

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

/// A group's split lives on its leading dimension of size > 1 (a unit
/// dimension is never split): tokens [b*s] -> [b, s] split the batch,
/// hidden [h] -> [heads, d] the heads, a bias [h] -> [1, h] the h.
static int64_t leadDim(RankedTensorType expanded,
                       const ReassociationIndices &group) {
  for (int64_t d : group)
    if (expanded.getDimSize(d) != 1)
      return d;
  return group.front();
}

/// The split of one collapsed dimension over the expanded dimensions of its
/// group (spreadSplit: a batch smaller than the token split), where the
/// leading dimension alone cannot take it; otherwise on the leading
/// dimension (and the grid's divisibility check reports what does not
/// divide).
/// The dimension of `group` that takes a split factored into groups (a
/// fused Q/K/V slice: `split.groups` groups of g elements, each cut into B
/// blocks of c = g/B), with the groups it has there: the innermost d whose
/// elements inside the group (P, the product of the sizes after d) make
/// whole blocks and whose size holds whole groups (counted in P). The outer
/// dimensions then index groups and the inner ones lie inside one block:
/// 32 in 4 groups of 8, cut in 2, expanded to [4 heads, 8] is the 8 of each
/// head cut in 2, the heads whole (not 4 heads "cut in 2 in each of 4
/// groups"). None if no dimension can (the caller keeps the leading one and
/// the divisibility check says why).
static std::optional<std::pair<int64_t, DimLayout>>
groupedDim(GridOp grid, RankedTensorType expanded,
           const ReassociationIndices &group, const DimLayout &split) {
  int64_t total = 1;
  for (int64_t d : group)
    total *= expanded.getDimSize(d);
  int64_t blocks = getSplitFactor(grid, split.axes);
  if (split.groups <= 1 || total % split.groups != 0)
    return std::nullopt;
  int64_t groupSize = total / split.groups;
  if (groupSize % blocks != 0)
    return std::nullopt;
  int64_t block = groupSize / blocks;
  int64_t inner = 1;
  for (int64_t d : llvm::reverse(group)) {
    int64_t size = expanded.getDimSize(d);
    if (block % inner == 0 && size % (groupSize / inner) == 0)
      return std::make_pair(d,
                            DimLayout(split.axes, size / (groupSize / inner)));
    inner *= size;
  }
  return std::nullopt;
}

static void spreadOverGroup(GridOp grid, RankedTensorType expanded,
                            const ReassociationIndices &group,
                            const DimLayout &split, DimSplits &splits) {
  if (std::optional<std::pair<int64_t, DimLayout>> grouped =
          groupedDim(grid, expanded, group, split)) {
    splits[grouped->first] = grouped->second;
    return;
  }
  int64_t lead = leadDim(expanded, group);
  splits[lead] = split;
  if (!split.isSplit() ||
      expanded.getDimSize(lead) % getSplitFactor(grid, split.axes) == 0)
    return;
  SmallVector<int64_t> sizes;
  for (int64_t d : group)
    sizes.push_back(expanded.getDimSize(d));
  if (std::optional<DimSplits> spread = spreadSplit(grid, sizes, split))
    for (auto [d, dimSplit] : llvm::zip(group, *spread))
      splits[d] = dimSplit;
}

/// The split of the collapsed dimension of `group` that `layout` (of the
/// expanded type) gives it: the axes of its dimensions outer to inner, if
/// every rank holds one contiguous block of it (no dimension split after
/// one of which a rank holds more than one element); none otherwise.
static std::optional<DimLayout> mergedSplit(GridOp grid,
                                            RankedTensorType expanded,
                                            LayoutAttr layout,
                                            const ReassociationIndices &group) {
  // One dimension split (g groups of its own): the collapsed dimension is
  // factored into the groups that the dimensions outer to it and its own
  // groups make, each of the split dimension's chunk times the elements
  // inner to it (groupedDim's inverse): [4 heads, 8 cut in 2] -> 32 in 4
  // groups of 8, cut in 2.
  int64_t splitDims = 0, total = 1;
  for (int64_t d : group) {
    splitDims += layout.getDim(d).isSplit();
    total *= expanded.getDimSize(d);
  }
  if (splitDims == 1 && group.size() > 1) {
    int64_t inner = 1;
    for (int64_t d : llvm::reverse(group)) {
      DimLayout here = layout.getDim(d);
      int64_t size = expanded.getDimSize(d);
      if (here.isSplit()) {
        // Groups are cut evenly; a single group is the contiguous split the
        // rule below gives.
        if (size % (here.groups * getSplitFactor(grid, here.axes)) != 0)
          break;
        DimLayout merged(here.axes, total / (size / here.groups * inner));
        if (merged.groups > 1)
          return merged;
        break;
      }
      inner *= size;
    }
  }
  DimLayout merged;
  bool wider = false;
  for (int64_t d : group) {
    DimLayout here = layout.getDim(d);
    if (here.isSplit()) {
      if (wider || here.groups != 1)
        return group.size() == 1 ? std::optional<DimLayout>(here)
                                 : std::nullopt;
      llvm::append_range(merged.axes, here.axes);
    }
    int64_t factor = here.isSplit() ? getSplitFactor(grid, here.axes) : 1;
    wider |= expanded.getDimSize(d) != factor;
  }
  return merged;
}

/// The longest prefix of `split`'s axes whose blocks divide `size`: where a
/// reshape merges a dimension split unevenly with others, the padding of its
/// last blocks would land inside the merged dimension; its split is cut back
/// to the axes that divide it (a batch of 2 under [depth, row] on [2, 2, d]
/// keeps [depth]; the merged tokens are then split over depth alone, and a
/// use that wants them over [depth, row] redistributes them).
static DimLayout evenPrefix(GridOp grid, const DimLayout &split, int64_t size) {
  if (split.groups != 1)
    return split;
  SmallVector<GridAxis> kept;
  int64_t factor = 1;
  for (GridAxis a : split.axes) {
    if (size % (factor * grid.getAxisSize(a)) != 0)
      break;
    factor *= grid.getAxisSize(a);
    kept.push_back(a);
  }
  return DimLayout(kept);
}

/// Whether `group` of `expanded` merges more than one dimension of more
/// than one element.
static bool mergesDimensions(RankedTensorType expanded,
                             const ReassociationIndices &group) {
  return llvm::count_if(
             group, [&](int64_t d) { return expanded.getDimSize(d) != 1; }) > 1;
}

static LogicalResult visitReshape(LayoutRuleState &s, Operation *op,
                                  OpOperand &input, OpResult output,
                                  ArrayRef<ReassociationIndices> groups,
                                  bool inputIsCollapsed) {
  auto expandedType = cast<RankedTensorType>(
      (inputIsCollapsed ? output : input.get()).getType());
  GridOp grid = s.getGrid();
  auto lead = [&](const ReassociationIndices &group) {
    return leadDim(expandedType, group);
  };
  auto spread = [&](const ReassociationIndices &group, const DimLayout &split,
                    DimSplits &splits) {
    spreadOverGroup(grid, expandedType, group, split, splits);
  };
  auto gather = [&](LayoutAttr expanded, const ReassociationIndices &group) {
    return mergedSplit(grid, expandedType, expanded, group);
  };
  auto expand = [&](LayoutAttr collapsed) {
    DimSplits splits(expandedType.getRank());
    for (auto [g, group] : llvm::enumerate(groups))
      spread(group, collapsed.getDim(g), splits);
    return s.make(splits);
  };
  // The collapsed side of an expanded layout in which every group is one
  // contiguous block per rank (contiguous() below).
  auto collapse = [&](LayoutAttr expanded) {
    DimSplits splits;
    for (const ReassociationIndices &group : groups) {
      std::optional<DimLayout> merged = gather(expanded, group);
      splits.push_back(merged ? *merged : expanded.getDim(lead(group)));
    }
    return s.make(splits);
  };
  // The expanded layout with every group one contiguous block per rank: as
  // it is where it is, else only the leading dimension of the group split
  // (the only one that always keeps a block layout); and a merged group's
  // leading dimension split evenly (evenPrefix).
  auto contiguous = [&](LayoutAttr expanded) {
    DimSplits splits = expanded.getDims();
    for (const ReassociationIndices &group : groups) {
      if (!gather(expanded, group))
        for (int64_t d : group)
          if (d != lead(group))
            splits[d] = DimLayout();
      int64_t d = lead(group);
      if (mergesDimensions(expandedType, group))
        splits[d] = evenPrefix(grid, splits[d], expandedType.getDimSize(d));
    }
    return s.make(splits);
  };
  // The collapsed layout whose split of each merged group lands evenly on
  // the group's dimensions: as it is where it spreads over them evenly,
  // else cut back to the axes that divide the leading one.
  auto evenCollapsed = [&](LayoutAttr collapsed) {
    DimSplits splits = collapsed.getDims();
    for (auto [g, group] : llvm::enumerate(groups)) {
      if (!mergesDimensions(expandedType, group))
        continue;
      DimSplits spreadOut(expandedType.getRank());
      spread(group, splits[g], spreadOut);
      bool uneven = llvm::any_of(group, [&](int64_t d) {
        return expandedType.getDimSize(d) %
                   (spreadOut[d].groups *
                    getSplitFactor(grid, spreadOut[d].axes)) !=
               0;
      });
      if (uneven)
        splits[g] =
            evenPrefix(grid, splits[g], expandedType.getDimSize(lead(group)));
    }
    return s.make(splits);
  };
  LayoutAttr in = s.lookup(input.get());
  if (in) {
    if (inputIsCollapsed) {
      LayoutAttr fixedIn = evenCollapsed(in);
      s.want(input, fixedIn);
      s.define(output, expand(fixedIn));
    } else {
      LayoutAttr fixedIn = contiguous(in);
      s.want(input, fixedIn);
      s.define(output, collapse(fixedIn));
    }
    return success();
  }
  if (LayoutAttr out = s.lookup(output)) {
    if (inputIsCollapsed) {
      LayoutAttr fixedOut = contiguous(out);
      s.want(input, collapse(fixedOut));
      s.define(output, fixedOut);
    } else {
      LayoutAttr fixedOut = evenCollapsed(out);
      s.want(input, expand(fixedOut));
      s.define(output, fixedOut);
    }
  }
  return success();
}

static LogicalResult layoutExpand(LayoutRuleState &s,
                                  tensor::ExpandShapeOp op) {
  return visitReshape(s, op, op.getSrcMutable(), op->getResult(0),
                      op.getReassociationIndices(),
                      /*inputIsCollapsed=*/true);
}

static LogicalResult layoutCollapse(LayoutRuleState &s,
                                    tensor::CollapseShapeOp op) {
  return visitReshape(s, op, op.getSrcMutable(), op->getResult(0),
                      op.getReassociationIndices(),
                      /*inputIsCollapsed=*/false);
}

static LogicalResult layoutCast(LayoutRuleState &s, tensor::CastOp op) {
  if (!op.getSource().getType().hasStaticShape() ||
      !op.getType().hasStaticShape())
    return op.emitError() << "tensor.cast: only casts between static shapes "
                             "are supported";
  LayoutAttr layout = s.lookup(op.getSource());
  if (!layout)
    layout = s.lookup(op.getResult());
  if (!layout)
    return success();
  s.want(op.getSourceMutable(), layout);
  s.define(op->getResult(0), layout);
  return success();
}

//===----------------------------------------------------------------------===//
// Partition
//===----------------------------------------------------------------------===//

static LogicalResult partitionExpand(PartitionState &s,
                                     tensor::ExpandShapeOp op) {
  if (failed(s.localizeResults(op)))
    return failure();
  op.setStaticOutputShape(op.getResultType().getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// Derivative
//===----------------------------------------------------------------------===//

static LogicalResult differentiateExpand(DerivativeState &s,
                                         tensor::ExpandShapeOp op) {
  Value d = tensor::CollapseShapeOp::create(
      s.getBuilder(), op->getLoc(), op.getSrcType(),
      s.getAdjoint(op.getResult()), op.getReassociationIndices());
  s.accumulate(op->getLoc(), op.getSrc(), d);
  return success();
}

static LogicalResult differentiateCollapse(DerivativeState &s,
                                           tensor::CollapseShapeOp op) {
  Value d = tensor::ExpandShapeOp::create(
      s.getBuilder(), op->getLoc(), op.getSrcType(),
      s.getAdjoint(op.getResult()), op.getReassociationIndices());
  s.accumulate(op->getLoc(), op.getSrc(), d);
  return success();
}

static LogicalResult differentiateCast(DerivativeState &s, tensor::CastOp op) {
  Value d = tensor::CastOp::create(s.getBuilder(), op->getLoc(),
                                   op.getSource().getType(),
                                   s.getAdjoint(op.getResult()));
  s.accumulate(op->getLoc(), op.getSource(), d);
  return success();
}

//===----------------------------------------------------------------------===//
// Split model
//===----------------------------------------------------------------------===//

static LogicalResult splitCast(SplitModelState &s, tensor::CastOp op) {
  int split = s.getSplit(op.getSource());
  if (split == SplitModelState::kPartial)
    s.setPartial(op.getResult());
  else if (split >= 0)
    return s.setSplit(op.getResult(), split, s.getOuter(op.getSource()));
  return success();
}

static LogicalResult splitExpand(SplitModelState &s, tensor::ExpandShapeOp op) {
  int split = s.getSplit(op.getSrc());
  if (split == SplitModelState::kPartial) {
    s.setPartial(op.getResult()); // reshaping a partial sum
    return success();
  }
  if (split < 0)
    return success();
  // The split lands on the dimension of its group where its groups are cut:
  // the outermost that is not of size 1 for a plain split (a dimension of
  // size 1 is never split), an inner one for a factored split (the heads of
  // [batch * heads] back in [batch, heads]).
  int64_t outer = s.getOuter(op.getSrc()), before = 1;
  SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
  for (int64_t d : groups[split]) {
    int64_t size = op.getResultType().getDimSize(d);
    if (outer % before == 0 && outer < before * size && size != 1)
      return s.setSplit(op.getResult(), d, outer / before);
    before *= size;
  }
  return s.replicate(op);
}

static LogicalResult splitCollapse(SplitModelState &s,
                                   tensor::CollapseShapeOp op) {
  int split = s.getSplit(op.getSrc());
  if (split == SplitModelState::kPartial) {
    s.setPartial(op.getResult());
    return success();
  }
  if (split < 0)
    return success();
  SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
  for (auto [g, group] : llvm::enumerate(groups)) {
    if (!llvm::is_contained(group, split))
      continue;
    // The dimensions before the split one in its group cut the collapsed
    // dimension into groups, each split P ways.
    int64_t outer = s.getOuter(op.getSrc());
    for (int64_t d : group) {
      if (d == split)
        return s.setSplit(op.getResult(), g, outer);
      outer *= op.getSrcType().getDimSize(d);
    }
    return s.replicate(op);
  }
  return s.replicate(op);
}

//===----------------------------------------------------------------------===//
// Dimension classes
//===----------------------------------------------------------------------===//

/// The one dimension of `group` whose size in `type` is not 1, if exactly
/// one is.
static std::optional<int64_t> soleNonUnit(RankedTensorType type,
                                          const ReassociationIndices &group) {
  std::optional<int64_t> found;
  for (int64_t d : group) {
    if (type.getDimSize(d) == 1)
      continue;
    if (found)
      return std::nullopt;
    found = d;
  }
  return found;
}

/// A collapsed dimension indexes the space of the one dimension of its
/// group that is not 1, if there is one.
static void relateExpand(DimClassState &s, tensor::ExpandShapeOp op) {
  for (auto [g, group] : llvm::enumerate(op.getReassociationIndices()))
    if (std::optional<int64_t> d = soleNonUnit(op.getResultType(), group))
      s.unite(op.getSrc(), g, op.getResult(), *d);
}

static void relateCollapse(DimClassState &s, tensor::CollapseShapeOp op) {
  for (auto [g, group] : llvm::enumerate(op.getReassociationIndices()))
    if (std::optional<int64_t> d = soleNonUnit(op.getSrcType(), group))
      s.unite(op.getSrc(), *d, op.getResult(), g);
}

/// A reshape moves its source's elements into other dimensions.
template <typename Op>
static std::optional<DataMove> reshapeMove(Op op) {
  DataMove move;
  move.source = &op->getOpOperand(0);
  move.reshapes = true;
  return move;
}

/// A cast changes what is known of the shape, not the elements.
static std::optional<DataMove> castMove(tensor::CastOp op) {
  DataMove move;
  move.source = &op.getSourceMutable();
  auto from = dyn_cast<RankedTensorType>(op.getSource().getType());
  auto to = dyn_cast<RankedTensorType>(op.getType());
  if (from && to && from.getRank() == to.getRank())
    move.sourceDims = sameDims(to);
  else
    move.reshapes = true;
  return move;
}

void oprules::registerReshapeRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExpandShapeOp::attachInterface<
        LayoutModel<tensor::ExpandShapeOp, layoutExpand>,
        PartitionModel<tensor::ExpandShapeOp, partitionExpand>,
        DerivativeModel<tensor::ExpandShapeOp, differentiateExpand>,
        SplitCostModel<tensor::ExpandShapeOp, splitExpand>,
        DimClassModel<tensor::ExpandShapeOp, relateExpand>,
        DataMoveModel<tensor::ExpandShapeOp,
                      reshapeMove<tensor::ExpandShapeOp>>>(*ctx);
    tensor::CollapseShapeOp::attachInterface<
        LayoutModel<tensor::CollapseShapeOp, layoutCollapse>,
        PartitionModel<tensor::CollapseShapeOp,
                       localizeOnly<tensor::CollapseShapeOp>>,
        DerivativeModel<tensor::CollapseShapeOp, differentiateCollapse>,
        SplitCostModel<tensor::CollapseShapeOp, splitCollapse>,
        DimClassModel<tensor::CollapseShapeOp, relateCollapse>,
        DataMoveModel<tensor::CollapseShapeOp,
                      reshapeMove<tensor::CollapseShapeOp>>>(*ctx);
    tensor::CastOp::attachInterface<
        LayoutModel<tensor::CastOp, layoutCast>,
        PartitionModel<tensor::CastOp, localizeOnly<tensor::CastOp>>,
        DerivativeModel<tensor::CastOp, differentiateCast>,
        SplitCostModel<tensor::CastOp, splitCast>,
        DataMoveModel<tensor::CastOp, castMove>>(*ctx);
  });
}
