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
// allocated buffer. summa.scatter updates its original in place.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
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

/// `buffer`, or a copy of it in a new dense row-major buffer where it is a
/// strided view (the slice of a larger buffer): the runtime's collectives
/// take dense buffers.
static FailureOr<Value> denseBuffer(RewriterBase &rewriter, Location loc,
                                    const BufferizationOptions &options,
                                    Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (!type.hasStaticShape() ||
      memref::isStaticShapeAndContiguousRowMajor(type))
    return buffer;
  FailureOr<Value> dense = options.createAlloc(
      rewriter, loc, MemRefType::get(type.getShape(), type.getElementType()),
      {});
  if (failed(dense) ||
      failed(options.createMemCpy(rewriter, loc, buffer, *dense)))
    return failure();
  return *dense;
}

/// What every collective's model shares: the collective reads its input,
/// and bufferizes as the same op on buffers; Derived::bufferizeOn creates
/// that op on the input's buffer and returns the buffer of the result.
template <typename Derived, typename OpTy>
struct CollectiveInterface
    : BufferizableOpInterface::ExternalModel<Derived, OpTy> {
  bool bufferizesToMemoryRead(Operation *, OpOperand &,
                              const AnalysisState &) const {
    return true;
  }
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    FailureOr<Value> input =
        getBuffer(rewriter, cast<OpTy>(op).getInput(), options, state);
    if (failed(input))
      return failure();
    rewriter.setInsertionPoint(op);
    FailureOr<Value> dense =
        denseBuffer(rewriter, op->getLoc(), options, *input);
    if (failed(dense))
      return failure();
    FailureOr<Value> result = static_cast<const Derived *>(this)->bufferizeOn(
        cast<OpTy>(op), rewriter, options, *dense);
    if (failed(result))
      return failure();
    // An in-place collective on a copy: the copy goes back into the view.
    if (*result == *dense && *dense != *input) {
      rewriter.setInsertionPointAfter(op);
      if (failed(options.createMemCpy(rewriter, op->getLoc(), *dense, *input)))
        return failure();
      result = *input;
    }
    replaceOpWithBufferizedValues(rewriter, op, *result);
    return success();
  }
};

/// broadcast / reduce / all_reduce: read and write their operand in place.
template <typename OpTy>
struct InPlaceCollectiveInterface
    : CollectiveInterface<InPlaceCollectiveInterface<OpTy>, OpTy> {
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
  FailureOr<Value> bufferizeOn(OpTy op, RewriterBase &rewriter,
                               const BufferizationOptions &,
                               Value input) const {
    SmallVector<Value> operands(op->getOperands());
    operands[0] = input;
    createBufferForm(rewriter, op, operands);
    return input;
  }
};

/// all_gather / reduce_scatter: read the input, write a new buffer.
template <typename OpTy>
struct ReshapingCollectiveInterface
    : CollectiveInterface<ReshapingCollectiveInterface<OpTy>, OpTy> {
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
    return cast<BufferLikeType>(bufferTypeOf(value.getType()));
  }
  FailureOr<Value> bufferizeOn(OpTy op, RewriterBase &rewriter,
                               const BufferizationOptions &options,
                               Value input) const {
    FailureOr<Value> output = options.createAlloc(
        rewriter, op->getLoc(), bufferTypeOf(op.getResult().getType()), {});
    if (failed(output))
      return failure();
    createBufferForm(rewriter, op, {input, *output});
    return *output;
  }
  static MemRefType bufferTypeOf(Type tensorType) {
    auto type = cast<RankedTensorType>(tensorType);
    return MemRefType::get(type.getShape(), type.getElementType());
  }
};

/// summa.scatter: reads its updates and indices, updates its original in
/// place (destination style).
struct ScatterInterface
    : DstBufferizableOpInterfaceExternalModel<ScatterInterface, ScatterOp> {
  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto scatter = cast<ScatterOp>(op);
    SmallVector<Value> buffers;
    for (Value operand : scatter->getOperands()) {
      FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
      if (failed(buffer))
        return failure();
      buffers.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    auto onBuffers = ScatterOp::create(rewriter, op->getLoc(), Type(),
                                       buffers[0], buffers[1], buffers[2],
                                       scatter.getDimensionMapAttr());
    rewriter.inlineRegionBefore(scatter.getCombiner(), onBuffers.getCombiner(),
                                onBuffers.getCombiner().end());
    replaceOpWithBufferizedValues(rewriter, op, buffers[2]);
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
    ScatterOp::attachInterface<ScatterInterface>(*ctx);
  });
}
