//===- Recompute.cpp - where a derived backward recomputes ----------------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "summa/Transforms/Recompute.h"

#include "summa/Transforms/Accumulate.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::summa;

/// Whether `op` is a product: a GEMM or any contraction (the work a
/// segment is worth keeping a checkpoint for).
static bool isProduct(Operation *op) {
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalg::isaContractionOpInterface(linalgOp);
}

/// Whether `op` reads a value of `set` (inside its bodies too).
static bool reads(Operation *op, const llvm::DenseSet<Value> &set) {
  bool found = false;
  op->walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      found |= set.contains(v);
  });
  return found;
}

SmallVector<size_t> mlir::summa::findRecomputeCuts(func::FuncOp func,
                                                   ArrayRef<Operation *> ops,
                                                   ArrayRef<unsigned> params) {
  Block &block = func.getBody().front();
  // The values that depend on the batch.
  llvm::DenseSet<Value> batch;
  for (BlockArgument arg : batchArguments(func, params))
    batch.insert(arg);
  DenseMap<Operation *, size_t> position;
  for (auto [i, op] : llvm::enumerate(ops))
    position[op] = i;
  // Each batch value defined by one of `ops`: the position of its last
  // reader (a reader inside a body counts as the op that holds it; the
  // return as the end).
  SmallVector<SmallVector<Value>> endingAt(ops.size() + 1);
  SmallVector<size_t> definedAt;
  for (auto [i, op] : llvm::enumerate(ops)) {
    if (!reads(op, batch))
      continue;
    for (Value r : op->getResults()) {
      batch.insert(r);
      size_t last = i;
      for (Operation *user : r.getUsers()) {
        Operation *top = block.findAncestorOpInBlock(*user);
        auto it = top ? position.find(top) : position.end();
        last = std::max(last, it == position.end() ? ops.size() : it->second);
      }
      endingAt[last].push_back(r);
    }
  }
  // Sweep: the batch values live across position i are those defined
  // before i whose last reader is at or after i. Of the positions with one
  // such value after a product, the last one before the next product is
  // the cut (the residual stream just before a layer normalisation).
  SmallVector<size_t> cuts;
  std::optional<size_t> pending;
  int64_t live = 0;
  bool product = false;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i > 0 && live == 1 && product)
      pending = i;
    if (isProduct(ops[i])) {
      if (pending)
        cuts.push_back(*pending);
      pending.reset();
      product = true;
    }
    for (Value r : ops[i]->getResults())
      if (batch.contains(r))
        ++live;
    live -= static_cast<int64_t>(endingAt[i].size());
  }
  return cuts;
}

SmallVector<std::pair<size_t, size_t>>
mlir::summa::findAttentionRanges(func::FuncOp func, ArrayRef<Operation *> ops,
                                 ArrayRef<unsigned> params) {
  llvm::DenseSet<Value> batch;
  for (BlockArgument arg : batchArguments(func, params))
    batch.insert(arg);
  // Products of two batch values, by position.
  SmallVector<size_t> products;
  for (auto [i, op] : llvm::enumerate(ops)) {
    if (!reads(op, batch))
      continue;
    batch.insert(op->getResults().begin(), op->getResults().end());
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (linalgOp && isProduct(op) &&
        llvm::all_of(linalgOp.getDpsInputs(),
                     [&](Value v) { return batch.contains(v); }))
      products.push_back(i);
  }
  SmallVector<std::pair<size_t, size_t>> ranges;
  for (size_t p = 0; p + 1 < products.size(); ++p) {
    // What the first product's result flows into, up to the next product.
    size_t begin = products[p], end = products[p + 1];
    llvm::DenseSet<Value> derived(ops[begin]->getResults().begin(),
                                  ops[begin]->getResults().end());
    for (size_t i = begin + 1; i <= end; ++i)
      if (reads(ops[i], derived))
        derived.insert(ops[i]->getResults().begin(),
                       ops[i]->getResults().end());
    if (!llvm::is_contained(derived, ops[end]->getResult(0)))
      continue;
    ranges.push_back({begin, end + 1});
    ++p;
  }
  return ranges;
}
