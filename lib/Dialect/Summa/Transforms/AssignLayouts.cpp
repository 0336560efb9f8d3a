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

#include "Reductions.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
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
  /// The layout of `splits` derived from operand `operand` of `op`, or a
  /// diagnostic at `op` when no layout can express them (an indexing map
  /// that repeats a split loop dimension would split two dimensions over
  /// one grid axis). LayoutAttr::get asserts on such splits.
  FailureOr<LayoutAttr> makeChecked(const DimSplits &splits, Operation *op,
                                    OpOperand &operand) {
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
          return op->emitError()
                 << "operand #" << operand.getOperandNumber() << " ("
                 << operand.get().getType() << ") cannot be laid out: ";
        },
        ctx, gridRef, ArrayAttr::get(ctx, dims));
    if (!layout)
      return failure();
    return layout;
  }
  LayoutAttr lookup(Value v) const { return layouts.lookup(v); }
  /// Records `layout` for `v`; reports a conflict at `where`.
  LogicalResult assign(Value v, LayoutAttr layout, Operation *where);
  LogicalResult seedArguments();
  LogicalResult visit(Operation *op);
  LogicalResult visitMatmul(linalg::MatmulOp op);
  LogicalResult visitStructured(linalg::LinalgOp op);
  LogicalResult visitExpand(tensor::ExpandShapeOp op);
  LogicalResult visitCollapse(tensor::CollapseShapeOp op);
  LogicalResult visitSoftmax(linalg::SoftmaxOp op);
  LogicalResult visitExtractSlice(tensor::ExtractSliceOp op);
  LogicalResult recordPartialReduction(linalg::LinalgOp op,
                                       SmallVector<GridAxis> axes);
  /// Layout of the reassociated side of a reshape: `groups[g]` lists the
  /// expanded dims of collapsed dim g; the split of a collapsed dim lives on
  /// the outermost expanded dim of its group.
  LogicalResult propagateReshape(Operation *op, Value collapsed,
                                 Value expanded,
                                 ArrayRef<ReassociationIndices> groups);
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

LogicalResult LayoutSolver::seedArguments() {
  // Arguments used as the rhs of a matmul are weights by default.
  llvm::SmallPtrSet<Value, 8> rhsOfMatmul;
  func.walk([&](linalg::MatmulOp mm) {
    if (getForm(mm) != MatmulForm::atb)
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
  std::optional<MatmulForm> form = getForm(op);
  if (!form)
    return op.emitError()
           << "linalg.matmul with these indexing maps is not a 2.5D product "
              "(supported: A·B, A·Bᵀ and Aᵀ·B)";
  Value a = op.getDpsInputOperand(0)->get();
  Value b = op.getDpsInputOperand(1)->get();
  LayoutAttr act = make(activationSplits(2));
  LayoutAttr weight = make({{GridAxis::row}, {GridAxis::col}});
  // ab: activation · weight -> activation (forward);
  // abt: activation · weightᵀ -> activation (gradient of the input);
  // atb: activationᵀ · activation -> weight (gradient of the weight).
  LayoutAttr wantA = act;
  LayoutAttr wantB = *form == MatmulForm::atb ? act : weight;
  LayoutAttr result = *form == MatmulForm::atb ? weight : act;
  auto describe = [&](LayoutAttr l) {
    return l == act ? "an activation " : "a weight ";
  };
  if (LayoutAttr la = lookup(a); la && la != wantA)
    return op.emitError() << "linalg.matmul (" << stringifyMatmulForm(*form)
                          << "): the lhs must be " << describe(wantA) << wantA
                          << ", got " << la;
  if (LayoutAttr lb = lookup(b); lb && lb != wantB)
    return op.emitError() << "linalg.matmul (" << stringifyMatmulForm(*form)
                          << "): the rhs must be " << describe(wantB) << wantB
                          << ", got " << lb;
  if (failed(assign(a, wantA, op)) || failed(assign(b, wantB, op)) ||
      failed(assign(op.getDpsInitOperand(0)->get(), result, op)) ||
      failed(assign(op->getResult(0), result, op)))
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
  // A reduction over split loop dimensions computes a partial result per
  // rank; summa-partition completes it with an all-reduce over those axes.
  SmallVector<GridAxis> reduceAxes;
  for (auto [i, iter] : llvm::enumerate(op.getIteratorTypesArray()))
    if (iter == utils::IteratorType::reduction && loops[i])
      llvm::append_range(reduceAxes, *loops[i]);
  if (!reduceAxes.empty() && failed(recordPartialReduction(op, reduceAxes)))
    return failure();
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
    FailureOr<LayoutAttr> layout = makeChecked(splits, op, operand);
    if (failed(layout))
      return failure();
    for (Value v : operandValues(operand.getOperandNumber()))
      if (failed(assign(v, *layout, op)))
        return failure();
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

static StringRef identityName(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::sum:
    return "0";
  case ReductionKind::prod:
    return "1";
  case ReductionKind::max:
    return "-inf";
  case ReductionKind::min:
    return "+inf";
  }
  return "";
}

LogicalResult
LayoutSolver::recordPartialReduction(linalg::LinalgOp op,
                                     SmallVector<GridAxis> axes) {
  if (partials.count(op))
    return success();
  llvm::sort(axes, [](GridAxis a, GridAxis b) {
    // The order of world ranks: depth, row, col.
    auto rank = [](GridAxis x) { return (static_cast<int>(x) + 1) % 3; };
    return rank(a) < rank(b);
  });
  axes.erase(std::unique(axes.begin(), axes.end()), axes.end());
  if (!isa<linalg::GenericOp>(op.getOperation()) && !isa<linalg::ReduceOp>(op.getOperation()))
    return op.emitError() << "'" << op->getName()
                          << "' reduces over a dimension split over "
                          << formatAxes(axes)
                          << "; only linalg.generic and linalg.reduce can "
                             "be completed by an all-reduce";
  PartialReduction partial;
  partial.axes = axes;
  Block *body = op.getBlock();
  for (OpOperand &init : op.getDpsInitsMutable()) {
    unsigned position = init.getOperandNumber() - op.getNumDpsInputs();
    BlockArgument acc = op.getMatchingBlockArgument(&init);
    std::optional<ReductionKind> kind = getCombinerKind(acc, position);
    (void)body;
    if (!kind)
      return op.emitError()
             << "reduction over a dimension split over " << formatAxes(axes)
             << " needs each accumulator combined by one arith.addf, "
                "arith.mulf, arith.maximumf or arith.minimumf whose result "
                "is yielded";
    if (!isIdentityFill(init.get(), *kind))
      return op.emitError()
             << "reduction over a dimension split over " << formatAxes(axes)
             << " needs accumulator " << position
             << " filled (linalg.fill) with the identity of "
             << stringifyReductionKind(*kind) << " (" << identityName(*kind)
             << ")";
    partial.kinds.push_back(*kind);
  }
  partials[op] = partial;
  return success();
}

LogicalResult
LayoutSolver::propagateReshape(Operation *op, Value collapsed, Value expanded,
                               ArrayRef<ReassociationIndices> groups) {
  LayoutAttr lc = lookup(collapsed), le = lookup(expanded);
  if (le) {
    // Only the outermost dimension of each group may be split.
    DimSplits splits;
    for (auto [g, group] : llvm::enumerate(groups)) {
      for (int64_t d : llvm::drop_begin(group))
        if (!le.getDimSplit(d).empty())
          return op->emitError()
                 << "dimension " << d << " is split over "
                 << formatAxes(le.getDimSplit(d))
                 << " but is not the outermost of the dimensions reshaped "
                    "into dimension "
                 << g << "; only the outermost may be split";
      splits.push_back(le.getDimSplit(group.front()));
    }
    if (failed(assign(collapsed, make(splits), op)))
      return failure();
  }
  if (lc) {
    auto type = cast<RankedTensorType>(expanded.getType());
    DimSplits splits(type.getRank());
    for (auto [g, group] : llvm::enumerate(groups))
      splits[group.front()] = lc.getDimSplit(g);
    if (failed(assign(expanded, make(splits), op)))
      return failure();
  }
  return success();
}

LogicalResult LayoutSolver::visitExpand(tensor::ExpandShapeOp op) {
  return propagateReshape(op, op.getSrc(), op.getResult(),
                          op.getReassociationIndices());
}

LogicalResult LayoutSolver::visitCollapse(tensor::CollapseShapeOp op) {
  return propagateReshape(op, op.getResult(), op.getSrc(),
                          op.getReassociationIndices());
}

LogicalResult LayoutSolver::visitSoftmax(linalg::SoftmaxOp op) {
  Value in = op.getInput(), init = op.getOutput(), out = op.getResult()[0];
  LayoutAttr layout = lookup(in);
  if (!layout)
    layout = lookup(out);
  if (!layout)
    layout = lookup(init);
  if (!layout)
    return success();
  SmallVector<GridAxis> split = layout.getDimSplit(op.getDimension());
  if (!split.empty())
    return op.emitError() << "softmax over dimension " << op.getDimension()
                          << ", which is split over " << formatAxes(split)
                          << ", is not supported; split another dimension";
  for (Value v : {in, init, out})
    if (failed(assign(v, layout, op)))
      return failure();
  return success();
}

LogicalResult LayoutSolver::visitExtractSlice(tensor::ExtractSliceOp op) {
  LayoutAttr layout = lookup(op.getSource());
  if (!layout)
    layout = lookup(op.getResult());
  if (!layout)
    return success();
  if (op.getSourceType().getRank() != op.getResultType().getRank() ||
      !op.hasUnitStride() || ShapedType::isDynamicShape(op.getStaticSizes()) ||
      ShapedType::isDynamicShape(op.getStaticOffsets()))
    return op.emitError() << "tensor.extract_slice: only static, unit-stride "
                             "slices that keep the rank are supported";
  // A slice stays inside every tile when it takes split dimensions whole.
  for (unsigned d = 0; d < layout.getRank(); ++d) {
    SmallVector<GridAxis> split = layout.getDimSplit(d);
    if (split.empty())
      continue;
    if (op.getStaticOffsets()[d] != 0 ||
        op.getStaticSizes()[d] != op.getSourceType().getDimSize(d))
      return op.emitError()
             << "tensor.extract_slice: dimension " << d << " is split over "
             << formatAxes(split)
             << "; a slice must take it whole to stay inside a tile";
  }
  if (failed(assign(op.getSource(), layout, op)) ||
      failed(assign(op.getResult(), layout, op)))
    return failure();
  return success();
}

LogicalResult LayoutSolver::visit(Operation *op) {
  if (auto mm = dyn_cast<linalg::MatmulOp>(op))
    return visitMatmul(mm);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return visitExpand(expand);
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return visitCollapse(collapse);
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return visitSoftmax(softmax);
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return visitExtractSlice(slice);
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
  for (BlockArgument arg : func.getArguments())
    if (!lookup(arg))
      return emitError(arg.getLoc())
             << "argument " << arg.getArgNumber() << " (" << arg.getType()
             << ") gets no layout from its uses; give it a " << kRoleAttrName
             << " attribute";
  WalkResult unlaid = func.walk([&](Operation *op) {
    for (OpResult res : op->getResults())
      if (isa<RankedTensorType>(res.getType()) && !lookup(res)) {
        op->emitError() << "result " << res.getResultNumber()
                        << " gets no layout (it is not used by an op that "
                           "fixes one)";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (unlaid.wasInterrupted())
    return failure();

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
