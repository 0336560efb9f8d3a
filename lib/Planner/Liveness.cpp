//===- Liveness.cpp - peak memory of intermediates --------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// peakLiveness: the most bytes of intermediate buffers live at once in a
// function, an estimate of what one-shot bufferization allocates
// (docs/Planner.md, "Memory per rank").
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

/// The value whose buffer `result` reuses, if any (docs/Planner.md).
static Value aliasSource(OpResult result) {
  Operation *op = result.getOwner();
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
    if (!dps.hasPureTensorSemantics())
      return {};
    Value init = dps.getTiedOpOperand(result)->get();
    return init.hasOneUse() ? init : Value();
  }
  // An op that only moves its operand's elements, reshaped, cast or sliced
  // (DataMoveOpInterface), and writes no destination: a view of it.
  if (std::optional<DataMove> move = getDataMove(op);
      move && !move->converts && !move->repeats)
    return move->source->get();
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return loop.getInitArgs()[result.getResultNumber()];
  // In-place collectives reuse their input when nothing else reads it.
  if (isa<BroadcastOp, ReduceOp, AllReduceOp>(op)) {
    Value input = op->getOperand(0);
    return input.hasOneUse() ? input : Value();
  }
  return {};
}

static LivenessResult blockPeak(Block &block,
                                function_ref<int64_t(Value)> bytesOf) {
  struct Buffer {
    int64_t bytes;
    int def, last;
    bool external;
  };
  SmallVector<Buffer> buffers;
  DenseMap<Value, int> bufferOf;
  for (BlockArgument arg : block.getArguments()) {
    bufferOf[arg] = buffers.size();
    buffers.push_back({0, -1, -1, true});
  }
  LivenessResult result;
  SmallVector<int64_t> inner;
  int t = 0;
  for (Operation &op : block) {
    auto use = [&](Value v) {
      auto it = bufferOf.find(v);
      if (it != bufferOf.end())
        buffers[it->second].last = std::max(buffers[it->second].last, t);
    };
    for (Value v : op.getOperands())
      use(v);
    int64_t nested = 0;
    op.walk([&](Operation *n) {
      if (n != &op)
        for (Value v : n->getOperands())
          use(v);
    });
    for (Region &region : op.getRegions())
      for (Block &b : region) {
        LivenessResult r = blockPeak(b, bytesOf);
        nested = std::max(nested, r.peak);
        result.panels = std::max(result.panels, r.panels);
        if (isa<scf::ForOp>(op))
          result.panels = std::max(result.panels, r.peak);
      }
    inner.push_back(nested);
    if (isa<func::ReturnOp>(op))
      for (Value v : op.getOperands()) {
        auto it = bufferOf.find(v);
        if (it != bufferOf.end())
          buffers[it->second].external = true; // the caller's buffer
      }
    for (OpResult res : op.getResults()) {
      if (!isa<RankedTensorType>(res.getType()))
        continue;
      Value source = aliasSource(res);
      auto it = source ? bufferOf.find(source) : bufferOf.end();
      if (it != bufferOf.end()) {
        bufferOf[res] = it->second;
        continue;
      }
      int64_t bytes = bytesOf(res);
      // A tensor.empty is storage only for the one op that writes it in
      // place; with several users each writer gets its own buffer.
      if (isa<tensor::EmptyOp>(op) && !res.hasOneUse())
        bytes = 0;
      bufferOf[res] = buffers.size();
      buffers.push_back({bytes, t, t, false});
    }
    ++t;
  }
  // Sweep: a buffer is live from its definition to its last use.
  SmallVector<int64_t> delta(t + 2, 0);
  for (const Buffer &b : buffers) {
    if (b.external || b.def < 0)
      continue;
    delta[b.def] += b.bytes;
    delta[std::max(b.last, b.def) + 1] -= b.bytes;
  }
  int64_t live = 0;
  for (int i = 0; i < t; ++i) {
    live += delta[i];
    result.peak = std::max(result.peak, live + inner[i]);
  }
  return result;
}

LivenessResult
mlir::summa::plan::detail::peakLiveness(func::FuncOp func,
                                        function_ref<int64_t(Value)> bytesOf) {
  if (func.isExternal())
    return {};
  return blockPeak(func.getBody().front(), bytesOf);
}
