//===- AssignLayouts.cpp - give every value a 2.5D layout -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-assign-layouts: seeds the layouts of function arguments
// from their role, then propagates layouts through every op by its rule until
// nothing changes, and checks that the grid divides every split dimension.
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

#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "Reductions.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include <climits>

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAASSIGNLAYOUTS
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

using DimSplits = SmallVector<SmallVector<GridAxis>>;

/// The role an argument plays, which fixes its layout.
enum class Role { Activation, Weight, Bias, Replicated, Unknown };

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

DimSplits splitsOf(LayoutAttr layout) {
  DimSplits s;
  for (unsigned d = 0; d < layout.getRank(); ++d)
    s.push_back(layout.getDimSplit(d));
  return s;
}

/// The phase of the propagation (see the file comment).
enum class Phase { Contractions, Propagate, Resolve };

/// The propagation state of one function.
class LayoutSolver {
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

private:
  LayoutAttr make(const DimSplits &splits) {
    return LayoutAttr::get(func.getContext(), gridRef, splits);
  }
  /// The layout of `splits`, or a diagnostic at `op` when no layout can
  /// express them (an indexing map that repeats a split loop dimension would
  /// split two dimensions over one grid axis). LayoutAttr::get asserts on
  /// such splits.
  FailureOr<LayoutAttr> makeChecked(const DimSplits &splits, Operation *op,
                                    Value value) {
    MLIRContext *ctx = func.getContext();
    SmallVector<Attribute> dims;
    for (const SmallVector<GridAxis> &dim : splits) {
      SmallVector<int32_t> raw;
      for (GridAxis a : dim)
        raw.push_back(static_cast<int32_t>(a));
      dims.push_back(DenseI32ArrayAttr::get(ctx, raw));
    }
    LayoutAttr layout = LayoutAttr::getChecked(
        [&] {
          return op->emitError() << "a value of type " << value.getType()
                                 << " cannot be laid out: ";
        },
        ctx, gridRef, ArrayAttr::get(ctx, dims));
    if (!layout)
      return failure();
    return layout;
  }
  LayoutAttr lookup(Value v) const { return layouts.lookup(v); }
  /// `layout` without the splits of dimensions of size 1 (a broadcast
  /// dimension is never split).
  LayoutAttr fit(LayoutAttr layout, Type type);
  /// Fits `layout` to `v` and gives it to `v` if it has none. Returns the
  /// layout `v` has where it differs and the resolution phase must
  /// reconcile the two; null otherwise.
  LayoutAttr conflict(Value v, LayoutAttr &layout);
  /// The use `operand` wants its value laid out by `layout`. A value without
  /// a layout takes it; in the resolution phase, a value with another one
  /// is copied (a cheap producer) or re-laid out for this use.
  void want(OpOperand &operand, LayoutAttr layout);
  /// The op of `result` produces it laid out by `layout`. A result that
  /// already has another layout (given by a use) keeps it through a
  /// summa.relayout after the op, in the resolution phase.
  void define(OpResult result, LayoutAttr layout);
  LogicalResult seedArguments();
  LogicalResult visit(Operation *op);
  LogicalResult visitMatmul(linalg::MatmulOp op);
  LogicalResult visitStructured(linalg::LinalgOp op);
  LogicalResult visitReshape(Operation *op, OpOperand &input, OpResult output,
                             ArrayRef<ReassociationIndices> groups,
                             bool inputIsCollapsed);
  LogicalResult visitSoftmax(linalg::SoftmaxOp op);
  LogicalResult visitExtractSlice(tensor::ExtractSliceOp op);
  LogicalResult visitInsertSlice(tensor::InsertSliceOp op);
  LogicalResult visitConcat(tensor::ConcatOp op);
  LogicalResult visitPad(tensor::PadOp op);
  /// Whether the reduction `op` over loops split by `loops` can be completed
  /// by an all-reduce; records it if so.
  bool recordPartialReduction(linalg::LinalgOp op,
                              SmallVector<GridAxis> axes);
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

/// A producer that is cheaper to repeat than to redistribute: an empty
/// tensor, a splat constant, a fill of either.
static bool isCheapToCopy(Operation *op) {
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

LayoutAttr LayoutSolver::fit(LayoutAttr layout, Type type) {
  auto tensor = cast<RankedTensorType>(type);
  DimSplits splits = splitsOf(layout);
  bool changedAny = false;
  for (auto [d, split] : llvm::enumerate(splits))
    if (tensor.getDimSize(d) == 1 && !split.empty()) {
      split.clear();
      changedAny = true;
    }
  return changedAny ? make(splits) : layout;
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
  auto relayout =
      RelayoutOp::create(b, result.getOwner()->getLoc(), result.getType(),
                         result, have);
  result.replaceAllUsesExcept(relayout.getResult(), relayout);
  layouts[relayout.getResult()] = have;
  layouts[result] = layout;
  changed = true;
}

/// The form of a linalg.matmul, from its indexing maps.
static std::optional<MatmulForm> getForm(linalg::MatmulOp op) {
  return getMatmulForm(op.getIndexingMapsArray());
}

static Role parseRole(StringRef s) {
  return llvm::StringSwitch<Role>(s)
      .Case("activation", Role::Activation)
      .Case("weight", Role::Weight)
      .Case("bias", Role::Bias)
      .Case("replicated", Role::Replicated)
      .Default(Role::Unknown);
}

/// True if a linalg op only moves or converts its one input elementwise
/// (a transpose, a copy, a cast): the data of a weight passes through it.
static bool isDataMove(Operation *op) {
  if (isa<linalg::TransposeOp, linalg::CopyOp, tensor::ExpandShapeOp,
          tensor::CollapseShapeOp>(op))
    return true;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumDpsInits() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops())
    return false;
  for (AffineMap map : generic.getIndexingMapsArray())
    if (!map.isPermutation())
      return false;
  Block *body = generic.getBody();
  // At most one conversion between the input and the yield.
  return body->getOperations().size() <= 2;
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
      std::optional<MatmulForm> form = getForm(mm);
      if (form && *form != MatmulForm::atb &&
          use.getOperandNumber() == 1)
        return true;
      continue;
    }
    if (!isDataMove(user))
      continue;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user)) {
      if (!linalgOp.isDpsInput(&use))
        continue;
      if (reachesWeightSlot(linalgOp->getResult(0), depth + 1))
        return true;
      continue;
    }
    if (reachesWeightSlot(user->getResult(0), depth + 1))
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

LogicalResult LayoutSolver::seedArguments() {
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      return emitError(arg.getLoc()) << "argument " << arg.getArgNumber()
                                     << " has type " << arg.getType()
                                     << "; summa needs ranked tensors";
    Role role = Role::Unknown;
    int64_t rank = type.getRank();
    if (auto attr = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      kRoleAttrName)) {
      role = parseRole(attr.getValue());
      if (role == Role::Unknown)
        return emitError(arg.getLoc())
               << "argument " << arg.getArgNumber() << " has unknown "
               << kRoleAttrName << " \"" << attr.getValue()
               << "\" (expected activation, weight, bias or replicated)";
    } else if (rank >= 2 && isa<FloatType>(type.getElementType()) &&
               !reachesWeightSlot(arg) && !isReadInsideBody(arg)) {
      // A float tensor of rank >= 2 that is no weight carries tokens. One
      // whose leading dimension is 1 is more likely a table broadcast over
      // the batch (nanoGPT's causal mask buffer [1, 1, T, T]): its uses
      // decide, and the default applies after the propagation only if they
      // left it without a layout.
      if (type.getDimSize(0) == 1)
        defaultActivations.push_back(arg);
      else
        role = Role::Activation;
    }
    auto checkRank = [&](int64_t want, StringRef what) -> LogicalResult {
      if (rank == want)
        return success();
      return emitError(arg.getLoc()) << "argument " << arg.getArgNumber()
                                     << " is a " << what << " and must have rank "
                              << want << ", got " << type;
    };
    switch (role) {
    case Role::Activation:
      if (rank < 2)
        return emitError(arg.getLoc())
               << "argument " << arg.getArgNumber()
               << " is an activation and must have rank >= 2, got " << type;
      layouts[arg] = fit(make(activationSplits(rank)), type);
      break;
    case Role::Weight:
      if (failed(checkRank(2, "weight")))
        return failure();
      layouts[arg] = make({{GridAxis::row}, {GridAxis::col}});
      break;
    case Role::Bias:
      if (failed(checkRank(1, "bias")))
        return failure();
      layouts[arg] = make({{GridAxis::col}});
      break;
    case Role::Replicated:
      layouts[arg] = make(DimSplits(rank));
      break;
    case Role::Unknown:
      break; // Inferred from its uses.
    }
  }
  return success();
}

LogicalResult LayoutSolver::visitMatmul(linalg::MatmulOp op) {
  std::optional<MatmulForm> form = getForm(op);
  if (!form)
    return visitStructured(op);
  MatmulLayouts summa = getMatmulLayouts(func.getContext(), gridRef, *form);
  want(*op.getDpsInputOperand(0), summa.lhs);
  want(*op.getDpsInputOperand(1), summa.rhs);
  want(*op.getDpsInitOperand(0), summa.result);
  define(op->getResult(0), summa.result);
  return success();
}

/// The axes that split loop dimensions, outer loops first, with an axis
/// that splits two loops kept on the first.
static void dropRepeatedAxes(
    SmallVector<std::optional<SmallVector<GridAxis>>> &loops,
    ArrayRef<bool> fixed) {
  llvm::SmallSet<GridAxis, 3> seen;
  // Fixed loops (from results) claim their axes first.
  for (int pass = 0; pass < 2; ++pass)
    for (auto [i, loop] : llvm::enumerate(loops)) {
      if (!loop || fixed[i] != (pass == 0))
        continue;
      SmallVector<GridAxis> kept;
      for (GridAxis a : *loop)
        if (seen.insert(a).second)
          kept.push_back(a);
      *loop = kept;
    }
}

LogicalResult LayoutSolver::visitStructured(linalg::LinalgOp op) {
  unsigned numLoops = op.getNumLoops();
  SmallVector<std::optional<SmallVector<GridAxis>>> loops(numLoops);
  SmallVector<bool> fixed(numLoops, false);
  // 1. Results that have a layout fix the splits of their loops.
  for (OpResult res : op->getResults()) {
    LayoutAttr layout = lookup(res);
    if (!layout)
      continue;
    AffineMap map = op.getIndexingMapMatchingResult(res);
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        unsigned d = dim.getPosition();
        if (!loops[d]) {
          loops[d] = layout.getDimSplit(i);
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
    LayoutAttr layout = lookup(operand.get());
    if (!layout)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        unsigned d = dim.getPosition();
        SmallVector<GridAxis> split = layout.getDimSplit(i);
        if (fixed[d])
          continue;
        if (!loops[d] || split.size() > loops[d]->size())
          loops[d] = split;
      }
  }
  // In the resolution phase, a loop that only the results index (a
  // broadcast into a new dimension: repeat_kv, a mask over the batch) and
  // that no use has split yet is not split.
  if (phase == Phase::Resolve) {
    llvm::SmallBitVector read(numLoops);
    for (OpOperand *input : op.getDpsInputOperands())
      if (isa<RankedTensorType>(input->get().getType()))
        for (AffineExpr expr : op.getMatchingIndexingMap(input).getResults())
          if (auto dim = dyn_cast<AffineDimExpr>(expr))
            read.set(dim.getPosition());
    for (unsigned d = 0; d < numLoops; ++d)
      if (!loops[d] && !read.test(d))
        loops[d] = SmallVector<GridAxis>();
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
          loops[d] = SmallVector<GridAxis>();
        seen.set(d);
      }
  }
  // 3. A reduction over split loops is a partial result completed by an
  // all-reduce when its combiner allows; otherwise its reduced loops are
  // not split (the operands are gathered).
  SmallVector<GridAxis> reduceAxes;
  for (auto [i, iter] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iter == utils::IteratorType::reduction && loops[i])
      llvm::append_range(reduceAxes, *loops[i]);
  partials.erase(op);
  if (!reduceAxes.empty() && !recordPartialReduction(op, reduceAxes))
    for (auto [i, iter] : llvm::enumerate(op.getIteratorTypesArray()))
      if (iter == utils::IteratorType::reduction && loops[i])
        loops[i] = SmallVector<GridAxis>();
  // A tensor read inside the body (an embedding table or the logits read
  // with tensor.extract at computed indices) is whole on every rank: the
  // indices are global (summa-partition makes linalg.index global).
  op->walk([&](Operation *inner) {
    if (inner == op.getOperation())
      return;
    for (OpOperand &use : inner->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(use.get().getType());
      if (type && !op->isProperAncestor(use.get().getParentBlock()->getParentOp()) &&
          use.get().getParentRegion() != &op->getRegion(0))
        want(use, make(DimSplits(type.getRank())));
    }
  });
  // 4. Every operand and result whose loops are all known gets its layout.
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
    FailureOr<LayoutAttr> layout = makeChecked(*splits, op, operand.get());
    if (failed(layout))
      return failure();
    want(operand, *layout);
  }
  for (OpResult res : op->getResults()) {
    std::optional<DimSplits> splits =
        splitsFor(op.getIndexingMapMatchingResult(res));
    if (!splits)
      continue;
    FailureOr<LayoutAttr> layout = makeChecked(*splits, op, res);
    if (failed(layout))
      return failure();
    define(res, *layout);
  }
  return success();
}

/// True if `value` is `linalg.fill` of the identity of `kind`.
static bool isIdentityFill(Value value, ReductionKind kind) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return false;
  FloatAttr cst;
  if (!matchPattern(fill.getInputs()[0], m_Constant(&cst)))
    return false;
  APFloat v = cst.getValue();
  switch (kind) {
  case ReductionKind::sum:
    return v.isZero();
  case ReductionKind::prod:
    return v.isExactlyValue(1.0);
  case ReductionKind::max:
    return v.isInfinity() ? v.isNegative() : (v.isLargest() && v.isNegative());
  case ReductionKind::min:
    return v.isInfinity() ? !v.isNegative()
                          : (v.isLargest() && !v.isNegative());
  }
  return false;
}

bool LayoutSolver::recordPartialReduction(linalg::LinalgOp op,
                                          SmallVector<GridAxis> axes) {
  llvm::sort(axes, [](GridAxis a, GridAxis b) {
    // The order of world ranks: depth, row, col.
    auto rank = [](GridAxis x) { return (static_cast<int>(x) + 1) % 3; };
    return rank(a) < rank(b);
  });
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
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

LogicalResult LayoutSolver::visitReshape(Operation *op, OpOperand &input,
                                         OpResult output,
                                         ArrayRef<ReassociationIndices> groups,
                                         bool inputIsCollapsed) {
  auto expandedType = cast<RankedTensorType>(
      (inputIsCollapsed ? output : input.get()).getType());
  // A group's split lives on its leading dimension of size > 1 (a unit
  // dimension is never split): tokens [b*s] -> [b, s] split the batch,
  // hidden [h] -> [heads, d] the heads, a bias [h] -> [1, h] the h.
  auto lead = [&](const ReassociationIndices &group) {
    for (int64_t d : group)
      if (expandedType.getDimSize(d) != 1)
        return d;
    return group.front();
  };
  auto expand = [&](LayoutAttr collapsed) {
    DimSplits splits(expandedType.getRank());
    for (auto [g, group] : llvm::enumerate(groups))
      splits[lead(group)] = collapsed.getDimSplit(g);
    return make(splits);
  };
  // The collapsed side of an expanded layout whose other dimensions are
  // unsplit.
  auto collapse = [&](LayoutAttr expanded) {
    DimSplits splits;
    for (const ReassociationIndices &group : groups)
      splits.push_back(expanded.getDimSplit(lead(group)));
    return make(splits);
  };
  // The expanded layout with only the leading dimension of every group
  // split (the only one that keeps a block layout).
  auto outerOnly = [&](LayoutAttr expanded) {
    DimSplits splits = splitsOf(expanded);
    for (const ReassociationIndices &group : groups)
      for (int64_t d : group)
        if (d != lead(group))
          splits[d].clear();
    return make(splits);
  };
  LayoutAttr in = lookup(input.get());
  if (in) {
    if (inputIsCollapsed) {
      define(output, expand(in));
    } else {
      LayoutAttr fixedIn = outerOnly(in);
      want(input, fixedIn);
      define(output, collapse(fixedIn));
    }
    return success();
  }
  if (LayoutAttr out = lookup(output)) {
    if (inputIsCollapsed) {
      LayoutAttr fixedOut = outerOnly(out);
      want(input, collapse(fixedOut));
      define(output, fixedOut);
    } else {
      want(input, expand(out));
    }
  }
  return success();
}

LogicalResult LayoutSolver::visitSoftmax(linalg::SoftmaxOp op) {
  LayoutAttr layout = lookup(op.getInput());
  if (!layout)
    layout = lookup(op.getResult()[0]);
  if (!layout)
    return success();
  // The normalised dimension is taken whole on every rank.
  DimSplits splits = splitsOf(layout);
  splits[op.getDimension()].clear();
  LayoutAttr whole = make(splits);
  want(op->getOpOperand(0), whole);
  want(op->getOpOperand(1), whole);
  define(op->getResult(0), whole);
  return success();
}

/// Static offsets and sizes, unit strides: the slices summa lays out.
template <typename SliceOp>
static LogicalResult checkStaticSlice(SliceOp op, StringRef name) {
  if (!op.hasUnitStride() || ShapedType::isDynamicShape(op.getStaticSizes()) ||
      ShapedType::isDynamicShape(op.getStaticOffsets()))
    return op.emitError() << name
                          << ": only static, unit-stride slices are "
                             "supported (this one has dynamic offsets, sizes "
                             "or a stride other than 1)";
  return success();
}

LogicalResult LayoutSolver::visitExtractSlice(tensor::ExtractSliceOp op) {
  if (failed(checkStaticSlice(op, "tensor.extract_slice")))
    return failure();
  RankedTensorType source = op.getSourceType();
  llvm::SmallBitVector dropped = op.getDroppedDims();
  // Source dimension d of the result's dimension, for kept dimensions.
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < source.getRank(); ++d)
    if (!dropped.test(d))
      kept.push_back(d);
  auto partial = [&](int64_t d) {
    return op.getStaticOffsets()[d] != 0 ||
           op.getStaticSizes()[d] != source.getDimSize(d);
  };
  DimSplits splits(source.getRank());
  if (LayoutAttr in = lookup(op.getSource())) {
    splits = splitsOf(in);
  } else if (LayoutAttr out = lookup(op.getResult())) {
    for (auto [r, d] : llvm::enumerate(kept))
      splits[d] = out.getDimSplit(r);
  } else {
    return success();
  }
  // A dimension the slice does not take whole is not split: each rank then
  // holds the slice's part of every tile it needs.
  for (int64_t d = 0; d < source.getRank(); ++d)
    if (partial(d) || dropped.test(d))
      splits[d].clear();
  DimSplits resultSplits;
  for (int64_t d : kept)
    resultSplits.push_back(splits[d]);
  want(op.getSourceMutable(), make(splits));
  define(op->getResult(0), make(resultSplits));
  return success();
}

LogicalResult LayoutSolver::visitInsertSlice(tensor::InsertSliceOp op) {
  if (failed(checkStaticSlice(op, "tensor.insert_slice")))
    return failure();
  RankedTensorType dest = op.getDestType();
  if (op.getSourceType().getRank() != dest.getRank())
    return op.emitError() << "tensor.insert_slice: only slices of the "
                             "destination's rank are supported";
  LayoutAttr layout = lookup(op.getDest());
  if (!layout)
    layout = lookup(op.getResult());
  if (!layout)
    layout = lookup(op.getSource());
  if (!layout)
    return success();
  DimSplits splits = splitsOf(layout);
  for (int64_t d = 0; d < dest.getRank(); ++d)
    if (op.getStaticOffsets()[d] != 0 ||
        op.getStaticSizes()[d] != dest.getDimSize(d))
      splits[d].clear();
  LayoutAttr whole = make(splits);
  want(op.getSourceMutable(), whole);
  want(op.getDestMutable(), whole);
  define(op->getResult(0), whole);
  return success();
}

LogicalResult LayoutSolver::visitConcat(tensor::ConcatOp op) {
  LayoutAttr layout = lookup(op.getResult());
  for (Value input : op.getInputs())
    if (!layout)
      layout = lookup(input);
  if (!layout)
    return success();
  DimSplits splits = splitsOf(layout);
  splits[op.getDim()].clear();
  LayoutAttr whole = make(splits);
  for (OpOperand &input : op->getOpOperands())
    want(input, whole);
  define(op->getResult(0), whole);
  return success();
}

LogicalResult LayoutSolver::visitPad(tensor::PadOp op) {
  LayoutAttr layout = lookup(op.getSource());
  if (!layout)
    layout = lookup(op.getResult());
  if (!layout)
    return success();
  if (ShapedType::isDynamicShape(op.getStaticLow()) ||
      ShapedType::isDynamicShape(op.getStaticHigh()))
    return op.emitError() << "tensor.pad: only static padding is supported";
  DimSplits splits = splitsOf(layout);
  for (unsigned d = 0; d < splits.size(); ++d)
    if (op.getStaticLow()[d] != 0 || op.getStaticHigh()[d] != 0)
      splits[d].clear();
  LayoutAttr padded = make(splits);
  want(op.getSourceMutable(), padded);
  define(op->getResult(0), padded);
  return success();
}

LogicalResult LayoutSolver::visit(Operation *op) {
  if (phase == Phase::Contractions) {
    if (auto mm = dyn_cast<linalg::MatmulOp>(op))
      return visitMatmul(mm);
    return success();
  }
  if (auto mm = dyn_cast<linalg::MatmulOp>(op))
    return visitMatmul(mm);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return visitReshape(op, expand.getSrcMutable(), expand->getResult(0),
                        expand.getReassociationIndices(),
                        /*inputIsCollapsed=*/true);
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return visitReshape(op, collapse.getSrcMutable(), collapse->getResult(0),
                        collapse.getReassociationIndices(),
                        /*inputIsCollapsed=*/false);
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return visitSoftmax(softmax);
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return visitExtractSlice(slice);
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    return visitInsertSlice(insert);
  if (auto concat = dyn_cast<tensor::ConcatOp>(op))
    return visitConcat(concat);
  if (auto pad = dyn_cast<tensor::PadOp>(op))
    return visitPad(pad);
  // A scalar read at given indices: the tensor is whole on every rank.
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    want(extract.getTensorMutable(),
         make(DimSplits(extract.getTensor().getType().getRank())));
    return success();
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitStructured(linalgOp);
  // Its result's layout is given; its input keeps its own.
  if (isa<RelayoutOp, func::ReturnOp>(op))
    return success();
  // tensor.empty and constants take the layout their users give them.
  if (isa<tensor::EmptyOp, arith::ConstantOp>(op))
    return success();
  bool touchesTensors =
      llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>) ||
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>);
  if (!touchesTensors)
    return success();
  return op->emitError() << "'" << op->getName()
                         << "' is not supported by summa (no layout rule)";
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
  if (failed(seedArguments()) || failed(propagate(Phase::Contractions)) ||
      failed(propagate(Phase::Propagate)))
    return failure();
  for (BlockArgument arg : defaultActivations)
    if (!lookup(arg)) {
      auto type = cast<RankedTensorType>(arg.getType());
      layouts[arg] = fit(make(activationSplits(type.getRank())), type);
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
  return checkAndWrite();
}
/// Why `type` laid out by `layout` does not divide on `gridShape`, or
/// std::nullopt if it does.
static std::optional<std::string> whyIndivisible(Type type, LayoutAttr layout,
                                                 ArrayRef<int64_t> gridShape) {
  auto shaped = cast<RankedTensorType>(type);
  std::string msg;
  llvm::raw_string_ostream os(msg);
  for (int64_t d = 0; d < shaped.getRank(); ++d) {
    SmallVector<GridAxis> split = layout.getDimSplit(d);
    int64_t factor = 1;
    for (GridAxis a : split)
      factor *= gridShape[static_cast<int>(a)];
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
    if (size % factor != 0) {
      os << "dimension " << d << " of size " << size << " ('" << type
         << "') is split over " << formatAxes(split) << " into " << factor
         << " blocks on grid [" << gridShape[0] << ", " << gridShape[1]
         << ", " << gridShape[2] << "] and is not divisible by " << factor;
      return msg;
    }
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
    SmallVector<int32_t> axes;
    for (GridAxis a : partial.axes)
      axes.push_back(static_cast<int32_t>(a));
    SmallVector<Attribute> kinds;
    for (ReductionKind k : partial.kinds)
      kinds.push_back(StringAttr::get(ctx, stringifyReductionKind(k)));
    op->setAttr(kReduceAxesAttrName, DenseI32ArrayAttr::get(ctx, axes));
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
  auto existing = dyn_cast_or_null<GridOp>(
      SymbolTable::lookupSymbolIn(module, gridName));
  if (grid.empty()) {
    if (!existing)
      module.emitError() << "summa-assign-layouts needs a grid: pass "
                            "grid=q,q,d or declare summa.grid @"
                         << gridName;
    return existing;
  }
  if (grid.size() != 3 || grid[0] != grid[1] ||
      llvm::any_of(grid, [](int64_t s) { return s <= 0; })) {
    auto diag = module.emitError() << "invalid grid [";
    llvm::interleaveComma(grid, diag);
    diag << "]: expected q,q,d with q >= 1 and d >= 1";
    return {};
  }
  int64_t ranks = 1;
  for (int64_t s : grid)
    if (llvm::MulOverflow(ranks, s, ranks) || ranks > INT32_MAX) {
      auto diag = module.emitError() << "invalid grid [";
      llvm::interleaveComma(grid, diag);
      diag << "]: more than " << INT32_MAX
           << " ranks (the most MPI can address)";
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
  GridOp gridOp = getOrCreateGrid();
  if (!gridOp)
    return signalPassFailure();
  for (auto func : getOperation().getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
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
