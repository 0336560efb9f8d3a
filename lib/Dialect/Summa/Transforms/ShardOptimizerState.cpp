//===- ShardOptimizerState.cpp - optimizer state split over depth -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-shard-optimizer-state (ZeRO stage 1 along the depth
// axis): on laid-out IR, every optimizer update (an elementwise
// linalg.generic that reads an argument of role "state") and its state take
// the parameter's layout with depth added to one dimension. The update
// reads depth slices of the parameter and the gradient; the new parameter
// is redistributed back to its own layout (an all-gather over depth); a sum
// of every element of the gradient (clipping's norm) reads the slice too,
// with depth added to its partial-sum axes, so that summa-partition can
// turn the gradient's depth sum into a reduce-scatter.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Analysis/Reductions.h"
#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/Support/Functions.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMASHARDOPTIMIZERSTATE
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// The laid-out function the pass rewrites: the layouts of its values, as
/// summa-assign-layouts wrote them.
class StateSharder {
public:
  explicit StateSharder(func::FuncOp func) : func(func) {}
  void run();

private:
  LayoutAttr layoutOf(Value v);
  void setLayout(Operation *op, LayoutAttr layout);
  /// The layout the state of an update laid out as `layout` takes: `depth`
  /// added inside the split of the first dimension whose blocks the grid's
  /// depth divides; null if none does.
  LayoutAttr withDepth(LayoutAttr layout, RankedTensorType type);
  /// `v` redistributed to `layout` before `user` (one per value and layout).
  Value relayout(Value v, LayoutAttr layout, Operation *user);
  /// Whether `op` is an update this pass splits: an elementwise generic
  /// over tensors of one shape (and 0-d scalars) reading a state argument
  /// that nothing else reads.
  bool isUpdate(linalg::GenericOp op);
  /// Whether `op` sums every element of its one input into a 0-d result
  /// (a partial sum over any layout of the input is completed by adding
  /// the layout's axes to its all-reduce).
  static bool isTotalSum(linalg::GenericOp op);
  void shard(linalg::GenericOp op);

  func::FuncOp func;
  GridOp grid;
  DenseMap<std::pair<Value, LayoutAttr>, Value> relayouts;
};

} // namespace

LayoutAttr StateSharder::layoutOf(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return func.getArgAttrOfType<LayoutAttr>(arg.getArgNumber(),
                                             kLayoutAttrName);
  auto res = cast<OpResult>(v);
  auto attrs = res.getOwner()->getAttrOfType<ArrayAttr>(kLayoutsAttrName);
  if (!attrs || attrs.size() <= res.getResultNumber())
    return {};
  return dyn_cast<LayoutAttr>(attrs[res.getResultNumber()]);
}

void StateSharder::setLayout(Operation *op, LayoutAttr layout) {
  SmallVector<Attribute> attrs(op->getNumResults(), layout);
  op->setAttr(kLayoutsAttrName, ArrayAttr::get(func.getContext(), attrs));
}

LayoutAttr StateSharder::withDepth(LayoutAttr layout, RankedTensorType type) {
  int64_t depth = grid.getD();
  SmallVector<DimLayout> dims(layout.getDims());
  for (auto [d, split] : llvm::enumerate(dims)) {
    if (split.groups != 1 || llvm::is_contained(split.axes, GridAxis::depth))
      continue;
    int64_t size = type.getDimSize(d);
    int64_t outer = getSplitFactor(grid, split.axes);
    auto block = static_cast<int64_t>(llvm::divideCeil(size, outer));
    auto inner = static_cast<int64_t>(llvm::divideCeil(size, outer * depth));
    // Each rank's block holds exactly `depth` blocks of the new split (no
    // padding of its own inside a block the layout does not pad).
    if (block % depth != 0 || block != depth * inner)
      continue;
    split.axes.push_back(GridAxis::depth);
    return LayoutAttr::get(func.getContext(), layout.getGrid(), dims);
  }
  return {};
}

Value StateSharder::relayout(Value v, LayoutAttr layout, Operation *user) {
  auto key = std::make_pair(v, layout);
  if (Value earlier = relayouts.lookup(key)) {
    Operation *def = earlier.getDefiningOp();
    if (def->getBlock() == user->getBlock() && def->isBeforeInBlock(user))
      return earlier;
  }
  // A computed value is redistributed where it is defined (every reader
  // can take it there), an argument where it is read.
  OpBuilder b(user);
  if (Operation *def = v.getDefiningOp())
    b.setInsertionPointAfter(def);
  auto op = RelayoutOp::create(b, user->getLoc(), v.getType(), v, layout);
  setLayout(op, layout);
  relayouts[key] = op.getResult();
  return op.getResult();
}

bool StateSharder::isUpdate(linalg::GenericOp op) {
  if (op.getNumResults() == 0 ||
      llvm::any_of(op.getIteratorTypesArray(), [](utils::IteratorType t) {
        return t != utils::IteratorType::parallel;
      }))
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || type.getRank() == 0)
    return false;
  bool readsState = false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto t = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!t)
      return false;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (t.getRank() == 0)
      continue;
    if (t.getShape() != type.getShape() || !map.isIdentity())
      return false;
    auto arg = dyn_cast<BlockArgument>(operand.get());
    if (!arg || arg.getOwner()->getParentOp() != func.getOperation())
      continue;
    if (getArgumentRole(func, arg.getArgNumber()) != ArgumentRole::State)
      continue;
    if (!arg.hasOneUse())
      return false;
    readsState = true;
  }
  return readsState;
}

bool StateSharder::isTotalSum(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumResults() != 1)
    return false;
  auto out = cast<RankedTensorType>(op->getResult(0).getType());
  if (out.getRank() != 0 ||
      llvm::any_of(op.getIteratorTypesArray(), [](utils::IteratorType t) {
        return t != utils::IteratorType::reduction;
      }))
    return false;
  OpOperand *init = op.getDpsInitOperand(0);
  std::optional<ReductionKind> kind =
      getCombinerKind(op.getMatchingBlockArgument(init), 0);
  return kind == ReductionKind::sum;
}

void StateSharder::shard(linalg::GenericOp op) {
  LayoutAttr layout = layoutOf(op->getResult(0));
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  if (!layout || llvm::any_of(op->getResults(),
                              [&](Value r) { return layoutOf(r) != layout; }))
    return;
  LayoutAttr split = withDepth(layout, type);
  if (!split)
    return;
  MLIRContext *ctx = func.getContext();
  // The operands: the state takes the split layout; every other tensor of
  // the parameter's shape is read as its slice.
  SmallVector<Value> sliced;
  for (OpOperand &operand : op->getOpOperands()) {
    auto t = cast<RankedTensorType>(operand.get().getType());
    if (t.getRank() == 0)
      continue;
    auto arg = dyn_cast<BlockArgument>(operand.get());
    if (arg && arg.getOwner()->getParentOp() == func.getOperation() &&
        getArgumentRole(func, arg.getArgNumber()) == ArgumentRole::State) {
      func.setArgAttr(arg.getArgNumber(), kLayoutAttrName, split);
      continue;
    }
    Operation *def = operand.get().getDefiningOp();
    if (op.isDpsInit(&operand) && isa_and_nonnull<tensor::EmptyOp>(def) &&
        def->hasOneUse()) {
      setLayout(def, split);
      continue;
    }
    if (!op.isDpsInit(&operand) && !isa<BlockArgument>(operand.get()))
      sliced.push_back(operand.get());
    operand.set(relayout(operand.get(), split, op));
  }
  setLayout(op, split);
  // The results: a state's is returned in its argument's (split) layout;
  // every other use reads the result in the update's original layout.
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (OpResult res : op->getResults()) {
    for (OpOperand &use : llvm::make_early_inc_range(res.getUses())) {
      if (use.getOwner() == ret) {
        unsigned i = use.getOperandNumber();
        if (BlockArgument updated = getUpdatedArgument(func, i)) {
          LayoutAttr argLayout = func.getArgAttrOfType<LayoutAttr>(
              updated.getArgNumber(), kLayoutAttrName);
          if (argLayout == split) {
            func.setResultAttr(i, kLayoutAttrName, split);
            continue;
          }
        }
        auto want = func.getResultAttrOfType<LayoutAttr>(i, kLayoutAttrName);
        use.set(relayout(res, want ? want : layout, ret));
        continue;
      }
      use.set(relayout(res, layout, use.getOwner()));
    }
  }
  // The gradient's total sums (clipping's norm) read its slice too.
  for (Value grad : sliced) {
    Value slice = relayouts.lookup({grad, split});
    for (OpOperand &use : llvm::make_early_inc_range(grad.getUses())) {
      auto sum = dyn_cast<linalg::GenericOp>(use.getOwner());
      if (!sum || !isTotalSum(sum) || !sum.isDpsInput(&use) ||
          sum->getBlock() != slice.getDefiningOp()->getBlock() ||
          !slice.getDefiningOp()->isBeforeInBlock(sum))
        continue;
      use.set(slice);
      SmallVector<int32_t> axes;
      if (auto have =
              sum->getAttrOfType<DenseI32ArrayAttr>(kReduceAxesAttrName))
        axes.assign(have.asArrayRef().begin(), have.asArrayRef().end());
      auto depth = static_cast<int32_t>(GridAxis::depth);
      if (!llvm::is_contained(axes, depth))
        axes.insert(axes.begin(), depth); // world order: depth, row, col
      sum->setAttr(kReduceAxesAttrName, DenseI32ArrayAttr::get(ctx, axes));
      sum->setAttr(kReduceKindsAttrName,
                   ArrayAttr::get(
                       ctx, {ReductionKindAttr::get(ctx, ReductionKind::sum)}));
    }
  }
}

void StateSharder::run() {
  for (BlockArgument arg : func.getArguments())
    if (auto layout = func.getArgAttrOfType<LayoutAttr>(arg.getArgNumber(),
                                                        kLayoutAttrName)) {
      grid = lookupGrid(func, layout.getGrid());
      break;
    }
  if (!grid || grid.getD() == 1)
    return;
  SmallVector<linalg::GenericOp> updates;
  for (Operation &op : func.getBody().front())
    if (auto generic = dyn_cast<linalg::GenericOp>(op);
        generic && isUpdate(generic))
      updates.push_back(generic);
  for (linalg::GenericOp op : updates)
    shard(op);
}

namespace {
struct SummaShardOptimizerStatePass
    : summa::impl::SummaShardOptimizerStateBase<SummaShardOptimizerStatePass> {
  using Base::Base;
  void runOnOperation() override {
    for (func::FuncOp func : definedFunctions(getOperation()))
      StateSharder(func).run();
  }
};
} // namespace
