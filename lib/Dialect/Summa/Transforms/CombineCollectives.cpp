//===- CombineCollectives.cpp - merge independent all-reduces ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-combine-collectives. The sum of two scalar all-reduces
// is one all-reduce of the sum (a gradient norm's squares, one per
// parameter, each reduced over the axes its gradient is split over, become
// one all-reduce over all of them). All-reduces of one block that could run
// together (same group and kind, the earlier one's result unused until the
// later one) are packed into one 1-D buffer, reduced once and unpacked;
// only small ones (max-bytes), whose cost is the call's latency.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
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

/// The all-reduce (sum, of a scalar tensor, used by `user` alone) that
/// defines `v`, or null.
AllReduceOp scalarSum(Value v, Operation *user) {
  auto op = v.getDefiningOp<AllReduceOp>();
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!op || op.hasBufferSemantics() || op.getKind() != ReductionKind::sum ||
      !type || type.getRank() != 0 || !isa<FloatType>(type.getElementType()) ||
      !op.getResult().hasOneUse() || *op.getResult().getUsers().begin() != user)
    return nullptr;
  return op;
}

/// The two all-reduces whose results `generic` adds (a scalar `a + b`, as
/// summa-partition leaves a gradient norm's running sum), or none.
std::optional<std::pair<AllReduceOp, AllReduceOp>>
addedSums(linalg::GenericOp generic) {
  if (generic.getNumLoops() != 0 || generic.getNumDpsInputs() != 2 ||
      generic.getNumDpsInits() != 1)
    return std::nullopt;
  Block &body = generic.getRegion().front();
  auto add = dyn_cast<arith::AddFOp>(body.front());
  if (!add || body.getOperations().size() != 2 ||
      body.getTerminator()->getOperand(0) != add.getResult())
    return std::nullopt;
  Value in0 = body.getArgument(0), in1 = body.getArgument(1);
  if (!((add.getLhs() == in0 && add.getRhs() == in1) ||
        (add.getLhs() == in1 && add.getRhs() == in0)))
    return std::nullopt;
  AllReduceOp a = scalarSum(generic.getDpsInputs()[0], generic);
  AllReduceOp b = scalarSum(generic.getDpsInputs()[1], generic);
  if (!a || !b || a == b || a.getGridAttr() != b.getGridAttr())
    return std::nullopt;
  return std::make_pair(a, b);
}

/// Makes `generic` (a + b, each an all-reduce) add the all-reduces' inputs
/// and reduces its result once, over the axes of both: each term counts on
/// one rank only along the axes the other is reduced over and it is not
/// (its coordinates there 0; the body selects 0.0 elsewhere): partial sums
/// are the same on the replicas of the axes they are not reduced over
/// (replicated computations), so the result is a + b again, with one
/// collective. The add stays a generic (a kernel on the GPU), the flags
/// computed beside it from the rank's coordinates.
void mergeSums(linalg::GenericOp generic, AllReduceOp a, AllReduceOp b) {
  OpBuilder builder(generic);
  Location loc = generic.getLoc();
  SmallVector<GridAxis> axes;
  for (AllReduceOp op : {a, b})
    for (int32_t axis : op.getAxes())
      if (!llvm::is_contained(axes, static_cast<GridAxis>(axis)))
        axes.push_back(static_cast<GridAxis>(axis));
  Value origin = arith::ConstantIndexOp::create(builder, loc, 0);
  // Whether this rank counts the term of `op`: null if every rank does.
  auto counts = [&](AllReduceOp op) -> Value {
    Value all;
    for (GridAxis axis : axes) {
      if (llvm::is_contained(op.getAxes(), static_cast<int32_t>(axis)))
        continue;
      Value coord = CoordOp::create(
          builder, loc, builder.getIndexType(), op.getGridAttr(),
          GridAxisAttr::get(builder.getContext(), axis));
      Value first = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::eq, coord, origin);
      all = all ? arith::AndIOp::create(builder, loc, all, first).getResult()
                : first;
    }
    return all;
  };
  Block &body = generic.getRegion().front();
  auto add = cast<arith::AddFOp>(body.front());
  for (auto [i, op] : llvm::enumerate(SmallVector<AllReduceOp>{a, b})) {
    Value flag = counts(op);
    generic.setOperand(i, op.getInput());
    if (!flag)
      continue;
    OpBuilder inner(add);
    Value arg = body.getArgument(i);
    Value zero =
        arith::ConstantOp::create(inner, loc, inner.getZeroAttr(arg.getType()));
    Value term = arith::SelectOp::create(inner, loc, flag, arg, zero);
    add->replaceUsesOfWith(arg, term);
  }
  builder.setInsertionPointAfter(generic);
  Value local = generic.getResult(0);
  auto merged = AllReduceOp::create(
      builder, loc, local.getType(), local, a.getGridAttr(),
      getAxesAttr(builder.getContext(), axes), a.getKindAttr());
  local.replaceAllUsesExcept(merged.getResult(), merged);
  a.erase();
  b.erase();
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
    // Sums of scalar all-reduces first, in order: a running sum's next
    // addition finds the all-reduce the previous one left.
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk(
        [&](linalg::GenericOp generic) { generics.push_back(generic); });
    for (linalg::GenericOp generic : generics)
      if (auto sums = addedSums(generic))
        mergeSums(generic, sums->first, sums->second);
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
