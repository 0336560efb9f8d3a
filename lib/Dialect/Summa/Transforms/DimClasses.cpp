//===- DimClasses.cpp - dimensions that index the same space ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// A union-find over (value, dimension) built from every op of a function
// (DimClasses.h); each class keeps the gcd of the chunks its slices cut.
//
//===----------------------------------------------------------------------===//

#include "DimClasses.h"

#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Dialect/Summa/OpRules/OpRules.h"
#include "summa/Transforms/Gather.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/SmallBitVector.h"

#include <numeric>

using namespace mlir;
using namespace mlir::summa;

DimClasses::Key DimClasses::find(Key k) {
  auto it = parent.find(k);
  if (it == parent.end() || it->second == k)
    return k;
  Key root = find(it->second);
  parent[k] = root;
  return root;
}

void DimClasses::unite(Key a, Key b) {
  Key ra = find(a), rb = find(b);
  if (ra == rb)
    return;
  parent[ra] = rb;
  int64_t ca = chunks.lookup(ra), cb = chunks.lookup(rb);
  chunks[rb] = ca && cb ? std::gcd(ca, cb) : ca + cb;
  chunks.erase(ra);
}

void DimClasses::addChunk(Key k, int64_t chunk) {
  Key root = find(k);
  int64_t &have = chunks[root];
  have = have ? std::gcd(have, chunk) : chunk;
}

int64_t DimClasses::getChunk(Value v, int64_t dim) {
  return chunks.lookup(find({v, dim}));
}

/// The size of dimension `d` of `v`'s ranked tensor type, or 0.
static int64_t dimSize(Value v, int64_t d) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && d < type.getRank() ? type.getDimSize(d) : 0;
}

/// The one dimension of `group` whose size in `type` is not 1, if exactly
/// one is.
static std::optional<int64_t> soleNonUnit(RankedTensorType type,
                                          const ReassociationIndices &group) {
  std::optional<int64_t> found;
  for (int64_t d : group) {
    if (type.getDimSize(d) == 1)
      continue;
    if (found)
      return std::nullopt;
    found = d;
  }
  return found;
}

/// The chunk a piece of `size` at `offset` cuts a dimension of `whole`
/// into, or 0 when it takes it whole.
static int64_t chunkOf(int64_t whole, int64_t offset, int64_t size) {
  if (ShapedType::isDynamic(whole) || ShapedType::isDynamic(offset) ||
      ShapedType::isDynamic(size) || size == whole)
    return 0;
  return std::gcd(whole, std::gcd(offset, size));
}

DimClasses::DimClasses(func::FuncOp func) {
  func.walk([&](Operation *op) {
    // Only the function's own ops: a body's scalars have no dimensions.
    if (op->getParentOp() == func.getOperation())
      visit(op);
  });
}

void DimClasses::visit(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
    DenseMap<unsigned, Key> first;
    auto connect = [&](Value v, AffineMap map) {
      for (auto [i, expr] : llvm::enumerate(map.getResults())) {
        auto dim = dyn_cast<AffineDimExpr>(expr);
        int64_t size = dimSize(v, i);
        if (!dim || size <= 1 || size != ranges[dim.getPosition()])
          continue;
        auto [it, fresh] = first.try_emplace(dim.getPosition(), Key{v, i});
        if (!fresh)
          unite(it->second, {v, static_cast<int64_t>(i)});
      }
    };
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<RankedTensorType>(operand.get().getType()))
        continue;
      // An init the body does not read, or a fill or a splat, carries no
      // data: many ops share one tensor.empty, which would join them all.
      if (isCheapToCopy(operand.get().getDefiningOp()) ||
          (linalgOp.isDpsInit(&operand) &&
           !linalgOp.payloadUsesValueFromOperand(&operand)))
        continue;
      connect(operand.get(), linalgOp.getMatchingIndexingMap(&operand));
    }
    for (OpResult res : op->getResults())
      if (isa<RankedTensorType>(res.getType()))
        connect(res, linalgOp.getIndexingMapMatchingResult(res));
    // A gather's table: the dimensions its loops index directly.
    if (std::optional<Gather> gather = matchGather(op))
      for (auto [d, loop] : llvm::enumerate(gather->loops)) {
        auto it = loop ? first.find(*loop) : first.end();
        if (it != first.end() &&
            dimSize(gather->getTable(), d) == ranges[*loop])
          unite(it->second, {gather->getTable(), static_cast<int64_t>(d)});
      }
    return;
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    for (auto [g, group] : llvm::enumerate(expand.getReassociationIndices()))
      if (std::optional<int64_t> d = soleNonUnit(expand.getResultType(), group))
        unite({expand.getSrc(), static_cast<int64_t>(g)},
              {expand.getResult(), *d});
    return;
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    for (auto [g, group] : llvm::enumerate(collapse.getReassociationIndices()))
      if (std::optional<int64_t> d = soleNonUnit(collapse.getSrcType(), group))
        unite({collapse.getSrc(), *d},
              {collapse.getResult(), static_cast<int64_t>(g)});
    return;
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    if (!slice.hasUnitStride())
      return;
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    for (int64_t d = 0, r = 0; d < slice.getSourceType().getRank(); ++d) {
      int64_t whole = slice.getSourceType().getDimSize(d);
      int64_t chunk = chunkOf(whole, slice.getStaticOffsets()[d],
                              slice.getStaticSizes()[d]);
      if (chunk)
        addChunk({slice.getSource(), d}, chunk);
      else if (!dropped.test(d) && whole > 1)
        unite({slice.getSource(), d}, {slice.getResult(), r});
      if (!dropped.test(d))
        ++r;
    }
    return;
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    if (!insert.hasUnitStride())
      return;
    RankedTensorType dest = insert.getDestType();
    for (int64_t d = 0; d < dest.getRank(); ++d) {
      if (dest.getDimSize(d) <= 1)
        continue;
      unite({insert.getDest(), d}, {insert.getResult(), d});
      if (int64_t chunk =
              chunkOf(dest.getDimSize(d), insert.getStaticOffsets()[d],
                      insert.getStaticSizes()[d]))
        addChunk({insert.getResult(), d}, chunk);
    }
    return;
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    int64_t dim = concat.getDim(), offset = 0;
    RankedTensorType type = concat.getResultType();
    for (Value input : concat.getInputs()) {
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (d != dim && type.getDimSize(d) > 1)
          unite({input, d}, {concat.getResult(), d});
      int64_t size = dimSize(input, dim);
      if (int64_t chunk = chunkOf(type.getDimSize(dim), offset, size))
        addChunk({concat.getResult(), dim}, chunk);
      offset += size;
    }
    return;
  }
  if (auto scatter = dyn_cast<ScatterOp>(op)) {
    if (!scatter.getResult())
      return;
    int64_t batch = scatter.getBatchRank();
    auto type = cast<RankedTensorType>(scatter.getResult().getType());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.getDimSize(d) > 1 &&
          !isCheapToCopy(scatter.getOriginal().getDefiningOp()))
        unite({scatter.getOriginal(), d}, {scatter.getResult(), d});
    for (auto [i, d] : llvm::enumerate(scatter.getSliceDims()))
      if (dimSize(scatter.getUpdates(), batch + i) == type.getDimSize(d) &&
          type.getDimSize(d) > 1)
        unite({scatter.getUpdates(), batch + static_cast<int64_t>(i)},
              {scatter.getResult(), d});
    return;
  }
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    // A result that updates an argument is laid out like it.
    auto func = cast<func::FuncOp>(ret->getParentOp());
    for (OpOperand &operand : ret->getOpOperands()) {
      BlockArgument arg = getUpdatedArgument(func, operand.getOperandNumber());
      if (!arg || arg.getType() != operand.get().getType())
        continue;
      for (int64_t d = 0; d < cast<RankedTensorType>(arg.getType()).getRank();
           ++d)
        if (dimSize(arg, d) > 1)
          unite({arg, d}, {operand.get(), d});
    }
  }
}
