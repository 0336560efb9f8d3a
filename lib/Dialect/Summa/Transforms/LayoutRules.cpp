//===- LayoutRules.cpp - the layout rule of every op ------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The LayoutRuleOpInterface models of the upstream ops summa lays out: one
// rule per op, read by summa-assign-layouts (docs/Layouts.md, "Rules").
//   - linalg.matmul in a SUMMA form: the anchor, its operands and result
//     take the SUMMA layouts of their form;
//   - every other linalg structured op: by its indexing maps;
//   - linalg.softmax, tensor reshapes, slices, concat, pad and extract;
//   - tensor.empty, arith.constant, summa.relayout, func.return: nothing of
//     their own (they take what their users give them, or keep theirs).
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/LayoutRules.h"
#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Transforms/Gather.h"
#include "summa/Transforms/Reductions.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::summa;

namespace {
using DimSplits = SmallVector<DimLayout>;
} // namespace

bool mlir::summa::isCheapToCopy(Operation *op) {
  if (!op)
    return false;
  if (isa<tensor::EmptyOp>(op))
    return true;
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    return dense && dense.isSplat();
  }
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return isCheapToCopy(fill.getOutputs()[0].getDefiningOp());
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
    return isCheapToCopy(op->getOperand(0).getDefiningOp());
  return false;
}

static LogicalResult visitStructured(LayoutRuleState &s, linalg::LinalgOp op);

static LogicalResult visitMatmul(LayoutRuleState &s, linalg::MatmulOp op) {
  auto gridRef = FlatSymbolRefAttr::get(s.getGrid().getSymNameAttr());
  std::optional<MatmulForm> form = getMatmulForm(op.getIndexingMapsArray());
  if (!form)
    return visitStructured(s, op);
  // The result's rows and columns are factored into groups when slices of
  // the result want it (collectChunkHints), or when a use gave it groups.
  MatmulLayouts plain = getMatmulLayouts(op.getContext(), gridRef, *form);
  OpResult result = op->getResult(0);
  auto groupsOf = [&](unsigned d) -> int64_t {
    SmallVector<GridAxis> axes = plain.result.getDimSplit(d);
    if (LayoutAttr have = s.lookup(result))
      return have.getDimSplit(d) == axes ? have.getDimGroups(d) : 1;
    return s.hintedGroups(result, d, axes);
  };
  // The contracted dimension: factored where the operands' class is (the
  // rhs's layout first: a weight keeps its own).
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  unsigned lhsK = *form == MatmulForm::atb ? 0 : 1;
  unsigned rhsK = *form == MatmulForm::abt ? 1 : 0;
  auto groupsK = [&]() -> int64_t {
    for (auto [v, d, axes] :
         {std::make_tuple(rhs, rhsK, plain.rhs.getDimSplit(rhsK)),
          std::make_tuple(lhs, lhsK, plain.lhs.getDimSplit(lhsK))})
      if (LayoutAttr have = s.lookup(v))
        if (have.getDimSplit(d) == axes)
          return have.getDimGroups(d);
    return s.hintedGroups(lhs, lhsK, plain.lhs.getDimSplit(lhsK));
  };
  MatmulLayouts summa = getMatmulLayouts(op.getContext(), gridRef, *form,
                                         groupsOf(0), groupsOf(1), groupsK());
  s.want(*op.getDpsInputOperand(0), summa.lhs);
  s.want(*op.getDpsInputOperand(1), summa.rhs);
  s.want(*op.getDpsInitOperand(0), summa.result);
  s.define(op->getResult(0), summa.result);
  return success();
}

/// The axes that split loop dimensions, outer loops first, with an axis
/// that splits two loops kept on the first.
static void dropRepeatedAxes(SmallVector<std::optional<DimLayout>> &loops,
                             ArrayRef<bool> fixed) {
  llvm::SmallSet<GridAxis, 3> seen;
  // Fixed loops (from results) claim their axes first.
  for (int pass = 0; pass < 2; ++pass)
    for (auto [i, loop] : llvm::enumerate(loops)) {
      if (!loop || fixed[i] != (pass == 0))
        continue;
      SmallVector<GridAxis> kept;
      for (GridAxis a : loop->axes)
        if (seen.insert(a).second)
          kept.push_back(a);
      if (kept != loop->axes)
        *loop = DimLayout(kept);
    }
}

/// The split of each loop of `op` (steps 1 and 2 of visitStructured), or
/// none where it is not known yet.
static SmallVector<std::optional<DimLayout>>
chooseLoopSplits(LayoutRuleState &s, linalg::LinalgOp op) {
  unsigned numLoops = op.getNumLoops();
  SmallVector<std::optional<DimLayout>> loops(numLoops);
  SmallVector<bool> fixed(numLoops, false);
  // 1. Results that have a layout fix the splits of their loops.
  for (OpResult res : op->getResults()) {
    LayoutAttr layout = s.lookup(res);
    if (!layout)
      continue;
    AffineMap map = op.getIndexingMapMatchingResult(res);
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        unsigned d = dim.getPosition();
        if (!loops[d]) {
          loops[d] = layout.getDim(i);
          fixed[d] = true;
        }
      }
  }
  // 2. Other loops take the most split of their operands' dimensions (the
  // first operand wins a tie), so that a replicated operand (a mask, a
  // table) is sliced rather than the activation gathered.
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    // An init that holds no data the op reads (an empty tensor), or only a
    // uniform value (a fill), follows the op rather than leading it.
    if (op.isDpsInit(&operand) &&
        (!op.payloadUsesValueFromOperand(&operand) ||
         isCheapToCopy(operand.get().getDefiningOp())))
      continue;
    LayoutAttr layout = s.lookup(operand.get());
    if (!layout)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        unsigned d = dim.getPosition();
        DimLayout split = layout.getDim(i);
        if (fixed[d])
          continue;
        if (!loops[d] || split.axes.size() > loops[d]->axes.size())
          loops[d] = split;
      }
  }
  // In the resolution phase, a loop that only the results index (a
  // broadcast into a new dimension: repeat_kv, a mask over the batch) and
  // that no use has split yet is not split.
  if (s.getPhase() == LayoutPhase::Resolve) {
    llvm::SmallBitVector read(numLoops);
    for (OpOperand *input : op.getDpsInputOperands())
      if (isa<RankedTensorType>(input->get().getType()))
        for (AffineExpr expr : op.getMatchingIndexingMap(input).getResults())
          if (auto dim = dyn_cast<AffineDimExpr>(expr))
            read.set(dim.getPosition());
    for (unsigned d = 0; d < numLoops; ++d)
      if (!loops[d] && !read.test(d))
        loops[d] = DimLayout();
  }
  dropRepeatedAxes(loops, fixed);
  // A loop that indexes two dimensions of one operand (a diagonal) cannot
  // split both over one axis: it is not split.
  for (AffineMap map : op.getIndexingMapsArray()) {
    llvm::SmallBitVector seen(numLoops);
    for (AffineExpr expr : map.getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        unsigned d = dim.getPosition();
        if (seen.test(d) && loops[d])
          loops[d] = DimLayout();
        seen.set(d);
      }
  }
  return loops;
}

/// Step 3: a reduction over split loops is a partial result completed by an
/// all-reduce when its combiner allows; otherwise its reduced loops are not
/// split (the operands are gathered).
static void resolveReductions(LayoutRuleState &s, linalg::LinalgOp op,
                              SmallVector<std::optional<DimLayout>> &loops) {
  SmallVector<GridAxis> reduceAxes;
  for (auto [i, iter] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iter == utils::IteratorType::reduction && loops[i])
      llvm::append_range(reduceAxes, loops[i]->axes);
  s.forgetPartialReduction(op);
  if (!reduceAxes.empty() && !s.recordPartialReduction(op, reduceAxes))
    for (auto [i, iter] : llvm::enumerate(op.getIteratorTypesArray()))
      if (iter == utils::IteratorType::reduction && loops[i])
        loops[i] = DimLayout();
}

/// A tensor read inside the body (an embedding table or the logits read
/// with tensor.extract at computed indices) is whole on every rank: the
/// indices are global (summa-partition makes linalg.index global).
static void wantCapturedTensorsWhole(LayoutRuleState &s, linalg::LinalgOp op) {
  op->walk([&](Operation *inner) {
    if (inner == op.getOperation())
      return;
    for (OpOperand &use : inner->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(use.get().getType());
      if (type &&
          !op->isProperAncestor(use.get().getParentBlock()->getParentOp()) &&
          use.get().getParentRegion() != &op->getRegion(0))
        s.want(use, s.make(DimSplits(type.getRank())));
    }
  });
}

/// Step 4: every operand and result whose loops are all known gets its
/// layout.
static LogicalResult
assignKnownLayouts(LayoutRuleState &s, linalg::LinalgOp op,
                   ArrayRef<std::optional<DimLayout>> loops) {
  auto splitsFor = [&](AffineMap map) -> std::optional<DimSplits> {
    DimSplits splits;
    for (AffineExpr expr : map.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        if (!loops[dim.getPosition()])
          return std::nullopt;
        splits.push_back(*loops[dim.getPosition()]);
      } else {
        splits.push_back({});
      }
    }
    return splits;
  };
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    std::optional<DimSplits> splits =
        splitsFor(op.getMatchingIndexingMap(&operand));
    if (!splits)
      continue;
    FailureOr<LayoutAttr> layout = s.makeChecked(*splits, op, operand.get());
    if (failed(layout))
      return failure();
    s.want(operand, *layout);
  }
  for (OpResult res : op->getResults()) {
    std::optional<DimSplits> splits =
        splitsFor(op.getIndexingMapMatchingResult(res));
    if (!splits)
      continue;
    FailureOr<LayoutAttr> layout = s.makeChecked(*splits, op, res);
    if (failed(layout))
      return failure();
    s.define(res, *layout);
  }
  return success();
}

/// The rule of every linalg structured op, by its indexing maps: each loop
/// gets a split from the results and operands that have layouts, reductions
/// over split loops become partial results, and every operand and result
/// whose loops are known gets its layout.
/// A gather (summa/Transforms/Gather.h: an embedding lookup, the logit a
/// cross-entropy picks). The table keeps its layout: a weight does not
/// move for its lookup. Each loop that indexes a table dimension takes that
/// dimension's split; a dimension indexed by a computed value (the
/// vocabulary) may be split over axes no loop then uses: each rank picks
/// the rows it owns, zero elsewhere, and the result is a partial sum over
/// those axes (summa-partition masks the read and all-reduces). A table
/// without a layout yet takes, in the resolution phase, the loops' splits
/// and is whole along computed dimensions.
static LogicalResult visitGather(LayoutRuleState &s, Gather g) {
  linalg::GenericOp op = g.op;
  SmallVector<std::optional<DimLayout>> loops = chooseLoopSplits(s, op);
  auto tableType = cast<RankedTensorType>(g.getTable().getType());
  LayoutAttr table = s.lookup(g.getTable());
  if (!table) {
    if (s.getPhase() != LayoutPhase::Resolve)
      return assignKnownLayouts(s, op, loops);
    DimSplits splits(tableType.getRank());
    for (auto [d, loop] : llvm::enumerate(g.loops))
      if (loop && loops[*loop] && tableType.getDimSize(d) != 1)
        splits[d] = *loops[*loop];
    FailureOr<LayoutAttr> whole = s.makeChecked(splits, op, g.getTable());
    if (failed(whole))
      return failure();
    table = *whole;
  }
  s.want(g.read.getTensorMutable(), table);
  llvm::SmallSet<GridAxis, 3> used;
  SmallVector<GridAxis> partial;
  for (auto [d, loop] : llvm::enumerate(g.loops)) {
    DimLayout split = table.getDim(d);
    if (loop)
      loops[*loop] = split;
    else
      llvm::append_range(partial, split.axes);
    used.insert(split.axes.begin(), split.axes.end());
  }
  for (unsigned l : g.getFreeLoops()) {
    if (!loops[l])
      continue;
    SmallVector<GridAxis> kept;
    for (GridAxis a : loops[l]->axes)
      if (!used.contains(a))
        kept.push_back(a);
    used.insert(kept.begin(), kept.end());
    if (kept != loops[l]->axes)
      loops[l] = DimLayout(kept);
  }
  s.forgetPartialReduction(op);
  if (!partial.empty())
    s.recordPartialSum(op, partial);
  return assignKnownLayouts(s, op, loops);
}

static LogicalResult visitStructured(LayoutRuleState &s, linalg::LinalgOp op) {
  if (std::optional<Gather> gather = matchGather(op))
    return visitGather(s, *gather);
  SmallVector<std::optional<DimLayout>> loops = chooseLoopSplits(s, op);
  resolveReductions(s, op, loops);
  wantCapturedTensorsWhole(s, op);
  return assignKnownLayouts(s, op, loops);
}

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
  // (the only one that always keeps a block layout).
  auto contiguous = [&](LayoutAttr expanded) {
    DimSplits splits = expanded.getDims();
    for (const ReassociationIndices &group : groups) {
      if (gather(expanded, group))
        continue;
      for (int64_t d : group)
        if (d != lead(group))
          splits[d] = DimLayout();
    }
    return s.make(splits);
  };
  LayoutAttr in = s.lookup(input.get());
  if (in) {
    if (inputIsCollapsed) {
      s.define(output, expand(in));
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
      s.want(input, expand(out));
    }
  }
  return success();
}

static LogicalResult visitSoftmax(LayoutRuleState &s, linalg::SoftmaxOp op) {
  LayoutAttr layout = s.lookup(op.getInput());
  if (!layout)
    layout = s.lookup(op.getResult()[0]);
  if (!layout)
    return success();
  // The normalised dimension is taken whole on every rank.
  DimSplits splits = layout.getDims();
  splits[op.getDimension()] = DimLayout();
  LayoutAttr whole = s.make(splits);
  s.want(op->getOpOperand(0), whole);
  s.want(op->getOpOperand(1), whole);
  s.define(op->getResult(0), whole);
  return success();
}

/// Static offsets, sizes and strides: the slices summa lays out.
template <typename SliceOp>
static LogicalResult checkStaticSlice(SliceOp op, StringRef name) {
  if (ShapedType::isDynamicShape(op.getStaticSizes()) ||
      ShapedType::isDynamicShape(op.getStaticOffsets()) ||
      ShapedType::isDynamicShape(op.getStaticStrides()))
    return op.emitError() << name
                          << ": only static slices are supported (this one "
                             "has dynamic offsets, sizes or strides)";
  return success();
}

/// The split of a dimension of extent `full` (split as `whole` into
/// `parts` blocks) and of the elements offset, offset + stride, ... (`size`
/// of them) that a slice takes. A part that is not all of it keeps the
/// split if the dimension is factored into groups and the part is whole
/// groups (the fused Q/K/V projection sliced into Q, K and V), or if every
/// block holds its own elements of a strided slice through the whole
/// dimension (the stride divides the even blocks and the offset is below
/// the stride: each rank takes the same positions of its block, rotary's
/// x[..., ::2] and x[..., 1::2]); otherwise neither is split, and each rank
/// holds the slice's part of every tile it needs.
static std::pair<DimLayout, DimLayout> sliceSplit(DimLayout whole, int64_t full,
                                                  int64_t parts, int64_t offset,
                                                  int64_t size,
                                                  int64_t stride) {
  if (offset == 0 && size == full && stride == 1)
    return {whole, whole};
  int64_t chunk = full / whole.groups;
  if (stride == 1 && whole.groups > 1 && offset % chunk == 0 &&
      size % chunk == 0) {
    DimLayout part = whole;
    part.groups = size / chunk;
    return {whole, part};
  }
  if (stride > 1 && whole.isSplit() && whole.groups == 1 && full % parts == 0 &&
      (full / parts) % stride == 0 && offset < stride && size == full / stride)
    return {whole, whole};
  return {DimLayout(), DimLayout()};
}

static LogicalResult visitExtractSlice(LayoutRuleState &s,
                                       tensor::ExtractSliceOp op) {
  if (failed(checkStaticSlice(op, "tensor.extract_slice")))
    return failure();
  RankedTensorType source = op.getSourceType();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  // Source dimension d of the result's dimension, for kept dimensions.
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < source.getRank(); ++d)
    if (!dropped.test(d))
      kept.push_back(d);
  DimSplits splits(source.getRank());
  if (LayoutAttr in = s.lookup(op.getSource())) {
    splits = in.getDims();
  } else if (LayoutAttr out = s.lookup(op.getResult())) {
    for (auto [r, d] : llvm::enumerate(kept))
      splits[d] = out.getDimSplit(r);
  } else {
    return success();
  }
  DimSplits resultSplits(source.getRank());
  for (int64_t d = 0; d < source.getRank(); ++d) {
    if (dropped.test(d)) {
      splits[d] = resultSplits[d] = DimLayout();
      continue;
    }
    std::tie(splits[d], resultSplits[d]) = sliceSplit(
        splits[d], source.getDimSize(d),
        getSplitFactor(s.getGrid(), splits[d].axes), op.getStaticOffsets()[d],
        op.getStaticSizes()[d], op.getStaticStrides()[d]);
  }
  resultSplits = llvm::to_vector(
      llvm::map_range(kept, [&](int64_t d) { return resultSplits[d]; }));
  s.want(op.getSourceMutable(), s.make(splits));
  s.define(op->getResult(0), s.make(resultSplits));
  return success();
}

static LogicalResult visitInsertSlice(LayoutRuleState &s,
                                      tensor::InsertSliceOp op) {
  if (failed(checkStaticSlice(op, "tensor.insert_slice")))
    return failure();
  RankedTensorType dest = op.getDestType();
  if (op.getSourceType().getRank() != dest.getRank())
    return op.emitError() << "tensor.insert_slice: only slices of the "
                             "destination's rank are supported";
  LayoutAttr layout = s.lookup(op.getDest());
  if (!layout)
    layout = s.lookup(op.getResult());
  if (!layout) {
    // The source's groups count the source's elements, not the
    // destination's: from the source, only its splits; the destination's
    // groups are its own (the pieces it is assembled from: the adjoint of
    // a fused Q/K/V projection from those of Q, K and V).
    layout = s.lookup(op.getSource());
    if (!layout)
      return success();
    DimSplits splits = layout.getDims();
    for (auto [d, dim] : llvm::enumerate(splits))
      dim.groups = s.hintedGroups(op.getResult(), d, dim.axes);
    layout = s.make(splits);
  }
  DimSplits splits = layout.getDims(), sourceSplits = splits;
  for (int64_t d = 0; d < dest.getRank(); ++d)
    std::tie(splits[d], sourceSplits[d]) = sliceSplit(
        splits[d], dest.getDimSize(d),
        getSplitFactor(s.getGrid(), splits[d].axes), op.getStaticOffsets()[d],
        op.getStaticSizes()[d], op.getStaticStrides()[d]);
  LayoutAttr whole = s.make(splits);
  s.want(op.getSourceMutable(), s.make(sourceSplits));
  s.want(op.getDestMutable(), whole);
  s.define(op->getResult(0), whole);
  return success();
}

static LogicalResult visitConcat(LayoutRuleState &s, tensor::ConcatOp op) {
  int64_t dim = op.getDim();
  auto sizeOf = [&](Value v) {
    return cast<RankedTensorType>(v.getType()).getDimSize(dim);
  };
  // The concatenated dimension keeps its split when every input is whole
  // groups of one chunk size (a factored layout, see collectChunkHints): the
  // result's groups are the inputs' groups one after another, and each
  // rank's tile is the concatenation of its tiles.
  LayoutAttr layout = s.lookup(op.getResult());
  std::optional<DimLayout> along; // the result's concatenated dimension
  if (layout) {
    DimLayout d = layout.getDim(dim);
    int64_t chunk = sizeOf(op.getResult()) / d.groups;
    if (d.isSplit() && llvm::all_of(op.getInputs(), [&](Value in) {
          return sizeOf(in) % chunk == 0;
        }))
      along = d;
  } else {
    SmallVector<LayoutAttr> inputs;
    for (Value input : op.getInputs())
      if (LayoutAttr in = s.lookup(input))
        inputs.push_back(in);
    if (inputs.empty())
      return success();
    layout = inputs.front();
    if (inputs.size() == op.getInputs().size()) {
      DimLayout first = inputs.front().getDim(dim);
      int64_t chunk = sizeOf(op.getInputs()[0]) / first.groups;
      bool same = first.isSplit();
      for (auto [input, in] : llvm::zip(op.getInputs(), inputs)) {
        DimLayout d = in.getDim(dim);
        same &= d.axes == first.axes && sizeOf(input) / d.groups == chunk;
      }
      if (same)
        along = DimLayout(first.axes, sizeOf(op.getResult()) / chunk);
    }
  }
  DimSplits splits = layout.getDims();
  splits[dim] = DimLayout();
  if (!along) {
    LayoutAttr whole = s.make(splits);
    for (OpOperand &input : op->getOpOperands())
      s.want(input, whole);
    s.define(op->getResult(0), whole);
    return success();
  }
  int64_t chunk = sizeOf(op.getResult()) / along->groups;
  for (OpOperand &input : op->getOpOperands()) {
    splits[dim] = DimLayout(along->axes, sizeOf(input.get()) / chunk);
    s.want(input, s.make(splits));
  }
  splits[dim] = *along;
  s.define(op->getResult(0), s.make(splits));
  return success();
}

static LogicalResult visitPad(LayoutRuleState &s, tensor::PadOp op) {
  LayoutAttr layout = s.lookup(op.getSource());
  if (!layout)
    layout = s.lookup(op.getResult());
  if (!layout)
    return success();
  if (ShapedType::isDynamicShape(op.getStaticLow()) ||
      ShapedType::isDynamicShape(op.getStaticHigh()))
    return op.emitError() << "tensor.pad: only static padding is supported";
  DimSplits splits = layout.getDims();
  for (unsigned d = 0; d < splits.size(); ++d)
    if (op.getStaticLow()[d] != 0 || op.getStaticHigh()[d] != 0)
      splits[d] = DimLayout();
  LayoutAttr padded = s.make(splits);
  s.want(op.getSourceMutable(), padded);
  s.define(op->getResult(0), padded);
  return success();
}

static LogicalResult visitExpand(LayoutRuleState &s, tensor::ExpandShapeOp op) {
  return visitReshape(s, op, op.getSrcMutable(), op->getResult(0),
                      op.getReassociationIndices(),
                      /*inputIsCollapsed=*/true);
}

static LogicalResult visitCollapse(LayoutRuleState &s,
                                   tensor::CollapseShapeOp op) {
  return visitReshape(s, op, op.getSrcMutable(), op->getResult(0),
                      op.getReassociationIndices(),
                      /*inputIsCollapsed=*/false);
}

/// A scalar read at given indices: the tensor is whole on every rank.
static LogicalResult visitExtract(LayoutRuleState &s, tensor::ExtractOp op) {
  s.want(op.getTensorMutable(),
         s.make(DimSplits(op.getTensor().getType().getRank())));
  return success();
}

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

/// tensor.empty and constants take the layout their users give them; a
/// summa.relayout's result has its layout and its input keeps its own; a
/// return passes its operands' layouts on to the function's results.
template <typename Op>
static LogicalResult visitNothing(LayoutRuleState &, Op) {
  return success();
}

namespace {

/// The model of `Op`: its rule is `Rule`.
template <typename Op, LogicalResult (*Rule)(LayoutRuleState &, Op)>
struct RuleModel
    : public LayoutRuleOpInterface::ExternalModel<RuleModel<Op, Rule>, Op> {
  LogicalResult propagateLayouts(Operation *op, LayoutRuleState &s) const {
    return Rule(s, cast<Op>(op));
  }
};

/// A linalg structured op: linalg.matmul is the anchor, any other one (and
/// a matmul in no SUMMA form) follows its indexing maps.
template <typename Op>
struct StructuredModel
    : public LayoutRuleOpInterface::ExternalModel<StructuredModel<Op>, Op> {
  LogicalResult propagateLayouts(Operation *op, LayoutRuleState &s) const {
    if constexpr (std::is_same_v<Op, linalg::MatmulOp>)
      return visitMatmul(s, cast<linalg::MatmulOp>(op));
    else
      return visitStructured(s, cast<linalg::LinalgOp>(op));
  }
  bool isLayoutAnchor(Operation *) const {
    return std::is_same_v<Op, linalg::MatmulOp>;
  }
};

template <typename... Ops>
void attachStructured(MLIRContext *ctx) {
  (Ops::template attachInterface<StructuredModel<Ops>>(*ctx), ...);
}

} // namespace

void mlir::summa::registerLayoutRuleExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachStructured<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
        >(ctx);
    linalg::SoftmaxOp::attachInterface<
        RuleModel<linalg::SoftmaxOp, visitSoftmax>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExpandShapeOp::attachInterface<
        RuleModel<tensor::ExpandShapeOp, visitExpand>>(*ctx);
    tensor::CollapseShapeOp::attachInterface<
        RuleModel<tensor::CollapseShapeOp, visitCollapse>>(*ctx);
    tensor::ExtractSliceOp::attachInterface<
        RuleModel<tensor::ExtractSliceOp, visitExtractSlice>>(*ctx);
    tensor::InsertSliceOp::attachInterface<
        RuleModel<tensor::InsertSliceOp, visitInsertSlice>>(*ctx);
    tensor::ConcatOp::attachInterface<RuleModel<tensor::ConcatOp, visitConcat>>(
        *ctx);
    tensor::PadOp::attachInterface<RuleModel<tensor::PadOp, visitPad>>(*ctx);
    tensor::ExtractOp::attachInterface<
        RuleModel<tensor::ExtractOp, visitExtract>>(*ctx);
    tensor::EmptyOp::attachInterface<
        RuleModel<tensor::EmptyOp, visitNothing<tensor::EmptyOp>>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    arith::ConstantOp::attachInterface<
        RuleModel<arith::ConstantOp, visitNothing<arith::ConstantOp>>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, func::FuncDialect *) {
    func::ReturnOp::attachInterface<
        RuleModel<func::ReturnOp, visitNothing<func::ReturnOp>>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, SummaDialect *) {
    RelayoutOp::attachInterface<
        RuleModel<RelayoutOp, visitNothing<RelayoutOp>>>(*ctx);
    ScatterOp::attachInterface<RuleModel<ScatterOp, visitScatter>>(*ctx);
  });
}
