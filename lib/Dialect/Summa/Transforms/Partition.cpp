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
// indexing maps stay valid on tiles.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/Passes.h"

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
  explicit FunctionPartitioner(func::FuncOp func) : func(func) {}
  LogicalResult run();

private:
  /// The tile type of a value of `type` laid out by `attr`.
  FailureOr<Type> localType(Type type, Attribute attr, Location loc);
  LogicalResult partitionOp(Operation *op);

  func::FuncOp func;
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
  GridOp grid = lookupGrid(func, layout.getGrid());
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

LogicalResult FunctionPartitioner::partitionOp(Operation *op) {
  if (op->getNumResults() == 0)
    return success();
  auto layouts = op->getAttrOfType<ArrayAttr>(kLayoutsAttrName);
  bool hasTensorResult =
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
  if (!hasTensorResult)
    return success();
  if (!isa<linalg::LinalgOp, tensor::EmptyOp, arith::ConstantOp>(op))
    return op->emitError() << "'" << op->getName()
                           << "' is not supported by summa-partition";
  for (OpResult res : op->getResults()) {
    FailureOr<Type> local = localType(
        res.getType(),
        layouts ? layouts[res.getResultNumber()] : Attribute(), op->getLoc());
    if (failed(local))
      return failure();
    res.setType(*local);
  }
  op->removeAttr(kLayoutsAttrName);

  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!dense || !dense.isSplat())
      return op->emitError()
             << "only splat tensor constants can be partitioned";
    constant.setValueAttr(DenseElementsAttr::get(
        cast<ShapedType>(constant.getType()), dense.getSplatValue<Attribute>()));
    return success();
  }
  if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
    OpBuilder b(mm);
    auto layout = cast<LayoutAttr>(layouts[0]);
    auto summaMm = MatmulOp::create(
        b, mm.getLoc(), mm->getResult(0).getType(),
        mm.getDpsInputOperand(0)->get(), mm.getDpsInputOperand(1)->get(),
        mm.getDpsInitOperand(0)->get(), layout.getGrid(),
        MatmulFormAttr::get(b.getContext(), MatmulForm::ab));
    mm->getResult(0).replaceAllUsesWith(summaMm.getResult());
    mm->erase();
  }
  return success();
}

LogicalResult FunctionPartitioner::run() {
  Block &body = func.getBody().front();
  SmallVector<Type> argTypes, resultTypes;
  for (BlockArgument arg : func.getArguments()) {
    FailureOr<Type> local =
        localType(arg.getType(),
                  func.getArgAttr(arg.getArgNumber(), kLayoutAttrName),
                  func.getLoc());
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
struct SummaPartitionPass : summa::impl::SummaPartitionBase<SummaPartitionPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      FunctionPartitioner partitioner(func);
      if (failed(partitioner.run()))
        return signalPassFailure();
    }
  }
};
} // namespace
