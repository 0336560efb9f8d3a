//===- ReusePanels.cpp - keep SUMMA panels for a later loop -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-reuse-panels: a SUMMA loop that broadcasts the tile %x
// over a group step for step keeps the panels in a stack,
//
//   %s0 = tensor.empty() : tensor<q x tile>
//   %r, %s = scf.for %t ... iter_args(..., %st = %s0) {
//     %p = summa.broadcast %x on @g axes = A root = %t
//     ...
//     %st2 = tensor.insert_slice %p into %st[%t, 0, ..]
//     scf.yield ..., %st2
//   }
//
// and a later loop of the same block that broadcasts %x over A with
// root = its own step reads `tensor.extract_slice %s[%t, 0, ..]` instead.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "SummaLoops.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAREUSEPANELS
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// A step panel broadcast of a SUMMA loop: a tile defined outside the loop,
/// broadcast from root = the step.
bool isStepPanel(BroadcastOp op, scf::ForOp loop) {
  return !op.hasBufferSemantics() && op->getParentOp() == loop &&
         op.getRoot() == loop.getInductionVar() &&
         loop.isDefinedOutsideOfLoop(op.getInput()) &&
         cast<RankedTensorType>(op.getInput().getType()).hasStaticShape();
}

/// One tile broadcast step for step by several loops of a block.
struct PanelSet {
  BroadcastOp keeper;
  SmallVector<BroadcastOp> reusers;
  int64_t steps = 0;
  int64_t bytes() {
    auto type = cast<RankedTensorType>(keeper.getInput().getType());
    return steps * type.getNumElements() *
           llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
};

struct SummaReusePanelsPass
    : summa::impl::SummaReusePanelsBase<SummaReusePanelsPass> {
  using Base::Base;
  void runOnOperation() override;
  void keep(IRRewriter &rewriter, scf::ForOp loop, ArrayRef<PanelSet *> sets);
};

} // namespace

void SummaReusePanelsPass::keep(IRRewriter &rewriter, scf::ForOp loop,
                                ArrayRef<PanelSet *> sets) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> inits;
  for (PanelSet *set : sets) {
    auto tile = cast<RankedTensorType>(set->keeper.getInput().getType());
    SmallVector<int64_t> shape = {set->steps};
    llvm::append_range(shape, tile.getShape());
    inits.push_back(
        tensor::EmptyOp::create(rewriter, loc, shape, tile.getElementType()));
  }
  // The slot of step `t` in a stack of `tile`s.
  auto slot = [](OpBuilder &b, Value t, RankedTensorType tile) {
    SmallVector<OpFoldResult> offsets = {t}, sizes = {b.getIndexAttr(1)},
                              strides = {b.getIndexAttr(1)};
    for (int64_t d : tile.getShape()) {
      offsets.push_back(b.getIndexAttr(0));
      sizes.push_back(b.getIndexAttr(d));
      strides.push_back(b.getIndexAttr(1));
    }
    return std::make_tuple(offsets, sizes, strides);
  };
  FailureOr<LoopLikeOpInterface> grown = loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location l, ArrayRef<BlockArgument> stacks) {
        SmallVector<Value> yields;
        for (auto [set, stack] : llvm::zip(sets, stacks)) {
          Value panel = set->keeper.getResult();
          auto tile = cast<RankedTensorType>(panel.getType());
          auto [offsets, sizes, strides] = slot(b, set->keeper.getRoot(), tile);
          yields.push_back(tensor::InsertSliceOp::create(
              b, l, panel, stack, offsets, sizes, strides));
        }
        return yields;
      });
  if (failed(grown)) {
    loop.emitOpError() << "summa-reuse-panels: cannot add the panel stacks";
    return signalPassFailure();
  }
  auto newLoop = cast<scf::ForOp>(grown->getOperation());
  unsigned first = newLoop.getNumResults() - sets.size();
  for (auto [i, set] : llvm::enumerate(sets)) {
    Value stack = newLoop.getResult(first + i);
    if (emitRemarks)
      set->keeper.emitRemark()
          << "panels kept for " << set->reusers.size()
          << " later loop(s): " << set->bytes() << " bytes per rank";
    for (BroadcastOp reuse : set->reusers) {
      auto reuseLoop = cast<scf::ForOp>(reuse->getParentOp());
      auto tile = cast<RankedTensorType>(reuse.getResult().getType());
      rewriter.setInsertionPoint(reuse);
      auto [offsets, sizes, strides] =
          slot(rewriter, reuseLoop.getInductionVar(), tile);
      Value panel = tensor::ExtractSliceOp::create(
          rewriter, reuse.getLoc(), tile, stack, offsets, sizes, strides);
      if (emitRemarks)
        reuse.emitRemark() << "broadcast replaced by the panels kept at "
                           << set->keeper.getLoc();
      rewriter.replaceOp(reuse, panel);
    }
  }
}

void SummaReusePanelsPass::runOnOperation() {
  // Panel sets by (block, tile, group, grid, steps), in program order.
  using Key = std::tuple<Block *, Value, Attribute, Attribute, int64_t>;
  llvm::MapVector<Key, PanelSet> sets;
  getOperation().walk([&](BroadcastOp op) {
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    if (!loop)
      return;
    int64_t steps = getSummaSteps(loop);
    if (!steps || !isStepPanel(op, loop))
      return;
    Key key{loop->getBlock(), op.getInput(), op.getAxesAttr(), op.getGridAttr(),
            steps};
    auto [it, inserted] = sets.try_emplace(key);
    PanelSet &set = it->second;
    if (inserted) {
      set.keeper = op;
      set.steps = steps;
      return;
    }
    // One loop broadcasting the same panel twice keeps its own.
    if (op->getParentOp() != set.keeper->getParentOp())
      set.reusers.push_back(op);
  });
  // Most reuses per kept byte first, then program order; within the budget.
  SmallVector<PanelSet *> candidates;
  for (auto &entry : sets)
    if (!entry.second.reusers.empty())
      candidates.push_back(&entry.second);
  llvm::stable_sort(candidates, [](PanelSet *a, PanelSet *b) {
    return a->reusers.size() > b->reusers.size();
  });
  int64_t used = 0;
  llvm::MapVector<Operation *, SmallVector<PanelSet *>> byLoop;
  for (PanelSet *set : candidates) {
    if (memoryBudget >= 0 && used + set->bytes() > memoryBudget) {
      if (emitRemarks)
        set->keeper.emitRemark()
            << "panels not kept: " << set->bytes()
            << " bytes per rank would exceed the memory budget of "
            << memoryBudget.getValue() << " (" << used << " used)";
      continue;
    }
    used += set->bytes();
    byLoop[set->keeper->getParentOp()].push_back(set);
  }
  IRRewriter rewriter(&getContext());
  for (auto &[loop, loopSets] : byLoop)
    keep(rewriter, cast<scf::ForOp>(loop), loopSets);
}
