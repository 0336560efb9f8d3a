//===- Passive.cpp - ops that only hold or pass on values -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The rules of the ops with no computation of their own: tensor.empty and
// arith.constant take the layout their users give them (a non-splat
// constant is sliced by summa-partition); summa.relayout's result has its
// layout and its input keeps its own (summa-partition lowers it to
// collectives); func.return passes its operands' layouts on to the
// function's results; tensor.extract reads a scalar of a tensor that is
// whole on every rank.
//
//===----------------------------------------------------------------------===//

#include "Families.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::oprules;

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

/// A scalar read at given indices: the tensor is whole on every rank.
static LogicalResult visitExtract(LayoutRuleState &s, tensor::ExtractOp op) {
  s.want(op.getTensorMutable(),
         s.make(DimSplits(op.getTensor().getType().getRank())));
  return success();
}

/// Results are returned as the computation leaves them (like summa's
/// partitioned functions, which return local tiles), partial sums summed.
static LogicalResult splitReturn(SplitModelState &s, func::ReturnOp op) {
  for (Value v : op->getOperands())
    s.materialize(v);
  return success();
}

/// An element read: its owner's.
static LogicalResult splitExtract(SplitModelState &s, tensor::ExtractOp op) {
  s.materialize(op.getTensor());
  return success();
}

static LogicalResult partitionConstant(PartitionState &s,
                                       arith::ConstantOp op) {
  return s.partitionConstantOp(op);
}

static LogicalResult partitionRelayout(PartitionState &s, RelayoutOp op) {
  return s.lowerRelayoutOp(op);
}

/// A result that updates an argument indexes the same spaces as it.
static void relateReturn(DimClassState &s, func::ReturnOp op) {
  auto func = cast<func::FuncOp>(op->getParentOp());
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = getUpdatedArgument(func, operand.getOperandNumber());
    if (!arg || arg.getType() != operand.get().getType())
      continue;
    for (int64_t d = 0; d < cast<RankedTensorType>(arg.getType()).getRank();
         ++d)
      if (DimClassState::dimSize(arg, d) > 1)
        s.unite(arg, d, operand.get(), d);
  }
}

/// A tensor built element by element (tensor.generate, from_elements,
/// splat) writes its result.
template <typename Op>
static LocalWork writeResultWork(Op op, function_ref<int64_t(Value)> bytesOf,
                                 int64_t) {
  LocalWork work;
  work.bytes = tensorBytes(op->getResult(0), bytesOf);
  return work;
}

void oprules::registerPassiveRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExtractOp::attachInterface<
        LayoutModel<tensor::ExtractOp, visitExtract>,
        SplitCostModel<tensor::ExtractOp, splitExtract>>(*ctx);
    tensor::EmptyOp::attachInterface<
        LayoutModel<tensor::EmptyOp, noRule<LayoutRuleState, tensor::EmptyOp>>,
        PartitionModel<tensor::EmptyOp, localizeOnly<tensor::EmptyOp>>,
        SplitCostModel<tensor::EmptyOp,
                       noRule<SplitModelState, tensor::EmptyOp>>>(*ctx);
    tensor::GenerateOp::attachInterface<LocalWorkModel<
        tensor::GenerateOp, writeResultWork<tensor::GenerateOp>>>(*ctx);
    tensor::FromElementsOp::attachInterface<LocalWorkModel<
        tensor::FromElementsOp, writeResultWork<tensor::FromElementsOp>>>(*ctx);
    tensor::SplatOp::attachInterface<
        LocalWorkModel<tensor::SplatOp, writeResultWork<tensor::SplatOp>>>(
        *ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    arith::ConstantOp::attachInterface<
        LayoutModel<arith::ConstantOp,
                    noRule<LayoutRuleState, arith::ConstantOp>>,
        PartitionModel<arith::ConstantOp, partitionConstant>,
        SplitCostModel<arith::ConstantOp,
                       noRule<SplitModelState, arith::ConstantOp>>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, func::FuncDialect *) {
    func::ReturnOp::attachInterface<
        LayoutModel<func::ReturnOp, noRule<LayoutRuleState, func::ReturnOp>>,
        SplitCostModel<func::ReturnOp, splitReturn>,
        DimClassModel<func::ReturnOp, relateReturn>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, SummaDialect *) {
    RelayoutOp::attachInterface<
        LayoutModel<RelayoutOp, noRule<LayoutRuleState, RelayoutOp>>,
        PartitionModel<RelayoutOp, partitionRelayout>>(*ctx);
  });
}
