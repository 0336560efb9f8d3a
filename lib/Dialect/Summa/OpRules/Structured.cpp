//===- Structured.cpp - the rules of linalg structured ops ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Every linalg structured op (linalg.matmul, linalg.generic and the named
// elementwise, fill, copy, transpose and reduction ops) and
// linalg.softmax:
//   - layout: linalg.matmul in a SUMMA form is the anchor, its operands and
//     result take the SUMMA layouts of its form; every other structured op
//     follows its indexing maps (docs/Layouts.md, "Rules"); a gather keeps
//     its table's layout; the softmax takes its normalised dimension whole;
//   - partition: the partitioner's own rewrite of a structured op (global
//     indices, masked gathers and padded reductions, SUMMA products); a
//     softmax only takes local types;
//   - derivative: summa-differentiate's own rule for structured ops (their
//     bodies in forward mode), not an interface model;
//   - split model: the planner's own rule for structured ops (a contraction
//     is column- or row-parallel); a softmax keeps a split of another
//     dimension than the normalised one.
// Also registerOpRuleExternalModels, every family, and requireOpRules.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "summa/Dialect/Summa/Analysis/Gather.h"
#include "summa/Dialect/Summa/Analysis/Reductions.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Support/IndexingMaps.h"
#include "summa/Support/Sizes.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::oprules;

static LogicalResult visitStructured(LayoutRuleState &s, linalg::LinalgOp op);

/// A product in a function marked summa.weight_stationary: the rhs (a
/// weight) stays as it is laid out, or as `summa` (the SUMMA form's
/// layouts) lays it out where it has none yet; the lhs takes the rhs's
/// split of the contracted dimension and keeps of its rows' split (its own,
/// or the SUMMA form's where it has none yet) the axes the rhs does not use
/// (the batch over depth); the result is laid out by those rows and the
/// rhs's columns, a partial sum over the contracted axes that
/// summa-partition all-reduces (partitionLocalMatmul). Taken from the first
/// visit, so that no layout of the SUMMA form is given to the result first
/// and relaid out after. One token per sequence moves its activations
/// (B x K and B x N elements) instead of the weight's panels. Fails (and
/// the SUMMA form is taken) outside such a function or where the form is
/// Aᵀ·B.
static LogicalResult visitStationaryMatmul(LayoutRuleState &s,
                                           linalg::MatmulOp op, MatmulForm form,
                                           const MatmulLayouts &summa) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (form == MatmulForm::atb || !func ||
      !func->hasAttr(kWeightStationaryAttrName))
    return failure();
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  LayoutAttr weight = s.lookup(rhs);
  if (!weight)
    weight = summa.rhs;
  LayoutAttr rows = s.lookup(lhs);
  if (!rows)
    rows = summa.lhs;
  unsigned rhsK = getRhsContractedDim(form);
  DimLayout k = weight.getDim(rhsK), n = weight.getDim(1 - rhsK);
  DimLayout m;
  for (GridAxis a : rows.getDim(0).axes)
    if (!llvm::is_contained(k.axes, a) && !llvm::is_contained(n.axes, a))
      m.axes.push_back(a);
  s.want(*op.getDpsInputOperand(0), s.make({m, k}));
  s.want(*op.getDpsInputOperand(1), weight);
  LayoutAttr result = s.make({m, n});
  s.want(*op.getDpsInitOperand(0), result);
  s.define(op->getResult(0), result);
  return success();
}

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
  unsigned lhsK = getLhsContractedDim(*form);
  unsigned rhsK = getRhsContractedDim(*form);
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
  if (succeeded(visitStationaryMatmul(s, op, *form, summa)))
    return success();
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
  // A loop reached through a window (`oh * stride + kh`: a convolution, a
  // pooling, a windowed generic) is not split, whatever its result or
  // operands say: the input rows a block of output rows reads are not the
  // block of the input the same split holds (IndexingMaps.h). The window's
  // operand dimensions are then whole on every rank, gathered where they
  // were split.
  for (unsigned l : getWindowedLoops(op).set_bits())
    loops[l] = DimLayout();
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
/// A gather (summa/Dialect/Summa/Analysis/Gather.h: an embedding lookup, the
/// logit a cross-entropy picks). The table keeps its layout: a weight does not
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

/// A convolution whose filter has no layout yet (an argument: a filter is
/// no activation, AssignLayouts.cpp leaves it to this rule): its output
/// channels (the channels of a depthwise convolution) over `col`, as a
/// product's output columns, where no other loop uses `col`. The filter is
/// then split by its channels and replicated over depth and row, the output
/// takes the channels' split (ViT's patch embedding comes out with its
/// hidden dimension over col, as the activations after it), and the image
/// is whole along its windowed and input-channel dimensions.
static void
splitConvolutionChannels(LayoutRuleState &s, linalg::LinalgOp op,
                         SmallVector<std::optional<DimLayout>> &loops) {
  if (s.getPhase() == LayoutPhase::Contractions || op.getNumDpsInputs() != 2 ||
      s.lookup(op.getDpsInputOperand(1)->get()))
    return;
  if (!isa<linalg::ConvolutionOpInterface>(op.getOperation()) &&
      !linalg::isaConvolutionOpInterface(op))
    return;
  FailureOr<linalg::ConvolutionDimensions> dims =
      linalg::inferConvolutionDims(op);
  if (failed(dims))
    return;
  ArrayRef<unsigned> channels =
      dims->outputChannel.empty() ? dims->depth : dims->outputChannel;
  if (channels.empty() || loops[channels.front()])
    return;
  for (const std::optional<DimLayout> &loop : loops)
    if (loop && llvm::is_contained(loop->axes, GridAxis::col))
      return;
  loops[channels.front()] = DimLayout({GridAxis::col});
}

static LogicalResult visitStructured(LayoutRuleState &s, linalg::LinalgOp op) {
  if (std::optional<Gather> gather = matchGather(op))
    return visitGather(s, *gather);
  SmallVector<std::optional<DimLayout>> loops = chooseLoopSplits(s, op);
  splitConvolutionChannels(s, op, loops);
  resolveReductions(s, op, loops);
  wantCapturedTensorsWhole(s, op);
  return assignKnownLayouts(s, op, loops);
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

static LogicalResult splitSoftmax(SplitModelState &s, linalg::SoftmaxOp op) {
  for (Value v : op->getOperands())
    s.materialize(v);
  int split = s.getSplit(op.getInput());
  if (split < 0)
    return success();
  if (split == static_cast<int>(op.getDimension()))
    return s.replicate(op); // a softmax over the split dimension
  return s.setSplit(op.getResult()[0], split, s.getOuter(op.getInput()));
}

//===----------------------------------------------------------------------===//
// Dimension classes
//===----------------------------------------------------------------------===//

/// The operand and result dimensions one loop indexes are one class (where
/// they are as large as the loop); a gather's table dimensions join the
/// loops that index them directly. An init the body does not read, or a
/// fill or a splat, carries no data: many ops share one tensor.empty, which
/// would join them all.
static void relateStructured(DimClassState &s, linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  DenseMap<unsigned, std::pair<Value, int64_t>> first;
  auto connect = [&](Value v, AffineMap map) {
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      int64_t size = DimClassState::dimSize(v, i);
      if (!dim || size <= 1 || size != ranges[dim.getPosition()])
        continue;
      auto [it, fresh] = first.try_emplace(
          dim.getPosition(), std::make_pair(v, static_cast<int64_t>(i)));
      if (!fresh)
        s.unite(it->second.first, it->second.second, v, i);
    }
  };
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()) ||
        isCheapToCopy(operand.get().getDefiningOp()) ||
        (op.isDpsInit(&operand) && !op.payloadUsesValueFromOperand(&operand)))
      continue;
    connect(operand.get(), op.getMatchingIndexingMap(&operand));
  }
  for (OpResult res : op->getResults())
    if (isa<RankedTensorType>(res.getType()))
      connect(res, op.getIndexingMapMatchingResult(res));
  if (std::optional<Gather> gather = matchGather(op))
    for (auto [d, loop] : llvm::enumerate(gather->loops)) {
      auto it = loop ? first.find(*loop) : first.end();
      if (it != first.end() &&
          DimClassState::dimSize(gather->getTable(), d) == ranges[*loop])
        s.unite(it->second.first, it->second.second, gather->getTable(), d);
    }
}

/// Whether `v`, yielded by a linalg body, is its first block argument
/// converted by extensions, truncations or integer-to-float conversions
/// only; `converts` is set where there is one.
static bool yieldsFirstArgument(Block *body, Value v, bool &converts) {
  converts = false;
  while (Operation *def = v.getDefiningOp()) {
    if (def->getBlock() != body || def->getNumOperands() != 1 ||
        !isa<arith::ExtFOp, arith::TruncFOp, arith::ExtSIOp, arith::ExtUIOp,
             arith::TruncIOp, arith::SIToFPOp, arith::UIToFPOp>(def))
      return false;
    converts = true;
    v = def->getOperand(0);
  }
  return v == body->getArgument(0);
}

/// A linalg op that only moves its one tensor input (linalg.transpose,
/// linalg.copy, linalg.broadcast, a generic that yields its input
/// converted at most): parallel loops, the input read through a projected
/// permutation, the result written through a permutation, an init it does
/// not read. The generic linalg rule: it looks at the maps and the body,
/// not at the op's name.
static std::optional<DataMove> structuredMove(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op->getNumResults() != 1 || op.getNumReductionLoops() != 0 ||
      !op.hasPureTensorSemantics())
    return std::nullopt;
  OpOperand *input = op.getDpsInputOperand(0);
  OpOperand *init = op.getDpsInitOperand(0);
  if (!isa<RankedTensorType>(input->get().getType()) ||
      op.payloadUsesValueFromOperand(init))
    return std::nullopt;
  AffineMap in = op.getMatchingIndexingMap(input);
  AffineMap out = op.getMatchingIndexingMap(init);
  if (!in.isProjectedPermutation() || !out.isPermutation())
    return std::nullopt;
  Block *body = op.getBlock();
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  DataMove move;
  if (!yield || yield.getNumOperands() != 1 ||
      !yieldsFirstArgument(body, yield.getOperand(0), move.converts))
    return std::nullopt;
  move.source = input;
  move.repeats = in.getNumResults() < in.getNumDims();
  for (unsigned d = 0; d < out.getNumResults(); ++d) {
    unsigned loop = out.getDimPosition(d);
    std::optional<unsigned> from =
        in.getResultPosition(getAffineDimExpr(loop, op.getContext()));
    move.sourceDims.push_back(from ? static_cast<int64_t>(*from) : -1);
  }
  return move;
}

namespace {

/// A linalg structured op: linalg.matmul is the anchor, any other one (and
/// a matmul in no SUMMA form) follows its indexing maps.
template <typename Op>
struct StructuredLayoutModel
    : public LayoutRuleOpInterface::ExternalModel<StructuredLayoutModel<Op>,
                                                  Op> {
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

/// A linalg structured op is partitioned by the partitioner's own rewrite.
template <typename Op>
struct StructuredPartitionModel
    : public PartitionRuleOpInterface::ExternalModel<
          StructuredPartitionModel<Op>, Op> {
  LogicalResult partition(Operation *op, PartitionState &s) const {
    return s.partitionStructured(op);
  }
};

/// A linalg structured op's dimension classes follow its indexing maps.
template <typename Op>
struct StructuredDimClassModel
    : public DimClassOpInterface::ExternalModel<StructuredDimClassModel<Op>,
                                                Op> {
  void relateDimensions(Operation *op, DimClassState &s) const {
    relateStructured(s, cast<linalg::LinalgOp>(op));
  }
};

/// A linalg structured op moves data where its maps and body say so.
template <typename Op>
struct StructuredDataMoveModel
    : public DataMoveOpInterface::ExternalModel<StructuredDataMoveModel<Op>,
                                                Op> {
  std::optional<DataMove> getDataMove(Operation *op) const {
    return structuredMove(cast<linalg::LinalgOp>(op));
  }
};

/// Bytes of the tables `op`'s body reads with tensor.extract: for each, the
/// elements of the results (one read per iteration), at most the table.
static int64_t tableTraffic(Operation *op,
                            function_ref<int64_t(Value)> bytesOf) {
  int64_t resultElements = 0;
  for (Value r : op->getResults())
    if (auto type = dyn_cast<ShapedType>(r.getType());
        type && type.hasStaticShape())
      resultElements = std::max(resultElements, type.getNumElements());
  int64_t bytes = 0;
  op->walk([&](tensor::ExtractOp extract) {
    Value table = extract.getTensor();
    if (op->isAncestor(table.getParentBlock()->getParentOp()))
      return;
    bytes += std::min(bytesOf(table),
                      resultElements * elementStorageBytes(extract.getType()));
  });
  return bytes;
}

/// The bytes of the largest operand (input or accumulator) that the
/// innermost loop (the last loop dimension: convert-linalg-to-loops keeps
/// their order) walks along a dimension that is not the operand's last: an
/// element a cache line apart from the previous one every iteration.
static int64_t stridedOperandBytes(linalg::LinalgOp op,
                                   function_ref<int64_t(Value)> bytesOf) {
  AffineExpr inner = getAffineDimExpr(op.getNumLoops() - 1, op.getContext());
  int64_t bytes = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumResults() < 2)
      continue;
    std::optional<unsigned> at = map.getResultPosition(inner);
    if (at && *at + 1 != map.getNumResults())
      bytes = std::max(bytes, bytesOf(operand.get()));
  }
  return bytes;
}

/// A linalg op's local work: linalg.matmul is a GEMM (summaRtMatmul,
/// counted apart); a generic that sums a product over its reduction loops
/// (attention's products) is a local GEMM (convert-contractions-to-runtime's
/// summaRtMatmulBatched), 2 flops per iteration; every other linalg op is a
/// loop nest, timed by the bytes it moves and by its iterations: it reads
/// each tensor input once and writes each result once, and reads an init
/// whose value the body uses (a reduction's accumulator); a table read
/// inside its body (a gather) costs the rows it reads: at most one element
/// per iteration of the result, at most the table; one with reduction loops
/// counts its iterations (each carries the accumulator to the next); an
/// elementwise one vectorises and is bound by memory.
static LocalWork structuredWork(linalg::LinalgOp op,
                                function_ref<int64_t(Value)> bytesOf,
                                int64_t divisor) {
  LocalWork work;
  if (isa<linalg::MatmulOp>(op.getOperation()) || !op.hasPureTensorSemantics())
    return work;
  auto bytes = [&](Value v) { return tensorBytes(v, bytesOf); };
  if (linalg::isaContractionOpInterface(op)) {
    work.gemmFlops = 2 * staticLoopIterations(op) / divisor;
    for (Value input : op.getDpsInputs())
      work.gemmBytes += bytes(input);
    for (Value result : op->getResults())
      work.gemmBytes += bytes(result);
    return work;
  }
  for (Value input : op.getDpsInputs())
    work.bytes += bytes(input);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    work.bytes += bytes(op.getTiedOpResult(&init));
    if (op.payloadUsesValueFromOperand(&init))
      work.bytes += bytes(init.get());
  }
  work.bytes += tableTraffic(op, bytesOf);
  if (op.getNumReductionLoops() > 0) {
    work.iterations = staticLoopIterations(op) / divisor;
    work.stridedBytes = stridedOperandBytes(op, bytesOf);
  }
  return work;
}

/// A linalg structured op's local work is structuredWork's.
template <typename Op>
struct StructuredLocalWorkModel
    : public LocalWorkOpInterface::ExternalModel<StructuredLocalWorkModel<Op>,
                                                 Op> {
  LocalWork getLocalWork(Operation *op, function_ref<int64_t(Value)> bytesOf,
                         int64_t divisor) const {
    return structuredWork(cast<linalg::LinalgOp>(op), bytesOf, divisor);
  }
};

/// A softmax reads its input and writes its result, an iteration per
/// element.
static LocalWork softmaxWork(linalg::SoftmaxOp op,
                             function_ref<int64_t(Value)> bytesOf,
                             int64_t divisor) {
  LocalWork work;
  work.bytes = tensorBytes(op.getInput(), bytesOf) +
               tensorBytes(op.getResult()[0], bytesOf);
  auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
  int64_t elements = type && type.hasStaticShape() ? type.getNumElements() : 0;
  work.iterations = elements / divisor;
  return work;
}

template <typename... Ops>
void attachStructured(MLIRContext *ctx) {
  (Ops::template attachInterface<
       StructuredLayoutModel<Ops>, StructuredPartitionModel<Ops>,
       StructuredDimClassModel<Ops>, StructuredDataMoveModel<Ops>,
       StructuredLocalWorkModel<Ops>>(*ctx),
   ...);
}

} // namespace

void oprules::registerStructuredRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachStructured<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
        >(ctx);
    linalg::SoftmaxOp::attachInterface<
        LayoutModel<linalg::SoftmaxOp, visitSoftmax>,
        PartitionModel<linalg::SoftmaxOp, localizeOnly<linalg::SoftmaxOp>>,
        SplitCostModel<linalg::SoftmaxOp, splitSoftmax>,
        LocalWorkModel<linalg::SoftmaxOp, softmaxWork>>(*ctx);
  });
}

void mlir::summa::registerOpRuleExternalModels(DialectRegistry &registry) {
  registerPassiveRules(registry);
  registerReshapeRules(registry);
  registerSliceRules(registry);
  registerStructuredRules(registry);
  registerScatterRules(registry);
}

LogicalResult mlir::summa::requireOpRules(Operation *anchor) {
  // Every family is attached together: a summa op's rule witnesses them.
  MLIRContext *ctx = anchor->getContext();
  ctx->getOrLoadDialect<SummaDialect>();
  std::optional<RegisteredOperationName> relayout =
      RegisteredOperationName::lookup(RelayoutOp::getOperationName(), ctx);
  if (relayout && relayout->hasInterface<PartitionRuleOpInterface>())
    return success();
  return anchor->emitError()
         << "summa's op rules are not registered in this context: register "
            "them with the dialects (registerOpRuleExternalModels, which "
            "summa/InitAllSumma.h's registerAllSummaDialects calls)";
}
