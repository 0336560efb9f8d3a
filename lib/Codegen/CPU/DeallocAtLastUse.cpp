//===- DeallocAtLastUse.cpp - free buffers when they die --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-dealloc-at-last-use: the unconditional entries of the
// bufferization.dealloc ops that ownership-based deallocation puts at the end
// of each block become memref.dealloc ops right after the buffer's last use,
// when the buffer provably does not escape its block.
//
//===----------------------------------------------------------------------===//

#include "summa/Codegen/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMADEALLOCATLASTUSE
#include "summa/Codegen/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

/// The allocation a memref is a view of, following view sources.
static memref::AllocOp rootAllocation(Value v) {
  while (v) {
    if (auto alloc = v.getDefiningOp<memref::AllocOp>())
      return alloc;
    auto view = v.getDefiningOp<ViewLikeOpInterface>();
    if (!view)
      return {};
    v = view.getViewSource();
  }
  return {};
}

/// The op of `block` after which `alloc` can be freed: the last op of the
/// block that holds a use of the allocation or of a view of it, or the
/// allocation itself when nothing uses it. Null when the buffer may escape:
/// an alias is yielded, returned, carried by a loop, freed elsewhere, or
/// produced by an op that is not a view. The dealloc's operand `index`
/// (the buffer itself, or the base buffer of `metadata`) is the one use
/// that does not count.
static Operation *lastUseInBlock(memref::AllocOp alloc, Block *block,
                                 bufferization::DeallocOp dealloc,
                                 unsigned index, Operation *metadata) {
  Operation *last = alloc;
  SmallVector<Value> worklist{alloc.getResult()};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user == dealloc) {
        // The entry itself, when it names the buffer directly.
        if (metadata || use.getOperandNumber() != index)
          return nullptr;
        continue;
      }
      if (user == metadata) {
        // Only the one dealloc entry may read its base buffer.
        Value base = metadata->getResult(0);
        if (!base.hasOneUse() || *base.getUsers().begin() != dealloc ||
            dealloc.getMemrefs()[index] != base)
          return nullptr;
        continue;
      }
      if (isa<bufferization::DeallocOp, memref::DeallocOp>(user) ||
          user->hasTrait<OpTrait::IsTerminator>())
        return nullptr;
      auto view = dyn_cast<ViewLikeOpInterface>(user);
      if (view && view.getViewSource() == v) {
        for (Value r : user->getResults())
          if (isa<BaseMemRefType>(r.getType()))
            worklist.push_back(r);
      } else if (llvm::any_of(user->getResultTypes(),
                              [](Type t) { return isa<BaseMemRefType>(t); })) {
        return nullptr;
      }
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor)
        return nullptr;
      if (last->isBeforeInBlock(ancestor))
        last = ancestor;
    }
  }
  return last;
}

namespace {
struct SummaDeallocAtLastUsePass
    : public summa::impl::SummaDeallocAtLastUseBase<SummaDeallocAtLastUsePass> {
  void runOnOperation() override {
    SmallVector<bufferization::DeallocOp> deallocs;
    getOperation()->walk(
        [&](bufferization::DeallocOp op) { deallocs.push_back(op); });
    for (bufferization::DeallocOp dealloc : deallocs)
      rewrite(dealloc);
  }

  /// Takes out of `dealloc` the entries it can free earlier or never.
  void rewrite(bufferization::DeallocOp dealloc) {
    Block *block = dealloc->getBlock();
    SmallVector<std::pair<memref::AllocOp, Operation *>> early;
    SmallVector<Value> memrefs, conditions;
    for (auto [index, pair] : llvm::enumerate(
             llvm::zip(dealloc.getMemrefs(), dealloc.getConditions()))) {
      auto [memref, condition] = pair;
      if (matchPattern(condition, m_Zero()))
        continue; // never freed
      // The buffer, named directly or by its base buffer.
      auto extract = memref.getDefiningOp<memref::ExtractStridedMetadataOp>();
      Operation *metadata = extract;
      memref::AllocOp alloc =
          rootAllocation(extract ? extract.getSource() : memref);
      Operation *last = nullptr;
      if (alloc && alloc->getBlock() == block &&
          matchPattern(condition, m_One()) &&
          !llvm::is_contained(dealloc.getRetained(), memref))
        last = lastUseInBlock(alloc, block, dealloc, index, metadata);
      if (!last) {
        memrefs.push_back(memref);
        conditions.push_back(condition);
        continue;
      }
      early.push_back({alloc, last});
    }
    if (memrefs.size() == dealloc.getMemrefs().size())
      return;
    // All positions are known before the first insertion.
    for (auto [alloc, last] : early) {
      OpBuilder b(last->getContext());
      b.setInsertionPointAfter(last);
      memref::DeallocOp::create(b, alloc.getLoc(), alloc.getResult());
    }
    if (memrefs.empty() && dealloc.getRetained().empty()) {
      dealloc.erase();
      return;
    }
    OpBuilder b(dealloc);
    auto replacement = bufferization::DeallocOp::create(
        b, dealloc.getLoc(), memrefs, conditions, dealloc.getRetained());
    dealloc.replaceAllUsesWith(replacement.getResults());
    dealloc.erase();
  }
};
} // namespace
