//===- SinkRepeats.cpp - repeat elements after moving them --------------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-sink-repeats (see the pass description in Passes.td).
// A repeat (a linalg op that only copies its one input into a result of
// higher rank: repeat_kv's broadcast of grouped heads) followed by a chain
// of reshapes, transposes and elementwise ops of its result alone is
// rebuilt with the transposes and the elementwise ops on the input, before
// the repeat: the same values, each computed once, and the repeated tensor
// is the last one of the chain.
//
// The chain is followed in the repeat's iteration space: the value after
// each op of it is the repeat's loops in some order, merged in groups (a
// collapse_shape merges groups, a transpose permutes them, an elementwise
// op keeps them). At its end the input is transposed to the order its
// loops have there, the elementwise ops are applied to it, and one repeat
// and one collapse_shape give the chain's value again.
//
//===----------------------------------------------------------------------===//

#include "summa/Transforms/Passes.h"

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"
#include "summa/Dialect/Summa/OpRules/OpRules.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMASINKREPEATS
#include "summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

/// Whether `op` only copies the elements of its one tensor input into a
/// result of higher rank (each element to several places), without
/// converting them: a linalg.broadcast, or a generic that yields its input
/// read through a projected permutation (the op's data move), on static
/// shapes.
static bool isRepeat(linalg::LinalgOp op) {
  std::optional<DataMove> move = getDataMove(op);
  if (!move || !move->repeats || move->converts)
    return false;
  auto inType = dyn_cast<RankedTensorType>(move->source->get().getType());
  auto outType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return inType && outType && inType.hasStaticShape() &&
         outType.hasStaticShape();
}

/// Whether `op` computes each element of its result from the element of
/// `value` at the same place alone (and from scalars): a generic of
/// parallel loops, identity maps for `value` and the result, maps without
/// results for every other input, an init it does not read, and no
/// linalg.index in its body.
static bool isElementwiseOf(Operation *op, Value value) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getNumReductionLoops() != 0 ||
      !generic.hasPureTensorSemantics() ||
      generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)) ||
      !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
           .isIdentity() ||
      cast<RankedTensorType>(generic.getResultTypes().front()).getShape() !=
          cast<RankedTensorType>(value.getType()).getShape())
    return false;
  // An element's position must not matter: moved before the repeat and
  // the transposes, the op runs on other indices.
  if (generic.getBody()
          ->walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return false;
  unsigned uses = 0;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    AffineMap map = generic.getMatchingIndexingMap(input);
    if (input->get() == value) {
      ++uses;
      if (!map.isIdentity())
        return false;
    } else if (map.getNumResults() != 0) {
      return false;
    }
  }
  return uses == 1;
}

namespace {
/// A repeat and the ops after it that it is moved past.
struct RepeatChain {
  linalg::LinalgOp repeat;
  /// The ops of the chain after the repeat, in order.
  SmallVector<Operation *> ops;
  /// The value after the chain: the repeat's loops, merged in `groups`.
  SmallVector<SmallVector<unsigned>> groups;
  /// The elementwise ops of the chain, in order.
  SmallVector<linalg::GenericOp> elementwise;
  bool transposes = false;
};
} // namespace

/// The chain after `repeat`: each op the only user of the value before it.
static RepeatChain followChain(linalg::LinalgOp repeat) {
  RepeatChain chain;
  chain.repeat = repeat;
  AffineMap out = repeat.getMatchingIndexingMap(repeat.getDpsInitOperand(0));
  for (unsigned d = 0; d < out.getNumResults(); ++d)
    chain.groups.push_back({out.getDimPosition(d)});
  Value current = repeat->getResult(0);
  while (current.hasOneUse()) {
    Operation *user = *current.getUsers().begin();
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(user)) {
      SmallVector<SmallVector<unsigned>> merged;
      for (ReassociationIndices group : collapse.getReassociationIndices()) {
        SmallVector<unsigned> loops;
        for (int64_t d : group)
          llvm::append_range(loops, chain.groups[d]);
        merged.push_back(loops);
      }
      chain.groups = merged;
    } else if (auto transpose = dyn_cast<linalg::TransposeOp>(user);
               transpose && transpose.getInput() == current &&
               transpose.hasPureTensorSemantics()) {
      SmallVector<SmallVector<unsigned>> permuted;
      for (int64_t d : transpose.getPermutation())
        permuted.push_back(chain.groups[d]);
      chain.groups = permuted;
      chain.transposes = true;
    } else if (isElementwiseOf(user, current)) {
      chain.elementwise.push_back(cast<linalg::GenericOp>(user));
    } else {
      break;
    }
    chain.ops.push_back(user);
    current = user->getResult(0);
  }
  return chain;
}

/// Rebuilds the chain's last value with the transposes and the elementwise
/// ops before the repeat; returns the new value.
static Value rebuild(OpBuilder &b, const RepeatChain &chain) {
  linalg::LinalgOp repeat = chain.repeat;
  Operation *last = chain.ops.back();
  Location loc = last->getLoc();
  b.setInsertionPointAfter(last);
  SmallVector<int64_t> loopSizes = repeat.getStaticLoopRanges();
  SmallVector<unsigned> order;
  for (const SmallVector<unsigned> &group : chain.groups)
    llvm::append_range(order, group);
  SmallVector<unsigned> positionOf(order.size());
  for (auto [i, loop] : llvm::enumerate(order))
    positionOf[loop] = i;

  // The input, its dimensions in the order their loops have at the end.
  Value input = repeat.getDpsInputOperand(0)->get();
  AffineMap in = repeat.getMatchingIndexingMap(repeat.getDpsInputOperand(0));
  SmallVector<int64_t> inputOrder =
      llvm::to_vector(llvm::seq<int64_t>(0, in.getNumResults()));
  llvm::stable_sort(inputOrder, [&](int64_t x, int64_t y) {
    return positionOf[in.getDimPosition(x)] < positionOf[in.getDimPosition(y)];
  });
  auto inType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape;
  for (int64_t d : inputOrder)
    shape.push_back(inType.getDimSize(d));
  Value moved = input;
  if (!llvm::equal(inputOrder, llvm::seq<int64_t>(0, inputOrder.size()))) {
    Value init =
        tensor::EmptyOp::create(b, loc, shape, inType.getElementType());
    moved = linalg::TransposeOp::create(b, loc, input, init, inputOrder)
                ->getResult(0);
  }
  // The elementwise ops, on the input's elements.
  for (linalg::GenericOp op : chain.elementwise) {
    Type element = getElementTypeOrSelf(op.getResultTypes().front());
    Value init = tensor::EmptyOp::create(b, op.getLoc(), shape, element);
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    AffineMap identity = b.getMultiDimIdentityMap(shape.size());
    for (OpOperand *operand : op.getDpsInputOperands()) {
      bool chained = op.getMatchingIndexingMap(operand).getNumResults() != 0;
      inputs.push_back(chained ? moved : operand->get());
      maps.push_back(chained ? identity
                             : AffineMap::get(shape.size(), 0, b.getContext()));
    }
    maps.push_back(identity);
    SmallVector<utils::IteratorType> iterators(shape.size(),
                                               utils::IteratorType::parallel);
    auto copy =
        linalg::GenericOp::create(b, op.getLoc(), TypeRange{init.getType()},
                                  inputs, ValueRange{init}, maps, iterators);
    IRMapping body;
    op.getRegion().cloneInto(&copy.getRegion(), body);
    copy->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    moved = copy.getResult(0);
  }
  // One repeat into the loops' final order, merged as the chain merges them.
  Type element = getElementTypeOrSelf(moved.getType());
  SmallVector<int64_t> full;
  for (unsigned loop : order)
    full.push_back(loopSizes[loop]);
  SmallVector<AffineExpr> read;
  for (int64_t d : inputOrder)
    read.push_back(b.getAffineDimExpr(positionOf[in.getDimPosition(d)]));
  Value init = tensor::EmptyOp::create(b, repeat.getLoc(), full, element);
  SmallVector<AffineMap> maps = {
      AffineMap::get(full.size(), 0, read, b.getContext()),
      b.getMultiDimIdentityMap(full.size())};
  SmallVector<utils::IteratorType> iterators(full.size(),
                                             utils::IteratorType::parallel);
  auto repeated = linalg::GenericOp::create(
      b, repeat.getLoc(), TypeRange{init.getType()}, ValueRange{moved},
      ValueRange{init}, maps, iterators,
      [](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, args.front());
      });
  repeated->setDiscardableAttrs(repeat->getDiscardableAttrDictionary());
  Value result = repeated.getResult(0);
  SmallVector<ReassociationIndices> groups;
  int64_t next = 0;
  for (const SmallVector<unsigned> &group : chain.groups) {
    ReassociationIndices indices;
    for (size_t i = 0; i < group.size(); ++i)
      indices.push_back(next++);
    groups.push_back(indices);
  }
  if (groups.size() != full.size())
    result = tensor::CollapseShapeOp::create(b, loc, result, groups);
  return result;
}

LogicalResult mlir::summa::sinkRepeats(Operation *root) {
  SmallVector<linalg::LinalgOp> repeats;
  root->walk([&](linalg::LinalgOp op) {
    if (isRepeat(op))
      repeats.push_back(op);
  });
  OpBuilder b(root->getContext());
  for (linalg::LinalgOp repeat : repeats) {
    RepeatChain chain = followChain(repeat);
    // Only reshapes after it: nothing is computed on repeated elements.
    if (!chain.transposes && chain.elementwise.empty())
      continue;
    Operation *last = chain.ops.back();
    Value result = rebuild(b, chain);
    if (result.getType() != last->getResult(0).getType())
      return last->emitOpError("summa-sink-repeats: rebuilt as ")
             << result.getType() << ", not " << last->getResult(0).getType();
    last->getResult(0).replaceAllUsesWith(result);
    SmallVector<Operation *> dead(llvm::reverse(chain.ops));
    dead.push_back(repeat);
    for (Operation *op : dead) {
      // Its init too, where it was an empty tensor only it used.
      Operation *init = nullptr;
      if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
        init = dps.getDpsInitOperand(0)->get().getDefiningOp();
      op->erase();
      if (isa_and_nonnull<tensor::EmptyOp>(init) && init->use_empty())
        init->erase();
    }
  }
  return success();
}

namespace {
struct SummaSinkRepeatsPass
    : summa::impl::SummaSinkRepeatsBase<SummaSinkRepeatsPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(requireOpRules(getOperation())) ||
        failed(sinkRepeats(getOperation())))
      signalPassFailure();
  }
};
} // namespace
