//===- AssignLayouts.cpp - give every value a 2.5D layout -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-assign-layouts: seeds the layouts of function arguments
// from their role, then propagates layouts through every op by its rule until
// nothing changes, and checks that the grid divides every split dimension.
// The rules are the ops' own (LayoutRuleOpInterface; the upstream ops' in
// lib/Dialect/Summa/OpRules/); this file is the solver they talk to
// (LayoutRuleState): it owns the layouts, reconciles disagreeing uses and
// orders the phases.
//
// The propagation runs in three phases (docs/Layouts.md):
//   1. contractions: a linalg.matmul gives its operands and result their
//      SUMMA layouts (activation, weight);
//   2. propagation without conflicts: every op's rule gives layouts to the
//      values that have none, forwards and backwards; a use that wants
//      another layout than its value has is left alone;
//   3. resolution: the same rules, where such a use now gets an explicit
//      summa.relayout (an all-gather and/or a local slice after
//      summa-partition), or a copy of its producer when that is an empty
//      tensor, a fill or a constant. Values no rule reaches are replicated.
// Each value's layout is fixed by the first rule that gives it one, in
// program order within a phase, so the result is deterministic.
//
//===----------------------------------------------------------------------===//

#include "DimClasses.h"
#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"
#include "summa/Dialect/Summa/OpRules/OpRules.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/Support/Functions.h"

#include "summa/Dialect/Summa/Analysis/Gather.h"
#include "summa/Dialect/Summa/Analysis/Reductions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <climits>
#include <numeric>

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAASSIGNLAYOUTS
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

using DimSplits = SmallVector<DimLayout>;

/// Layout of an activation of rank `rank`: the leading (token) dimension
/// over [depth, row], the trailing (hidden) one over [col].
DimSplits activationSplits(int64_t rank) {
  DimSplits s(rank);
  if (rank >= 1)
    s.front() = {GridAxis::depth, GridAxis::row};
  if (rank >= 2)
    s.back() = {GridAxis::col};
  return s;
}

using Phase = LayoutPhase;

/// The propagation state of one function; the ops' rules
/// (LayoutRuleOpInterface) read and write it.
class LayoutSolver final : public LayoutRuleState {
public:
  LayoutSolver(func::FuncOp func, GridOp grid)
      : func(func), grid(grid),
        gridRef(FlatSymbolRefAttr::get(grid.getSymNameAttr())) {}

  /// What a reduction over split loop dimensions needs: an all-reduce of
  /// each result over `axes` with `kinds[result]`.
  struct PartialReduction {
    SmallVector<GridAxis> axes;
    SmallVector<ReductionKind> kinds;
  };

  LogicalResult run();

  // LayoutRuleState.
  LayoutPhase getPhase() const override { return phase; }
  GridOp getGrid() const override { return grid; }
  LayoutAttr lookup(Value v) const override { return layouts.lookup(v); }
  void want(OpOperand &operand, LayoutAttr layout) override;
  void define(OpResult result, LayoutAttr layout) override;
  LayoutAttr make(ArrayRef<DimLayout> splits) const override {
    return LayoutAttr::get(gridRef.getContext(), gridRef, splits);
  }
  /// The layout of `splits`, or a diagnostic at `op` when no layout can
  /// express them (an indexing map that repeats a split loop dimension would
  /// split two dimensions over one grid axis). LayoutAttr::get asserts on
  /// such splits.
  FailureOr<LayoutAttr> makeChecked(ArrayRef<DimLayout> splits, Operation *op,
                                    Value value) const override {
    LayoutAttr layout = LayoutAttr::getChecked(
        [&] {
          return op->emitError() << "a value of type " << value.getType()
                                 << " cannot be laid out: ";
        },
        gridRef.getContext(), gridRef, splits);
    if (!layout)
      return failure();
    return layout;
  }
  /// `layout` without the splits of dimensions of size 1 (a broadcast
  /// dimension is never split).
  LayoutAttr fit(LayoutAttr layout, Type type);
  /// The layout of the activation `arg`: its tokens over [depth, row]
  /// (spread over its leading dimensions where the first alone cannot take
  /// them: a batch smaller than depth x row), its hidden dimension over
  /// [col].
  LayoutAttr activationLayout(BlockArgument arg);
  /// Fits `layout` to `v` and gives it to `v` if it has none. Returns the
  /// layout `v` has where it differs and the resolution phase must
  /// reconcile the two; null otherwise.
  LayoutAttr conflict(Value v, LayoutAttr &layout);
  int64_t hintedGroups(Value v, unsigned dim, ArrayRef<GridAxis> axes) override;
  bool recordPartialReduction(Operation *op, ArrayRef<GridAxis> axes) override;
  void recordPartialSum(Operation *op, ArrayRef<GridAxis> axes) override;
  void forgetPartialReduction(Operation *op) override { partials.erase(op); }

private:
  /// `splits` with the hinted groups of `v`'s split dimensions.
  DimSplits withHints(Value v, DimSplits splits);
  LogicalResult seedArguments();
  /// Runs `op`'s rule (LayoutRuleOpInterface) for the current phase.
  LogicalResult visit(Operation *op);
  LogicalResult propagate(Phase phase);
  /// The first value the grid cannot divide, as an error message; empty if
  /// every value divides. `gridShape` may differ from the grid's.
  std::optional<std::pair<Location, std::string>>
  findIndivisible(ArrayRef<int64_t> gridShape);
  LogicalResult checkAndWrite();

  func::FuncOp func;
  GridOp grid;
  FlatSymbolRefAttr gridRef;
  DenseMap<Value, LayoutAttr> layouts;
  /// The dimensions that index the same space, and the chunks slices cut
  /// them into (built at the start of run()).
  std::optional<DimClasses> classes;
  DenseMap<Operation *, PartialReduction> partials;
  /// Arguments without a role that are activations unless their uses
  /// decide otherwise.
  SmallVector<BlockArgument> defaultActivations;
  /// The summa.relayout of each value to each layout, for reuse.
  DenseMap<std::pair<Value, LayoutAttr>, RelayoutOp> relayouts;
  Phase phase = Phase::Contractions;
  bool changed = false;
};

} // namespace

LayoutAttr LayoutSolver::fit(LayoutAttr layout, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  DimSplits splits = layout.getDims();
  bool changedAny = false;
  for (auto [d, split] : llvm::enumerate(splits))
    if (tensor.getDimSize(d) == 1 && split.isSplit()) {
      split = DimLayout();
      changedAny = true;
    }
  return changedAny ? make(splits) : layout;
}

LayoutAttr LayoutSolver::activationLayout(BlockArgument arg) {
  auto type = cast<RankedTensorType>(arg.getType());
  DimSplits splits = withHints(arg, activationSplits(type.getRank()));
  int64_t rank = type.getRank();
  if (rank >= 3 && splits[0].isSplit() &&
      type.getDimSize(0) % getSplitFactor(grid, splits[0].axes) != 0)
    if (std::optional<DimSplits> spread =
            spreadSplit(grid, type.getShape().drop_back(), splits[0]))
      for (int64_t d = 0; d + 1 < rank; ++d)
        splits[d] = (*spread)[d];
  return fit(make(splits), type);
}

LayoutAttr LayoutSolver::conflict(Value v, LayoutAttr &layout) {
  layout = fit(layout, v.getType());
  LayoutAttr have = lookup(v);
  if (!have) {
    layouts[v] = layout;
    changed = true;
    return {};
  }
  if (have == layout || phase != Phase::Resolve)
    return {};
  return have;
}

void LayoutSolver::want(OpOperand &operand, LayoutAttr layout) {
  Value v = operand.get();
  if (!conflict(v, layout))
    return;
  // A use inside a linalg body (a table read with tensor.extract) is
  // redistributed before the op that holds it.
  Operation *user = operand.getOwner();
  while (user->getParentOp() != func.getOperation())
    user = user->getParentOp();
  OpBuilder b(user);
  Operation *def = v.getDefiningOp();
  if (isCheapToCopy(def)) {
    Operation *copy = b.clone(*def);
    Value result = copy->getResult(cast<OpResult>(v).getResultNumber());
    operand.set(result);
    layouts[result] = layout;
    changed = true;
    return;
  }
  // One redistribution per value and layout: a later use reuses it.
  auto key = std::make_pair(v, layout);
  if (RelayoutOp earlier = relayouts.lookup(key);
      earlier && earlier->getBlock() == user->getBlock() &&
      earlier->isBeforeInBlock(user)) {
    operand.set(earlier.getResult());
    changed = true;
    return;
  }
  auto relayout = RelayoutOp::create(b, user->getLoc(), v.getType(), v, layout);
  relayouts[key] = relayout;
  operand.set(relayout.getResult());
  layouts[relayout.getResult()] = layout;
  changed = true;
}

void LayoutSolver::define(OpResult result, LayoutAttr layout) {
  LayoutAttr have = conflict(result, layout);
  if (!have)
    return;
  // The uses keep the layout they gave; the op produces its own.
  OpBuilder b(result.getOwner()->getContext());
  b.setInsertionPointAfter(result.getOwner());
  auto relayout = RelayoutOp::create(b, result.getOwner()->getLoc(),
                                     result.getType(), result, have);
  result.replaceAllUsesExcept(relayout.getResult(), relayout);
  layouts[relayout.getResult()] = have;
  layouts[result] = layout;
  changed = true;
}

int64_t LayoutSolver::hintedGroups(Value v, unsigned dim,
                                   ArrayRef<GridAxis> axes) {
  if (axes.empty() || !classes)
    return 1;
  int64_t chunk = classes->getChunk(v, dim);
  int64_t size = cast<RankedTensorType>(v.getType()).getDimSize(dim);
  int64_t blocks = getSplitFactor(grid, axes);
  // One block: every slice is local anyway, no need for groups.
  if (blocks == 1 || chunk <= 0 || chunk >= size || size % chunk != 0 ||
      chunk % blocks != 0)
    return 1;
  return size / chunk;
}

DimSplits LayoutSolver::withHints(Value v, DimSplits splits) {
  for (auto [d, split] : llvm::enumerate(splits))
    if (split.isSplit() && split.groups == 1)
      split.groups = hintedGroups(v, d, split.axes);
  return splits;
}

/// Whether `use`'s owner passes its data on whole: a data move that
/// neither slices nor repeats it (reorders, reshapes or converts), or a
/// function of each of its elements alone (a generic of one input through
/// permutations, one op in its body: a scale, a negation). A weight keeps
/// being the weight through it.
static bool passesWholeData(OpOperand &use) {
  Operation *op = use.getOwner();
  if (std::optional<DataMove> move = getDataMove(op))
    return move->source == &use && !move->slices && !move->repeats;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 || !generic.isDpsInput(&use) ||
      generic.getNumLoops() != generic.getNumParallelLoops())
    return false;
  for (AffineMap map : generic.getIndexingMapsArray())
    if (!map.isPermutation())
      return false;
  return generic.getBody()->getOperations().size() <= 2;
}

/// True if `value` reaches the right-hand side of a forward product (A·B or
/// A·Bᵀ) through transposes, reshapes and casts: the data flow of a weight,
/// whatever layout the exporter stores it in (PyTorch keeps nn.Linear's
/// weight as [out, in] and transposes it).
static bool reachesWeightSlot(Value value, int depth = 0) {
  if (depth > 8)
    return false;
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto mm = dyn_cast<linalg::MatmulOp>(user)) {
      std::optional<MatmulForm> form = getMatmulForm(mm.getIndexingMapsArray());
      if (form && *form != MatmulForm::atb && use.getOperandNumber() == 1)
        return true;
      continue;
    }
    if (passesWholeData(use) &&
        reachesWeightSlot(user->getResult(0), depth + 1))
      return true;
  }
  return false;
}

/// True if `value` is the filter of a convolution (the second input of a
/// linalg op that is one: a named convolution, or a generic that
/// linalg::isaConvolutionOpInterface recognises), directly or through data
/// moves. The convolution's rule lays it out (splitConvolutionChannels).
static bool reachesConvolutionFilter(Value value, int depth = 0) {
  if (depth > 8)
    return false;
  for (OpOperand &use : value.getUses()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(use.getOwner());
    if (linalgOp && linalgOp.getNumDpsInputs() == 2 &&
        use.getOperandNumber() == 1 &&
        (isa<linalg::ConvolutionOpInterface>(use.getOwner()) ||
         linalg::isaConvolutionOpInterface(linalgOp)))
      return true;
    if (passesWholeData(use) &&
        reachesConvolutionFilter(use.getOwner()->getResult(0), depth + 1))
      return true;
  }
  return false;
}

/// True if `value` is read inside a region (an embedding table that a
/// generic reads with tensor.extract): it is a table, not an activation.
static bool isReadInsideBody(Value value) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    return user->getParentRegion() != value.getParentRegion();
  });
}

/// True if `value` is the table of a gather (an embedding: a linalg body
/// reads it at a computed row).
static bool isGatherTable(Value value) {
  return llvm::any_of(value.getUsers(), [&](Operation *user) {
    Operation *owner = user->getParentOp();
    return owner && owner != value.getParentRegion()->getParentOp() &&
           matchGather(owner, value);
  });
}

LogicalResult LayoutSolver::seedArguments() {
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      return emitError(arg.getLoc())
             << "argument " << arg.getArgNumber() << " has type "
             << arg.getType() << "; summa needs ranked tensors";
    // Before any op sees it: an exporter's dynamic batch reaches the
    // partitioner as tensor.dim ops, which have no layout rule.
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        return emitError(arg.getLoc())
               << "argument " << arg.getArgNumber() << ": dimension " << d
               << " of " << type
               << " is dynamic; summa needs static shapes (export the model "
                  "with static shapes)";
    std::optional<ArgumentRole> role =
        getArgumentRole(func, arg.getArgNumber());
    int64_t rank = type.getRank();
    if (!role && rank == 2 && isa<FloatType>(type.getElementType()) &&
        !reachesWeightSlot(arg) && isGatherTable(arg)) {
      // An embedding table that no product reads (an untied one): a weight,
      // split like any other; its lookup picks the rows each rank owns.
      role = ArgumentRole::Weight;
    } else if (!role && rank >= 2 && isa<FloatType>(type.getElementType()) &&
               !reachesWeightSlot(arg) && !isReadInsideBody(arg) &&
               !reachesConvolutionFilter(arg)) {
      // A float tensor of rank >= 2 that is no weight carries tokens. One
      // whose leading dimension is 1 is more likely a table broadcast over
      // the batch (nanoGPT's causal mask buffer [1, 1, T, T]): its uses
      // decide, and the default applies after the propagation only if they
      // left it without a layout.
      if (type.getDimSize(0) == 1)
        defaultActivations.push_back(arg);
      else
        role = ArgumentRole::Activation;
    }
    auto checkRank = [&](int64_t want, StringRef what) -> LogicalResult {
      if (rank == want)
        return success();
      return emitError(arg.getLoc())
             << "argument " << arg.getArgNumber() << " is a " << what
             << " and must have rank " << want << ", got " << type;
    };
    if (!role)
      continue; // Inferred from its uses.
    switch (*role) {
    case ArgumentRole::Activation:
      if (rank < 2)
        return emitError(arg.getLoc())
               << "argument " << arg.getArgNumber()
               << " is an activation and must have rank >= 2, got " << type;
      layouts[arg] = activationLayout(arg);
      break;
    case ArgumentRole::Weight:
      if (failed(checkRank(2, "weight")))
        return failure();
      layouts[arg] = make(withHints(arg, {{GridAxis::row}, {GridAxis::col}}));
      break;
    case ArgumentRole::Bias:
      if (failed(checkRank(1, "bias")))
        return failure();
      layouts[arg] = make(withHints(arg, {{GridAxis::col}}));
      break;
    case ArgumentRole::Replicated:
      layouts[arg] = make(DimSplits(rank));
      break;
    case ArgumentRole::State:
      // An optimizer's state: laid out like the parameter it is updated
      // with, by the update's rule.
      break;
    }
  }
  return success();
}

/// `axes` without repeats, in the order of world ranks: depth, row, col.
static SmallVector<GridAxis> worldOrder(ArrayRef<GridAxis> axesIn) {
  SmallVector<GridAxis> axes(axesIn);
  llvm::sort(axes, [](GridAxis a, GridAxis b) {
    auto rank = [](GridAxis x) { return (static_cast<int>(x) + 1) % 3; };
    return rank(a) < rank(b);
  });
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  return axes;
}

void LayoutSolver::recordPartialSum(Operation *op, ArrayRef<GridAxis> axes) {
  PartialReduction partial;
  partial.axes = worldOrder(axes);
  partial.kinds.assign(op->getNumResults(), ReductionKind::sum);
  partials[op] = partial;
}

bool LayoutSolver::recordPartialReduction(Operation *reduction,
                                          ArrayRef<GridAxis> axesIn) {
  auto op = dyn_cast<linalg::LinalgOp>(reduction);
  if (!op)
    return false;
  SmallVector<GridAxis> axes = worldOrder(axesIn);
  if (!isa<linalg::GenericOp, linalg::ReduceOp>(op.getOperation()))
    return false;
  PartialReduction partial;
  partial.axes = axes;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    unsigned position = init.getOperandNumber() - op.getNumDpsInputs();
    BlockArgument acc = op.getMatchingBlockArgument(&init);
    std::optional<ReductionKind> kind = getCombinerKind(acc, position);
    // Every rank must start from the identity of the combiner, or the
    // all-reduce would count the initial value once per rank.
    if (!kind || !isIdentityFill(init.get(), *kind))
      return false;
    partial.kinds.push_back(*kind);
  }
  partials[op] = partial;
  return true;
}

LogicalResult LayoutSolver::visit(Operation *op) {
  auto rule = dyn_cast<LayoutRuleOpInterface>(op);
  if (!rule) {
    bool touchesTensors =
        llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>) ||
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>);
    if (!touchesTensors)
      return success();
    return op->emitError() << "'" << op->getName()
                           << "' is not supported by summa (no layout rule)";
  }
  if (phase == Phase::Contractions && !rule.isLayoutAnchor())
    return success();
  return rule.propagateLayouts(*this);
}

LogicalResult LayoutSolver::propagate(Phase p) {
  phase = p;
  for (int iter = 0;; ++iter) {
    changed = false;
    for (Operation &op : llvm::make_early_inc_range(func.getBody().front()))
      if (failed(visit(&op)))
        return failure();
    if (!changed)
      return success();
    if (iter > 1000)
      return func.emitError() << "layout propagation did not converge";
  }
}

LogicalResult LayoutSolver::run() {
  classes.emplace(func);
  if (failed(seedArguments()) || failed(propagate(Phase::Contractions)) ||
      failed(propagate(Phase::Propagate)))
    return failure();
  for (BlockArgument arg : defaultActivations)
    if (!lookup(arg)) {
      layouts[arg] = activationLayout(arg);
      if (failed(propagate(Phase::Propagate)))
        return failure();
    }
  if (failed(propagate(Phase::Resolve)))
    return failure();
  // What no rule reaches is replicated: the first such value in program
  // order, then everything that follows from it, until all have one.
  auto firstUnlaid = [&]() -> Value {
    for (BlockArgument arg : func.getArguments())
      if (!lookup(arg))
        return arg;
    Value found;
    func.walk([&](Operation *op) {
      for (OpResult res : op->getResults())
        if (isa<RankedTensorType>(res.getType()) && !lookup(res)) {
          found = res;
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    return found;
  };
  while (Value v = firstUnlaid()) {
    layouts[v] = make(DimSplits(cast<RankedTensorType>(v.getType()).getRank()));
    if (failed(propagate(Phase::Propagate)) ||
        failed(propagate(Phase::Resolve)))
      return failure();
  }
  // A result that updates an argument (summa.updates: a weight after its
  // optimizer step) is laid out like it, since the driver feeds it back in
  // its place: a tied embedding's table is read whole by the lookup but
  // its gradient comes laid out like the LM head's weight.
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (OpOperand &operand : ret->getOpOperands())
    if (BlockArgument updated =
            getUpdatedArgument(func, operand.getOperandNumber()))
      if (LayoutAttr argLayout = lookup(updated))
        want(operand, argLayout);
  return checkAndWrite();
}
/// The blocks `split` cuts a dimension into on `gridShape`.
static int64_t blocksOn(ArrayRef<GridAxis> split, ArrayRef<int64_t> gridShape) {
  int64_t factor = 1;
  for (GridAxis a : split)
    factor *= gridShape[static_cast<int>(a)];
  return factor;
}

/// Why `type` laid out by `layout` cannot be partitioned on `gridShape`, or
/// std::nullopt if it can. A dimension the blocks do not divide is split
/// unevenly (padded blocks), except where it is factored into groups.
static std::optional<std::string> whyIndivisible(Type type, LayoutAttr layout,
                                                 ArrayRef<int64_t> gridShape) {
  auto shaped = cast<RankedTensorType>(type);
  std::string msg;
  llvm::raw_string_ostream os(msg);
  for (int64_t d = 0; d < shaped.getRank(); ++d) {
    SmallVector<GridAxis> split = layout.getDimSplit(d);
    int64_t groups = layout.getDimGroups(d);
    int64_t factor = blocksOn(split, gridShape);
    int64_t size = shaped.getDimSize(d);
    if (ShapedType::isDynamic(size)) {
      os << "dimension " << d << " of '" << type
         << "' is dynamic; summa needs static shapes";
      return msg;
    }
    if (size == 0) {
      os << "dimension " << d << " of '" << type
         << "' has size 0; summa needs tensors with elements";
      return msg;
    }
    if (groups != 1 && size % (factor * groups) != 0) {
      os << "dimension " << d << " of size " << size << " ('" << type
         << "') is split over " << formatAxes(split) << " into " << factor
         << " blocks in each of " << groups << " groups on grid ["
         << gridShape[0] << ", " << gridShape[1] << ", " << gridShape[2]
         << "] and is not divisible by " << factor * groups
         << " (a factored dimension is split evenly)";
      return msg;
    }
  }
  return std::nullopt;
}

/// Why reshape `op` cannot keep the layouts of its operand and result on
/// `gridShape`: a dimension split unevenly (padded blocks) merged with
/// other dimensions of more than one element, whose padding would land
/// inside the merged dimension. std::nullopt if it can.
static std::optional<std::string>
whyReshapeUneven(Operation *op, const DenseMap<Value, LayoutAttr> &layouts,
                 ArrayRef<int64_t> gridShape) {
  if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
    return std::nullopt;
  Value expanded = op->getResult(0), collapsed = op->getOperand(0);
  SmallVector<ReassociationIndices> groups;
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    groups = expand.getReassociationIndices();
  } else {
    groups = cast<tensor::CollapseShapeOp>(op).getReassociationIndices();
    std::swap(expanded, collapsed);
  }
  LayoutAttr big = layouts.lookup(expanded), small = layouts.lookup(collapsed);
  if (!big || !small)
    return std::nullopt;
  auto bigType = cast<RankedTensorType>(expanded.getType());
  auto smallType = cast<RankedTensorType>(collapsed.getType());
  auto uneven = [&](RankedTensorType type, LayoutAttr layout, int64_t d) {
    return type.getDimSize(d) % blocksOn(layout.getDimSplit(d), gridShape) != 0;
  };
  for (auto [g, group] : llvm::enumerate(groups)) {
    int64_t nonUnit = llvm::count_if(
        group, [&](int64_t d) { return bigType.getDimSize(d) != 1; });
    if (nonUnit <= 1)
      continue;
    // The dimension split unevenly: the merged one, or one of the group.
    std::optional<std::pair<RankedTensorType, int64_t>> bad;
    LayoutAttr badLayout;
    if (uneven(smallType, small, g)) {
      bad = {smallType, g};
      badLayout = small;
    }
    for (int64_t d : group)
      if (!bad && uneven(bigType, big, d)) {
        bad = {bigType, d};
        badLayout = big;
      }
    if (!bad)
      continue;
    auto [type, dim] = *bad;
    SmallVector<GridAxis> axes = badLayout.getDimSplit(dim);
    std::string msg;
    llvm::raw_string_ostream os(msg);
    os << "'" << op->getName() << "' merges dimensions [";
    llvm::interleaveComma(group, os,
                          [&](int64_t d) { os << bigType.getDimSize(d); });
    os << "] of " << bigType << ", and dimension " << dim << " of " << type
       << " (size " << type.getDimSize(dim) << ") is split over "
       << formatAxes(axes) << " into " << blocksOn(axes, gridShape)
       << " uneven blocks on grid [" << gridShape[0] << ", " << gridShape[1]
       << ", " << gridShape[2]
       << "]; summa pads the last blocks only of a dimension that is not "
          "merged with others";
    return msg;
  }
  return std::nullopt;
}

std::optional<std::pair<Location, std::string>>
LayoutSolver::findIndivisible(ArrayRef<int64_t> gridShape) {
  for (BlockArgument arg : func.getArguments())
    if (auto why = whyIndivisible(arg.getType(), lookup(arg), gridShape))
      return std::make_pair(arg.getLoc(), "argument " +
                                              Twine(arg.getArgNumber()).str() +
                                              ": " + *why);
  std::optional<std::pair<Location, std::string>> found;
  func.walk([&](Operation *op) {
    if (auto why = whyReshapeUneven(op, layouts, gridShape)) {
      found = std::make_pair(op->getLoc(), *why);
      return WalkResult::interrupt();
    }
    for (OpResult res : op->getResults()) {
      LayoutAttr layout = lookup(res);
      if (!layout)
        continue;
      if (auto why = whyIndivisible(res.getType(), layout, gridShape)) {
        found = std::make_pair(op->getLoc(),
                               "result " + Twine(res.getResultNumber()).str() +
                                   ": " + *why);
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return found;
}

LogicalResult LayoutSolver::checkAndWrite() {
  MLIRContext *ctx = func.getContext();
  // Divisibility, with the grids of as many ranks that would work.
  ArrayRef<int64_t> shape = grid.getShape();
  if (auto bad = findIndivisible(shape)) {
    // A dynamic or empty dimension fails on every grid: no list of grids.
    if (StringRef(bad->second).contains("is dynamic") ||
        StringRef(bad->second).contains("has size 0"))
      return emitError(bad->first) << bad->second;
    int64_t ranks = shape[0] * shape[1] * shape[2];
    SmallVector<std::string> good;
    for (int64_t q = 1; q * q <= ranks; ++q) {
      if (ranks % (q * q) != 0)
        continue;
      SmallVector<int64_t> candidate = {q, q, ranks / (q * q)};
      if (!findIndivisible(candidate))
        good.push_back("[" + std::to_string(q) + ", " + std::to_string(q) +
                       ", " + std::to_string(ranks / (q * q)) + "]");
    }
    InFlightDiagnostic diag = emitError(bad->first) << bad->second;
    if (good.empty())
      diag << "; no grid of " << ranks << " ranks divides every tensor";
    else
      diag << "; grids of " << ranks
           << " ranks that divide every tensor: " << llvm::join(good, ", ");
    return failure();
  }

  for (BlockArgument arg : func.getArguments())
    func.setArgAttr(arg.getArgNumber(), kLayoutAttrName, lookup(arg));
  func.walk([&](Operation *op) {
    if (op->getNumResults() == 0 ||
        !llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>))
      return;
    SmallVector<Attribute> attrs;
    for (OpResult res : op->getResults())
      attrs.push_back(lookup(res));
    op->setAttr(kLayoutsAttrName, ArrayAttr::get(ctx, attrs));
  });
  for (auto &[op, partial] : partials) {
    SmallVector<Attribute> kinds;
    for (ReductionKind k : partial.kinds)
      kinds.push_back(ReductionKindAttr::get(ctx, k));
    op->setAttr(kReduceAxesAttrName, getAxesAttr(ctx, partial.axes));
    op->setAttr(kReduceKindsAttrName, ArrayAttr::get(ctx, kinds));
  }
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (auto [i, v] : llvm::enumerate(ret.getOperands()))
    func.setResultAttr(i, kLayoutAttrName, lookup(v));
  return success();
}

namespace {
struct SummaAssignLayoutsPass
    : summa::impl::SummaAssignLayoutsBase<SummaAssignLayoutsPass> {
  using Base::Base;
  void runOnOperation() override;
  GridOp getOrCreateGrid();
};
} // namespace

GridOp SummaAssignLayoutsPass::getOrCreateGrid() {
  ModuleOp module = getOperation();
  auto existing =
      dyn_cast_or_null<GridOp>(SymbolTable::lookupSymbolIn(module, gridName));
  if (grid.empty()) {
    if (!existing)
      module.emitError() << "summa-assign-layouts needs a grid: pass "
                            "grid=q,q,d or declare summa.grid @"
                         << gridName;
    return existing;
  }
  if (std::string why = gridShapeError(grid); !why.empty()) {
    auto diag = module.emitError() << "invalid grid [";
    llvm::interleaveComma(grid, diag);
    diag << "]: " << why;
    return {};
  }
  if (existing) {
    if (existing.getShape() != ArrayRef<int64_t>(grid)) {
      existing.emitError() << "summa.grid @" << gridName
                           << " differs from the grid option";
      return {};
    }
    return existing;
  }
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  return GridOp::create(b, module.getLoc(), gridName,
                        b.getDenseI64ArrayAttr(grid));
}

void SummaAssignLayoutsPass::runOnOperation() {
  if (failed(requireOpRules(getOperation())))
    return signalPassFailure();
  GridOp gridOp = getOrCreateGrid();
  if (!gridOp)
    return signalPassFailure();
  for (func::FuncOp func : definedFunctions(getOperation())) {
    if (!func.getBody().hasOneBlock()) {
      func.emitError() << "functions with more than one block are not "
                          "supported";
      return signalPassFailure();
    }
    LayoutSolver solver(func, gridOp);
    if (failed(solver.run()))
      return signalPassFailure();
  }
}
