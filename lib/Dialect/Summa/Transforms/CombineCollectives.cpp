//===- CombineCollectives.cpp - merge independent all-reduces ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-combine-collectives. All-reduces of one block that could
// run together (same group and kind, the earlier one's result unused until
// the later one) are packed into one 1-D buffer, reduced once and unpacked;
// only small ones (max-bytes), whose cost is the call's latency.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMACOMBINECOLLECTIVES
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// The bytes `op` reduces; -1 if its shape or element width is not static.
int64_t reducedBytes(AllReduceOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return -1;
  return type.getNumElements() *
         llvm::divideCeil(type.getElementTypeBitWidth(), 8);
}

/// True if `a` and `b` reduce over the same group in the same way.
bool compatible(AllReduceOp a, AllReduceOp b) {
  auto ta = dyn_cast<RankedTensorType>(a.getInput().getType());
  auto tb = dyn_cast<RankedTensorType>(b.getInput().getType());
  return ta && tb && ta.hasStaticShape() && tb.hasStaticShape() &&
         ta.getElementType() == tb.getElementType() &&
         a.getGridAttr() == b.getGridAttr() && a.getAxes() == b.getAxes() &&
         a.getKind() == b.getKind();
}

/// True if no user of `op`'s result comes before `later` in their block.
bool unusedBefore(AllReduceOp op, Operation *later) {
  for (Operation *user : op.getResult().getUsers()) {
    Operation *inBlock = op->getBlock()->findAncestorOpInBlock(*user);
    if (!inBlock || inBlock->isBeforeInBlock(later) || inBlock == later)
      return false;
  }
  return true;
}

/// Flattens `v` to 1-D.
Value flatten(OpBuilder &b, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getRank() == 1)
    return v;
  if (type.getRank() == 0) // a scalar (a norm's partial sum): [1]
    return tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({1}, type.getElementType()), v,
        ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::CollapseShapeOp::create(b, loc, v,
                                         ArrayRef<ReassociationIndices>{all});
}

/// Restores a 1-D tensor to `type`.
Value unflatten(OpBuilder &b, Location loc, Value v, RankedTensorType type) {
  if (type.getRank() == 1)
    return v;
  if (type.getRank() == 0)
    return tensor::CollapseShapeOp::create(b, loc, type, v,
                                           ArrayRef<ReassociationIndices>{});
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::ExpandShapeOp::create(b, loc, type, v,
                                       ArrayRef<ReassociationIndices>{all});
}

/// Replaces `group` (in block order) by one all-reduce at the last one.
void combine(ArrayRef<AllReduceOp> group) {
  AllReduceOp last = group.back();
  OpBuilder b(last);
  Location loc = last.getLoc();
  Type element =
      cast<RankedTensorType>(last.getInput().getType()).getElementType();
  int64_t total = 0;
  SmallVector<int64_t> offsets;
  for (AllReduceOp op : group) {
    offsets.push_back(total);
    total += cast<RankedTensorType>(op.getInput().getType()).getNumElements();
  }
  auto packedType = RankedTensorType::get({total}, element);
  Value packed =
      tensor::EmptyOp::create(b, loc, packedType.getShape(), element);
  for (auto [i, offset] : llvm::enumerate(offsets)) {
    AllReduceOp op = group[i];
    Value flat = flatten(b, loc, op.getInput());
    int64_t n = cast<RankedTensorType>(flat.getType()).getNumElements();
    packed = tensor::InsertSliceOp::create(
        b, loc, flat, packed, ArrayRef<OpFoldResult>{b.getIndexAttr(offset)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(n)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  }
  Value reduced =
      AllReduceOp::create(b, loc, packedType, packed, last.getGridAttr(),
                          last.getAxesAttr(), last.getKindAttr())
          .getResult();
  for (auto [i, offset] : llvm::enumerate(offsets)) {
    AllReduceOp op = group[i];
    auto type = cast<RankedTensorType>(op.getResult().getType());
    auto sliceType = RankedTensorType::get({type.getNumElements()}, element);
    Value slice = tensor::ExtractSliceOp::create(
        b, loc, sliceType, reduced,
        ArrayRef<OpFoldResult>{b.getIndexAttr(offset)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(type.getNumElements())},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    op.getResult().replaceAllUsesWith(unflatten(b, loc, slice, type));
  }
  for (AllReduceOp op : llvm::to_vector(group))
    op.erase();
}

struct SummaCombineCollectivesPass
    : summa::impl::SummaCombineCollectivesBase<SummaCombineCollectivesPass> {
  using Base::Base;

  /// True if `op` may join a group: a tensor all-reduce small enough to be
  /// latency-bound.
  bool packable(AllReduceOp op) {
    int64_t bytes = reducedBytes(op);
    return !op.hasBufferSemantics() && bytes >= 0 && bytes <= maxBytes;
  }

  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation().walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks) {
      SmallVector<AllReduceOp> ops(block->getOps<AllReduceOp>());
      SmallVector<bool> taken(ops.size(), false);
      for (size_t i = 0; i < ops.size(); ++i) {
        if (taken[i] || !packable(ops[i]))
          continue;
        // Grow a group while every member's result waits for the newest.
        SmallVector<AllReduceOp> group = {ops[i]};
        for (size_t j = i + 1; j < ops.size(); ++j) {
          if (taken[j] || !packable(ops[j]) || !compatible(ops[i], ops[j]))
            continue;
          if (!llvm::all_of(group, [&](AllReduceOp member) {
                return unusedBefore(member, ops[j]);
              }))
            break;
          group.push_back(ops[j]);
          taken[j] = true;
        }
        if (group.size() > 1)
          combine(group);
      }
    }
  }
};

} // namespace
