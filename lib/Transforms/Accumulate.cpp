//===- Accumulate.cpp - gradient accumulation over micro-batches ----------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "summa/Transforms/Accumulate.h"

#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Support/Elementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::summa;

/// Micro-batch `k` of `count` batches in `x` ([K·b, ...]): rows k, k + K,
/// ...
/// (an expand to [B/K, K, ...], a slice of index k of the new dimension,
/// the collapse back). The dimension split over the grid is the outer one,
/// so every rank slices its own rows.
static Value microBatch(OpBuilder &b, Location loc, Value x, int64_t count,
                        int64_t k) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> expanded = {type.getDimSize(0) / count, count};
  llvm::append_range(expanded, type.getShape().drop_front());
  SmallVector<ReassociationIndices> groups = {{0, 1}};
  for (int64_t d = 2; d < static_cast<int64_t>(expanded.size()); ++d)
    groups.push_back({d});
  Value split =
      tensor::ExpandShapeOp::create(b, loc, type.clone(expanded), x, groups);
  SmallVector<int64_t> one = expanded;
  one[1] = 1;
  SmallVector<OpFoldResult> offsets(expanded.size(), b.getIndexAttr(0));
  offsets[1] = b.getIndexAttr(k);
  SmallVector<OpFoldResult> sizes, strides(expanded.size(), b.getIndexAttr(1));
  for (int64_t size : one)
    sizes.push_back(b.getIndexAttr(size));
  Value slice = tensor::ExtractSliceOp::create(b, loc, type.clone(one), split,
                                               offsets, sizes, strides);
  SmallVector<int64_t> shape = expanded;
  shape.erase(shape.begin() + 1);
  return tensor::CollapseShapeOp::create(b, loc, type.clone(shape), slice,
                                         groups);
}

/// `v` times `factor`, element by element.
static Value scale(OpBuilder &b, Location loc, Value v, double factor) {
  Type element = cast<RankedTensorType>(v.getType()).getElementType();
  return mapElements(
      b, loc, v, element, [&](OpBuilder &nb, Location nl, Value x) -> Value {
        Value c =
            arith::ConstantOp::create(nb, nl, nb.getFloatAttr(element, factor));
        return arith::MulFOp::create(nb, nl, x, c);
      });
}

SmallVector<BlockArgument>
mlir::summa::batchArguments(func::FuncOp func, ArrayRef<unsigned> params) {
  llvm::SmallDenseSet<unsigned> isParam(params.begin(), params.end());
  SmallVector<BlockArgument> batch;
  for (BlockArgument arg : func.getArguments()) {
    if (!isParam.contains(arg.getArgNumber()) &&
        getArgumentRole(func, arg.getArgNumber()) != ArgumentRole::Replicated &&
        isa<RankedTensorType>(arg.getType()))
      batch.push_back(arg);
  }
  return batch;
}

LogicalResult mlir::summa::buildAccumulatedStep(func::FuncOp step,
                                                func::FuncOp micro,
                                                int64_t microBatches,
                                                ArrayRef<unsigned> params,
                                                const OptimizerOptions &options,
                                                bool returnGradients) {
  // The batch arguments of a leading dimension (that of the first one).
  std::optional<unsigned> first;
  SmallVector<bool> sliced(step.getNumArguments(), false);
  for (BlockArgument arg : batchArguments(step, params)) {
    unsigned i = arg.getArgNumber();
    auto type = cast<RankedTensorType>(arg.getType());
    if (type.getRank() == 0)
      continue;
    if (!first)
      first = i;
    sliced[i] = type.getDimSize(0) ==
                cast<RankedTensorType>(step.getArgument(*first).getType())
                    .getDimSize(0);
  }
  if (!first || ShapedType::isDynamic(
                    cast<RankedTensorType>(step.getArgument(*first).getType())
                        .getDimSize(0)))
    return step.emitError()
           << "summa-differentiate: accumulate=" << microBatches
           << " needs a batch: a tensor argument with a static leading "
              "dimension that is not a parameter (token ids, labels, "
              "activations)";
  Block &body = step.getBody().front();
  Location loc = body.getTerminator()->getLoc();
  while (!body.empty())
    body.back().erase();
  // The step's batch arguments hold K micro-batches.
  for (BlockArgument arg : step.getArguments())
    if (sliced[arg.getArgNumber()]) {
      auto type = cast<RankedTensorType>(arg.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape[0] *= microBatches;
      arg.setType(type.clone(shape));
    }
  step.setFunctionType(FunctionType::get(
      step.getContext(), body.getArgumentTypes(), step.getResultTypes()));
  OpBuilder b = OpBuilder::atBlockEnd(&body);
  auto microReturn =
      cast<func::ReturnOp>(micro.getBody().front().getTerminator());
  Value loss;
  SmallVector<Value> grads(params.size());
  for (int64_t k = 0; k < microBatches; ++k) {
    IRMapping map;
    for (BlockArgument arg : step.getArguments())
      map.map(micro.getArgument(arg.getArgNumber()),
              sliced[arg.getArgNumber()]
                  ? microBatch(b, arg.getLoc(), arg, microBatches, k)
                  : Value(arg));
    for (Operation &op : micro.getBody().front().without_terminator())
      b.clone(op, map);
    // The reported loss is the mean of the micro-batches' (PyTorch's
    // accumulated `loss / K`); the gradients come seeded with 1/K.
    Value part = scale(b, loc, map.lookupOrDefault(microReturn.getOperand(0)),
                       1.0 / static_cast<double>(microBatches));
    loss = loss ? addElements(b, loc, loss, part) : part;
    for (auto [j, g] : llvm::enumerate(grads)) {
      Value partial = map.lookupOrDefault(microReturn.getOperand(1 + j));
      g = g ? addElements(b, loc, g, partial) : partial;
    }
  }
  return returnStep(b, step, loc, loss, params, grads, options,
                    returnGradients);
}
