//===- Partition.cpp - SPMD form on local tiles -----------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-partition. Every tensor value keeps its ops but takes the
// type of the tile a rank holds; contractions become summa.matmul. Because
// the 2.5D layout of DESIGN.md §1 is the same for every activation, the
// elementwise ops between contractions need no communication, and their
// indexing maps stay valid on tiles. Reductions over split dimensions are
// completed by all-reduces, and linalg.index of split loops is offset to
// the global index.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAPARTITION
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

class FunctionPartitioner {
public:
  FunctionPartitioner(func::FuncOp func, bool remarks)
      : func(func), remarks(remarks) {}
  LogicalResult run();

private:
  /// The tile type of a value of `type` laid out by `attr`.
  FailureOr<Type> localType(Type type, Attribute attr, Location loc);
  LogicalResult partitionOp(Operation *op);
  /// Offsets `linalg.index` of split loop dimensions by the rank's block.
  LogicalResult globalizeIndices(linalg::LinalgOp op);
  /// Completes the partial results of a reduction over split dimensions.
  void completeReduction(Operation *op);
  GridOp getGrid(LayoutAttr layout) { return lookupGrid(func, layout.getGrid()); }

  func::FuncOp func;
  bool remarks;
  /// The layout of every tensor value, read before any type changes.
  DenseMap<Value, LayoutAttr> valueLayouts;
};

} // namespace

FailureOr<Type> FunctionPartitioner::localType(Type type, Attribute attr,
                                               Location loc) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return type;
  auto layout = dyn_cast_or_null<LayoutAttr>(attr);
  if (!layout)
    return emitError(loc) << "value of type " << type
                          << " has no layout; run summa-assign-layouts first";
  GridOp grid = getGrid(layout);
  if (!grid)
    return emitError(loc) << "layout refers to " << layout.getGrid()
                          << ", which is not a summa.grid";
  FailureOr<SmallVector<int64_t>> shape =
      getLocalShape(tensor.getShape(), layout, grid);
  if (failed(shape))
    return emitError(loc) << "the grid does not divide " << type
                          << " laid out as " << layout;
  return Type(tensor.clone(*shape));
}

LogicalResult FunctionPartitioner::globalizeIndices(linalg::LinalgOp op) {
  SmallVector<linalg::IndexOp> indices;
  op->walk([&](linalg::IndexOp index) { indices.push_back(index); });
  if (indices.empty())
    return success();
  // Split and local size of every loop, from the operands' layouts.
  SmallVector<SmallVector<GridAxis>> splits(op.getNumLoops());
  SmallVector<int64_t> localSizes(op.getNumLoops(), ShapedType::kDynamic);
  LayoutAttr any;
  for (OpOperand &operand : op->getOpOperands()) {
    LayoutAttr layout = valueLayouts.lookup(operand.get());
    auto type = dyn_cast<RankedTensorType>(operand.get().getType());
    if (!layout || !type)
      continue;
    any = layout;
    for (auto [i, expr] :
         llvm::enumerate(op.getMatchingIndexingMap(&operand).getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        splits[dim.getPosition()] = layout.getDimSplit(i);
        localSizes[dim.getPosition()] = type.getDimSize(i);
      }
  }
  for (linalg::IndexOp index : indices) {
    int64_t loop = index.getDim();
    if (splits[loop].empty())
      continue;
    GridOp grid = getGrid(any);
    // offset = (mixed-radix block index over the split axes) * local size.
    OpBuilder b(op);
    Location loc = index.getLoc();
    Value block = arith::ConstantIndexOp::create(b, loc, 0);
    for (GridAxis axis : splits[loop]) {
      Value size =
          arith::ConstantIndexOp::create(b, loc, grid.getAxisSize(axis));
      Value coord =
          CoordOp::create(b, loc, b.getIndexType(), any.getGrid(),
                          GridAxisAttr::get(b.getContext(), axis));
      block = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, block, size), coord);
    }
    Value offset = arith::MulIOp::create(
        b, loc, block,
        arith::ConstantIndexOp::create(b, loc, localSizes[loop]));
    OpBuilder inner(index->getContext());
    inner.setInsertionPointAfter(index);
    auto global = arith::AddIOp::create(inner, loc, index, offset);
    index.getResult().replaceAllUsesExcept(global, global);
    if (remarks)
      index.emitRemark() << "linalg.index " << loop
                         << " offset by this rank's block over "
                         << formatAxes(splits[loop]);
  }
  return success();
}

void FunctionPartitioner::completeReduction(Operation *op) {
  auto axes = op->getAttrOfType<DenseI32ArrayAttr>(kReduceAxesAttrName);
  auto kinds = op->getAttrOfType<ArrayAttr>(kReduceKindsAttrName);
  if (!axes || !kinds)
    return;
  op->removeAttr(kReduceAxesAttrName);
  op->removeAttr(kReduceKindsAttrName);
  auto layout = cast<LayoutAttr>(
      op->getAttrOfType<ArrayAttr>(kLayoutsAttrName)[0]);
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  for (auto [res, kind] : llvm::zip(op->getResults(), kinds)) {
    auto kindAttr = ReductionKindAttr::get(
        op->getContext(),
        *symbolizeReductionKind(cast<StringAttr>(kind).getValue()));
    auto reduced = AllReduceOp::create(b, op->getLoc(), res.getType(), res,
                                       layout.getGrid(), axes, kindAttr);
    res.replaceAllUsesExcept(reduced.getResult(), reduced);
    valueLayouts[reduced.getResult()] = valueLayouts.lookup(res);
    if (remarks) {
      SmallVector<GridAxis> list;
      for (int32_t a : axes.asArrayRef())
        list.push_back(static_cast<GridAxis>(a));
      op->emitRemark() << "reduces over a dimension split over "
                       << formatAxes(list) << ": summa.all_reduce ("
                       << stringifyReductionKind(kindAttr.getValue())
                       << ") of result " << res.getResultNumber()
                       << " over axes " << formatAxes(list);
    }
  }
}

LogicalResult FunctionPartitioner::partitionOp(Operation *op) {
  if (op->getNumResults() == 0)
    return success();
  auto layouts = op->getAttrOfType<ArrayAttr>(kLayoutsAttrName);
  bool hasTensorResult =
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
  if (!hasTensorResult)
    return success();
  if (!isa<linalg::LinalgOp, linalg::SoftmaxOp, tensor::EmptyOp,
           tensor::ExpandShapeOp, tensor::CollapseShapeOp,
           tensor::ExtractSliceOp, arith::ConstantOp>(op))
    return op->emitError() << "'" << op->getName()
                           << "' is not supported by summa-partition";
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    if (failed(globalizeIndices(linalgOp)))
      return failure();
  for (OpResult res : op->getResults()) {
    FailureOr<Type> local = localType(
        res.getType(),
        layouts ? layouts[res.getResultNumber()] : Attribute(), op->getLoc());
    if (failed(local))
      return failure();
    res.setType(*local);
  }
  completeReduction(op);

  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    expand.setStaticOutputShape(expand.getResultType().getShape());
  } else if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    // Split dimensions are taken whole (summa-assign-layouts checked it):
    // their size becomes the tile's.
    slice.setStaticSizes(slice.getResultType().getShape());
  } else if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense || !dense.isSplat())
      return op->emitError()
             << "only splat tensor constants can be partitioned";
    constant.setValueAttr(DenseElementsAttr::get(
        cast<ShapedType>(constant.getType()), dense.getSplatValue<Attribute>()));
  } else if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
    OpBuilder b(mm);
    auto layout = cast<LayoutAttr>(layouts[0]);
    auto summaMm = MatmulOp::create(
        b, mm.getLoc(), mm->getResult(0).getType(),
        mm.getDpsInputOperand(0)->get(), mm.getDpsInputOperand(1)->get(),
        mm.getDpsInitOperand(0)->get(), layout.getGrid(),
        MatmulFormAttr::get(b.getContext(),
                            *getMatmulForm(mm.getIndexingMapsArray())));
    if (remarks) {
      GridOp grid = getGrid(layout);
      switch (summaMm.getForm()) {
      case MatmulForm::ab:
        mm.emitRemark() << "2.5D SUMMA matmul: " << grid.getQ()
                        << " steps, each a summa.broadcast of the lhs panel "
                           "along the rows (axes [col]) and of the rhs panel "
                           "along the columns (axes [row])";
        break;
      case MatmulForm::abt:
        mm.emitRemark() << "2.5D SUMMA matmul A·Bᵀ: " << grid.getQ()
                        << " steps, each a summa.broadcast of the rhs panel "
                           "along the columns (axes [row]) and a summa.reduce "
                           "of the partial product along the rows (axes "
                           "[col])";
        break;
      case MatmulForm::atb:
        mm.emitRemark() << "2.5D SUMMA matmul Aᵀ·B: " << grid.getQ()
                        << " steps, each a summa.broadcast of the lhs panel "
                           "along the rows (axes [col]) and a summa.reduce of "
                           "the partial product along the columns (axes "
                           "[row]); then a summa.all_reduce over [depth]";
        break;
      }
    }
    valueLayouts[summaMm.getResult()] = layout;
    mm->getResult(0).replaceAllUsesWith(summaMm.getResult());
    mm->erase();
    return success();
  }
  op->removeAttr(kLayoutsAttrName);
  return success();
}

LogicalResult FunctionPartitioner::run() {
  Block &body = func.getBody().front();
  for (BlockArgument arg : func.getArguments())
    if (auto layout = func.getArgAttrOfType<LayoutAttr>(arg.getArgNumber(),
                                                        kLayoutAttrName))
      valueLayouts[arg] = layout;
  func.walk([&](Operation *op) {
    if (auto attrs = op->getAttrOfType<ArrayAttr>(kLayoutsAttrName))
      for (auto [res, attr] : llvm::zip(op->getResults(), attrs))
        if (auto layout = dyn_cast<LayoutAttr>(attr))
          valueLayouts[res] = layout;
  });

  SmallVector<Type> argTypes, resultTypes;
  for (BlockArgument arg : func.getArguments()) {
    FailureOr<Type> local =
        localType(arg.getType(),
                  func.getArgAttr(arg.getArgNumber(), kLayoutAttrName),
                  arg.getLoc());
    if (failed(local))
      return failure();
    arg.setType(*local);
    argTypes.push_back(*local);
  }
  for (Operation &op : llvm::make_early_inc_range(body))
    if (failed(partitionOp(&op)))
      return failure();
  for (Value v : body.getTerminator()->getOperands())
    resultTypes.push_back(v.getType());
  func.setFunctionType(
      FunctionType::get(func.getContext(), argTypes, resultTypes));
  return success();
}

namespace {
struct SummaPartitionPass
    : summa::impl::SummaPartitionBase<SummaPartitionPass> {
  using Base::Base;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      FunctionPartitioner partitioner(func, emitRemarks);
      if (failed(partitioner.run()))
        return signalPassFailure();
    }
  }
};
} // namespace
