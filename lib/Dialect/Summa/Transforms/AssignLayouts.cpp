//===- AssignLayouts.cpp - give every value a 2.5D layout -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-assign-layouts: seeds the layouts of function arguments
// from their role, then propagates layouts through linalg structured ops by
// their indexing maps until nothing changes, and checks that the grid
// divides every split dimension.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinOps.h"

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

/// The propagation state of one function.
class LayoutSolver {
public:
  LayoutSolver(func::FuncOp func, GridOp grid)
      : func(func), grid(grid),
        gridRef(FlatSymbolRefAttr::get(grid.getSymNameAttr())) {}

  LogicalResult run();

private:
  LayoutAttr make(const DimSplits &splits) {
    return LayoutAttr::get(func.getContext(), gridRef, splits);
  }
  LayoutAttr lookup(Value v) const { return layouts.lookup(v); }
  /// Records `layout` for `v`; reports a conflict at `where`.
  LogicalResult assign(Value v, LayoutAttr layout, Operation *where);
  LogicalResult seedArguments();
  LogicalResult visit(Operation *op);
  LogicalResult visitMatmul(linalg::MatmulOp op);
  LogicalResult visitStructured(linalg::LinalgOp op);
  LogicalResult checkAndWrite();

  func::FuncOp func;
  GridOp grid;
  FlatSymbolRefAttr gridRef;
  DenseMap<Value, LayoutAttr> layouts;
  bool changed = false;
};

} // namespace

LogicalResult LayoutSolver::assign(Value v, LayoutAttr layout,
                                   Operation *where) {
  LayoutAttr old = lookup(v);
  if (old == layout)
    return success();
  if (old)
    return where->emitError()
           << "conflicting layouts for a value of type " << v.getType()
           << ": " << old << " and " << layout;
  layouts[v] = layout;
  changed = true;
  return success();
}

static Role parseRole(StringRef s) {
  return llvm::StringSwitch<Role>(s)
      .Case("activation", Role::Activation)
      .Case("weight", Role::Weight)
      .Case("bias", Role::Bias)
      .Case("replicated", Role::Replicated)
      .Default(Role::Unknown);
}

LogicalResult LayoutSolver::seedArguments() {
  // Arguments used as the rhs of a matmul are weights by default.
  llvm::SmallPtrSet<Value, 8> rhsOfMatmul;
  func.walk([&](linalg::MatmulOp mm) {
    rhsOfMatmul.insert(mm.getDpsInputOperand(1)->get());
  });
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type)
      return emitError(arg.getLoc()) << "argument " << arg.getArgNumber()
                                     << " has type " << arg.getType()
                              << "; summa needs ranked tensors";
    Role role = Role::Unknown;
    if (auto attr = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                      kRoleAttrName)) {
      role = parseRole(attr.getValue());
      if (role == Role::Unknown)
        return emitError(arg.getLoc())
               << "argument " << arg.getArgNumber() << " has unknown "
               << kRoleAttrName << " \"" << attr.getValue()
               << "\" (expected activation, weight, bias or replicated)";
    } else if (type.getRank() == 2) {
      role = rhsOfMatmul.contains(arg) ? Role::Weight : Role::Activation;
    }
    int64_t rank = type.getRank();
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
      layouts[arg] = make(activationSplits(rank));
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
  if (op.hasUserDefinedMaps())
    return op.emitError()
           << "linalg.matmul with user-defined indexing maps (a transposed "
              "operand) is not supported yet";
  Value a = op.getDpsInputOperand(0)->get();
  Value b = op.getDpsInputOperand(1)->get();
  LayoutAttr la = lookup(a), lb = lookup(b);
  LayoutAttr act = make(activationSplits(2));
  LayoutAttr weight = make({{GridAxis::row}, {GridAxis::col}});
  if (la && la != act)
    return op.emitError() << "linalg.matmul: the lhs must be an activation "
                          << act << ", got " << la;
  if (lb && lb != weight)
    return op.emitError() << "linalg.matmul: the rhs must be a weight "
                          << weight << ", got " << lb;
  if (failed(assign(a, act, op)) || failed(assign(b, weight, op)) ||
      failed(assign(op.getDpsInitOperand(0)->get(), act, op)) ||
      failed(assign(op->getResult(0), act, op)))
    return failure();
  return success();
}

LogicalResult LayoutSolver::visitStructured(linalg::LinalgOp op) {
  // Split of every loop dimension, from every operand that has a layout.
  SmallVector<std::optional<SmallVector<GridAxis>>> loops(op.getNumLoops());
  auto operandValues = [&](unsigned i) -> SmallVector<Value, 2> {
    OpOperand &operand = op->getOpOperand(i);
    SmallVector<Value, 2> vals{operand.get()};
    if (op.isDpsInit(&operand))
      vals.push_back(op.getTiedOpResult(&operand));
    return vals;
  };
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (Value v : operandValues(operand.getOperandNumber())) {
      LayoutAttr layout = lookup(v);
      if (!layout)
        continue;
      for (auto [i, expr] : llvm::enumerate(map.getResults())) {
        auto dim = dyn_cast<AffineDimExpr>(expr);
        SmallVector<GridAxis> split = layout.getDimSplit(i);
        if (!dim) {
          if (!split.empty())
            return op.emitError()
                   << "dimension " << i << " of operand "
                   << operand.getOperandNumber()
                   << " is split but its indexing expression is not a "
                      "loop dimension";
          continue;
        }
        auto &slot = loops[dim.getPosition()];
        if (slot && *slot != split)
          return op.emitError()
                 << "loop dimension d" << dim.getPosition()
                 << " is split over " << formatAxes(*slot)
                 << " by one operand and over " << formatAxes(split)
                 << " by operand " << operand.getOperandNumber();
        slot = split;
      }
    }
  }
  // Reductions over a split dimension need a partial result and an
  // all-reduce, which summa-partition does not emit yet.
  for (auto [i, iter] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iter == utils::IteratorType::reduction && loops[i] &&
        !loops[i]->empty())
      return op.emitError()
             << "reduction over loop dimension d" << i
             << ", which is split over " << formatAxes(*loops[i])
             << ", is not supported yet";
  // Give every tensor operand and result whose loop splits are all known
  // its layout.
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    DimSplits splits;
    bool known = true;
    for (AffineExpr expr : map.getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        if (!loops[dim.getPosition()]) {
          known = false;
          break;
        }
        splits.push_back(*loops[dim.getPosition()]);
      } else {
        splits.push_back({});
      }
    }
    if (!known)
      continue;
    for (Value v : operandValues(operand.getOperandNumber()))
      if (failed(assign(v, make(splits), op)))
        return failure();
  }
  return success();
}

LogicalResult LayoutSolver::visit(Operation *op) {
  if (auto mm = dyn_cast<linalg::MatmulOp>(op))
    return visitMatmul(mm);
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitStructured(linalgOp);
  if (auto ret = dyn_cast<func::ReturnOp>(op))
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

LogicalResult LayoutSolver::run() {
  if (failed(seedArguments()))
    return failure();
  for (int iter = 0;; ++iter) {
    changed = false;
    for (Operation &op : func.getBody().front())
      if (failed(visit(&op)))
        return failure();
    if (!changed)
      break;
    if (iter > 1000)
      return func.emitError() << "layout propagation did not converge";
  }
  return checkAndWrite();
}

/// Reports a dimension the grid cannot divide.
static LogicalResult checkDivisible(Location loc, Type type, LayoutAttr layout,
                                    GridOp grid, StringRef what) {
  auto shaped = cast<RankedTensorType>(type);
  for (int64_t d = 0; d < shaped.getRank(); ++d) {
    SmallVector<GridAxis> split = layout.getDimSplit(d);
    int64_t factor = getSplitFactor(grid, split);
    int64_t size = shaped.getDimSize(d);
    if (ShapedType::isDynamic(size))
      return emitError(loc) << what << ": dimension " << d << " of " << type
                            << " is dynamic; summa needs static shapes";
    if (size % factor != 0) {
      ArrayRef<int64_t> g = grid.getShape();
      return emitError(loc)
             << what << ": dimension " << d << " of size " << size << " ("
             << type << ") is split over " << formatAxes(split) << " into "
             << factor << " blocks on grid [" << g[0] << ", " << g[1] << ", "
             << g[2] << "] and is not divisible by " << factor;
    }
  }
  return success();
}

LogicalResult LayoutSolver::checkAndWrite() {
  MLIRContext *ctx = func.getContext();
  for (BlockArgument arg : func.getArguments()) {
    LayoutAttr layout = lookup(arg);
    std::string what = ("argument " + Twine(arg.getArgNumber())).str();
    if (!layout)
      return emitError(arg.getLoc())
             << what << " (" << arg.getType()
             << ") gets no layout from its uses; give it a " << kRoleAttrName
             << " attribute";
    if (failed(checkDivisible(arg.getLoc(), arg.getType(), layout, grid,
                              what)))
      return failure();
    func.setArgAttr(arg.getArgNumber(), kLayoutAttrName, layout);
  }
  WalkResult walk = func.walk([&](Operation *op) -> WalkResult {
    if (op->getNumResults() == 0 ||
        !llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>))
      return WalkResult::advance();
    SmallVector<Attribute> attrs;
    for (OpResult res : op->getResults()) {
      LayoutAttr layout = lookup(res);
      if (!layout)
        return op->emitError() << "result " << res.getResultNumber()
                               << " gets no layout (it is not used by an op "
                                  "that fixes one)",
               WalkResult::interrupt();
      std::string what = ("result " + Twine(res.getResultNumber())).str();
      if (failed(checkDivisible(op->getLoc(), res.getType(), layout, grid,
                                what)))
        return WalkResult::interrupt();
      attrs.push_back(layout);
    }
    op->setAttr(kLayoutsAttrName, ArrayAttr::get(ctx, attrs));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
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
