//===- ScatterOp.cpp - summa.scatter ----------------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The verifier and helpers of summa.scatter: slices combined into a tensor at
// computed indices (an embedding's gradient, tm_tensor.scatter).
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/SummaOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::summa;

SmallVector<int64_t> ScatterOp::getSliceDims() {
  auto original = cast<ShapedType>(getOriginal().getType());
  llvm::SmallBitVector named(original.getRank());
  for (int64_t d : getDimensionMap())
    if (d >= 0 && d < original.getRank())
      named.set(d);
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < original.getRank(); ++d)
    if (!named.test(d))
      dims.push_back(d);
  return dims;
}

Operation *ScatterOp::getCombinerOp() {
  Block &body = getCombiner().front();
  return body.getTerminator()->getOperand(0).getDefiningOp();
}

bool ScatterOp::isAdd() {
  Block &body = getCombiner().front();
  Operation *op = getCombinerOp();
  if (!op || !isa<arith::AddFOp, arith::AddIOp>(op) ||
      op->getBlock() != &body || body.getOperations().size() != 2)
    return false;
  Value update = body.getArgument(0), current = body.getArgument(1);
  return (op->getOperand(0) == update && op->getOperand(1) == current) ||
         (op->getOperand(0) == current && op->getOperand(1) == update);
}

LogicalResult ScatterOp::verify() {
  auto updates = cast<ShapedType>(getUpdates().getType());
  auto indices = cast<ShapedType>(getIndices().getType());
  auto original = cast<ShapedType>(getOriginal().getType());
  bool buffers = isa<MemRefType>(original);
  if (isa<MemRefType>(updates) != buffers ||
      isa<MemRefType>(indices) != buffers)
    return emitOpError() << "takes tensors or buffers, not both";
  if (buffers != !getResult())
    return emitOpError() << (buffers ? "on buffers has no result"
                                     : "on tensors returns the new tensor");
  if (getResult() && getResult().getType() != original)
    return emitOpError() << "result type " << getResult().getType()
                         << " differs from the original's " << original;
  if (!indices.getElementType().isIntOrIndex())
    return emitOpError() << "indices must be integers, got "
                         << indices.getElementType();
  if (updates.getElementType() != original.getElementType())
    return emitOpError() << "updates of " << updates.getElementType()
                         << " into a tensor of " << original.getElementType();
  if (indices.getRank() < 1 || indices.isDynamicDim(indices.getRank() - 1))
    return emitOpError() << "indices must be [batch..., K] with a static K, "
                            "got "
                         << indices;
  ArrayRef<int64_t> map = getDimensionMap();
  int64_t depth = indices.getDimSize(indices.getRank() - 1);
  if (static_cast<int64_t>(map.size()) != depth)
    return emitOpError() << "dimension_map has " << map.size()
                         << " entries for " << depth << " index columns";
  llvm::SmallBitVector seen(original.getRank());
  for (int64_t d : map) {
    if (d < 0 || d >= original.getRank())
      return emitOpError() << "dimension_map entry " << d
                           << " is not a dimension of " << original;
    if (seen.test(d))
      return emitOpError() << "dimension_map names dimension " << d << " twice";
    seen.set(d);
  }
  int64_t batch = getBatchRank();
  SmallVector<int64_t> slice = getSliceDims();
  if (updates.getRank() != batch + static_cast<int64_t>(slice.size()))
    return emitOpError() << "updates must have rank " << batch << " + "
                         << slice.size() << " (batch, then one dimension per "
                         << "dimension of the original not in dimension_map), "
                            "got "
                         << updates;
  for (int64_t d = 0; d < batch; ++d)
    if (updates.getDimSize(d) != indices.getDimSize(d))
      return emitOpError() << "batch dimension " << d << " is "
                           << indices.getDimSize(d) << " in the indices and "
                           << updates.getDimSize(d) << " in the updates";
  for (auto [i, d] : llvm::enumerate(slice))
    if (updates.getDimSize(batch + i) > original.getDimSize(d))
      return emitOpError() << "slice dimension " << i << " of the updates ("
                           << updates.getDimSize(batch + i)
                           << ") is larger than dimension " << d
                           << " of the original (" << original.getDimSize(d)
                           << ")";
  Block &body = getCombiner().front();
  Type element = original.getElementType();
  if (body.getNumArguments() != 2 || body.getArgument(0).getType() != element ||
      body.getArgument(1).getType() != element)
    return emitOpError() << "combiner must take (update, current) of "
                         << element;
  if (body.getTerminator()->getOperand(0).getType() != element)
    return emitOpError() << "combiner must yield " << element;
  return success();
}

void ScatterOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (!isa<MemRefType>(getOriginal().getType()))
    return;
  effects.emplace_back(MemoryEffects::Read::get(), &getUpdatesMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getIndicesMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Read::get(), &getOriginalMutable(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getOriginalMutable(),
                       SideEffects::DefaultResource::get());
}
