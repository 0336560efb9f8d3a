//===- BufferizableOpInterfaceImpl.cpp - bufferizing summa ops --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// One-Shot Bufferize models of the summa collectives. broadcast, reduce and
// all_reduce become in-place memref ops (the result is equivalent to the
// input buffer; the analysis inserts a copy where the input is still read
// later). all_gather and reduce_scatter read their input and write a freshly
// allocated buffer.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"

using namespace mlir;
using namespace mlir::bufferization;
using namespace mlir::summa;

namespace {

/// Creates the memref form of collective `op`: the same op with `operands`
/// and no result.
static void createBufferForm(RewriterBase &rewriter, Operation *op,
                             ValueRange operands) {
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.propertiesAttr = op->getPropertiesAsAttribute();
  for (NamedAttribute attr : op->getDiscardableAttrs())
    state.addAttribute(attr.getName(), attr.getValue());
  rewriter.setInsertionPoint(op);
  rewriter.create(state);
}

/// broadcast / reduce / all_reduce: read and write their operand in place.
template <typename OpTy>
struct InPlaceCollectiveInterface
    : BufferizableOpInterface::ExternalModel<InPlaceCollectiveInterface<OpTy>,
                                             OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &opOperand,
                               const AnalysisState &) const {
    return isa<TensorType>(opOperand.get().getType());
  }
  AliasingValueList getAliasingValues(Operation *op, OpOperand &opOperand,
                                      const AnalysisState &) const {
    auto collective = cast<OpTy>(op);
    if (&opOperand != &collective.getInputMutable() || !collective.getResult())
      return {};
    return {{collective.getResult(), BufferRelation::Equivalent}};
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto collective = cast<OpTy>(op);
    FailureOr<Value> buffer =
        getBuffer(rewriter, collective.getInput(), options, state);
    if (failed(buffer))
      return failure();
    SmallVector<Value> operands(op->getOperands());
    operands[0] = *buffer;
    createBufferForm(rewriter, op, operands);
    replaceOpWithBufferizedValues(rewriter, op, *buffer);
    return success();
  }
};

/// all_gather / reduce_scatter: read the input, write a new buffer.
template <typename OpTy>
struct ReshapingCollectiveInterface
    : BufferizableOpInterface::ExternalModel<ReshapingCollectiveInterface<OpTy>,
                                             OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  bool bufferizesToMemoryWrite(Operation *, OpOperand &,
                               const AnalysisState &) const {
    return false;
  }
  bool bufferizesToAllocation(Operation *, Value) const { return true; }
  AliasingValueList getAliasingValues(Operation *, OpOperand &,
                                      const AnalysisState &) const {
    return {};
  }
  FailureOr<BufferLikeType> getBufferType(Operation *, Value value,
                                          const BufferizationOptions &,
                                          const BufferizationState &,
                                          SmallVector<Value> &) const {
    auto type = cast<RankedTensorType>(value.getType());
    return cast<BufferLikeType>(
        MemRefType::get(type.getShape(), type.getElementType()));
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto collective = cast<OpTy>(op);
    FailureOr<Value> input =
        getBuffer(rewriter, collective.getInput(), options, state);
    if (failed(input))
      return failure();
    auto resultType = cast<RankedTensorType>(collective.getResult().getType());
    FailureOr<Value> output = options.createAlloc(
        rewriter, op->getLoc(),
        MemRefType::get(resultType.getShape(), resultType.getElementType()),
        {});
    if (failed(output))
      return failure();
    createBufferForm(rewriter, op, {*input, *output});
    replaceOpWithBufferizedValues(rewriter, op, *output);
    return success();
  }
};

} // namespace

void mlir::summa::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, SummaDialect *) {
    BroadcastOp::attachInterface<InPlaceCollectiveInterface<BroadcastOp>>(*ctx);
    ReduceOp::attachInterface<InPlaceCollectiveInterface<ReduceOp>>(*ctx);
    AllReduceOp::attachInterface<InPlaceCollectiveInterface<AllReduceOp>>(*ctx);
    AllGatherOp::attachInterface<ReshapingCollectiveInterface<AllGatherOp>>(
        *ctx);
    ReduceScatterOp::attachInterface<
        ReshapingCollectiveInterface<ReduceScatterOp>>(*ctx);
  });
}
