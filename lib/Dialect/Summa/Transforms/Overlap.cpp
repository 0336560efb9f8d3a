//===- Overlap.cpp - software-pipelined SUMMA loops -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-overlap. A bufferized SUMMA step t
//
//   A(t): for each panel X: X = alloc; copy src_X -> X;
//         broadcast X root = t
//   B(t): the step's compute (GEMMs into partial products P), with
//         reduce P root = t
//   C(t): what reads a reduced P (the owner's accumulation)
//
// becomes, with async collectives and two buffers per panel and partial
// product (X[t%2], P[t%2]):
//
//   start A(0)
//   step 0:        start A(1); wait A(0); B(0), reduces started
//   step t:        start A(t+1); wait A(t); B(t); wait R(t-1); C(t-1)
//   step q-1:      wait A(q-1); B(q-1); wait R(q-2); C(q-2)
//   epilogue:      wait R(q-1); C(q-1)
//
// Steps 1..q-2 are an scf.for that carries the tokens in flight; without
// deferred reduces step 0 is part of it. Collectives are started in the
// same order on every rank, as MPI and NCCL require.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "SummaLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAOVERLAP
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// A panel broadcast of one step: a buffer allocated in the loop, filled
/// with a copy of a tile defined outside it and broadcast from root t.
struct Panel {
  memref::AllocOp alloc;
  memref::CopyOp copy;
  BroadcastOp broadcast;
  Value buffers[2];
};

/// A reduce of one step's partial product to root t, completed one step
/// late.
struct Partial {
  memref::AllocOp alloc;
  ReduceOp reduce;
  Value buffers[2];
};

/// The memref a view (subview, cast, ...) is a view of, or `v` itself.
Value getBase(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// The memrefs `op` (and the ops nested in it) may write and read; false
/// when it has an effect on unknown memory.
bool collectAccesses(Operation *op, SmallVectorImpl<Value> &writes,
                     SmallVectorImpl<Value> &reads) {
  bool known = true;
  op->walk([&](Operation *nested) {
    auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!iface) {
      if (!nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        known = false;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      bool write = isa<MemoryEffects::Write>(effect.getEffect());
      bool read = isa<MemoryEffects::Read>(effect.getEffect());
      if (!write && !read)
        continue;
      Value value = effect.getValue();
      if (!value) {
        known = false;
        continue;
      }
      (write ? writes : reads).push_back(getBase(value));
    }
  });
  return known;
}

class LoopPipeliner {
public:
  explicit LoopPipeliner(scf::ForOp loop) : loop(loop) {}

  /// Finds the panels and deferrable reduces; false if there is nothing to
  /// overlap.
  bool match();
  void rewrite();

  unsigned getNumPanels() const { return panels.size(); }
  unsigned getNumPartials() const { return partials.size(); }
  int64_t getQ() const { return q; }
  /// The step collectives that stay synchronous, and why.
  ArrayRef<std::pair<Operation *, std::string>> getRejected() const {
    return rejected;
  }

private:
  /// Whether `op` is a panel broadcast / a reduce whose readers can wait a
  /// step; if not, `why` says why.
  bool isPanel(BroadcastOp op, Panel &panel, std::string &why);
  bool isDeferrable(ReduceOp op, Partial &partial,
                    llvm::SetVector<Operation *> &deferredOps,
                    std::string &why);
  /// True if an op of the loop body other than those in `except` may write
  /// `base`.
  bool writtenInBody(Value base, ArrayRef<Operation *> except);

  /// Starts the broadcasts of step `t` into buffers[`slot`]; returns their
  /// tokens.
  SmallVector<Value> startPanels(OpBuilder &b, Value t,
                                 ArrayRef<Value> targets);
  /// Step t: optional prefetch of step t+1, the wait for step t's panels,
  /// the compute with reduces started, then the completion of step t-1.
  struct StepIO {
    Value t, tPrev;
    SmallVector<Value> panelNow, panelNext, partialNow, partialPrev;
    SmallVector<Value> panelTokens, reduceTokensPrev;
    bool prefetch = false, completePrev = false;
  };
  struct StepOut {
    SmallVector<Value> panelTokens, reduceTokens;
  };
  StepOut emitStep(OpBuilder &b, const StepIO &io);
  void emitCompletion(OpBuilder &b, Value t, ArrayRef<Value> partialBuffers,
                      ArrayRef<Value> tokens);
  /// Slot `t % 2` (or `(t + 1) % 2` with `other`) of each pair, for a
  /// constant or dynamic step.
  SmallVector<Value> pick(OpBuilder &b, Value parityEven, int64_t constT,
                          ArrayRef<std::pair<Value, Value>> pairs, bool other);

  scf::ForOp loop;
  int64_t q = 0;
  SmallVector<Panel> panels;
  SmallVector<Partial> partials;
  /// Ops of C(t), in body order.
  llvm::SetVector<Operation *> deferred;
  /// Ops of A(t) and the deallocations of panel and partial buffers.
  DenseSet<Operation *> moved;
  SmallVector<std::pair<Operation *, std::string>> rejected;
};

} // namespace

bool LoopPipeliner::writtenInBody(Value base, ArrayRef<Operation *> except) {
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (llvm::is_contained(except, &op))
      continue;
    SmallVector<Value> writes, reads;
    if (!collectAccesses(&op, writes, reads))
      return true;
    if (llvm::is_contained(writes, base))
      return true;
  }
  return false;
}

bool LoopPipeliner::isPanel(BroadcastOp op, Panel &panel, std::string &why) {
  Block *body = loop.getBody();
  auto alloc = op.getInput().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != body || !alloc.getDynamicSizes().empty()) {
    why = "its buffer is not a static allocation of the step";
    return false;
  }
  memref::CopyOp copy;
  for (Operation *user : alloc->getUsers()) {
    if (user == op || isa<memref::DeallocOp>(user))
      continue;
    if (auto c = dyn_cast<memref::CopyOp>(user);
        c && c.getTarget() == alloc.getResult()) {
      if (copy || !loop.isDefinedOutsideOfLoop(c.getSource()) ||
          c->getBlock() != body || !c->isBeforeInBlock(op)) {
        why = "its buffer is not filled by one copy of a tile defined "
              "outside the loop";
        return false;
      }
      copy = c;
      continue;
    }
    // Every other use reads the panel after the broadcast.
    Operation *ancestor = body->findAncestorOpInBlock(*user);
    if (!ancestor || !op->isBeforeInBlock(ancestor)) {
      why = "its buffer is used before the broadcast";
      return false;
    }
  }
  if (!copy) {
    why = "its buffer is not filled by a copy";
    return false;
  }
  // The source must keep its value through the loop.
  if (writtenInBody(getBase(copy.getSource()), {copy})) {
    why = "the loop may write the tile it broadcasts";
    return false;
  }
  panel.alloc = alloc;
  panel.copy = copy;
  panel.broadcast = op;
  return true;
}

bool LoopPipeliner::isDeferrable(ReduceOp op, Partial &partial,
                                 llvm::SetVector<Operation *> &deferredOps,
                                 std::string &why) {
  Block *body = loop.getBody();
  auto alloc = op.getInput().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != body || !alloc.getDynamicSizes().empty()) {
    why = "its buffer is not a static allocation of the step";
    return false;
  }
  // The readers of the reduced buffer, and what only they use.
  llvm::SetVector<Operation *> ops;
  for (Operation *user : alloc->getUsers()) {
    if (user == op || isa<memref::DeallocOp>(user))
      continue;
    Operation *ancestor = body->findAncestorOpInBlock(*user);
    if (!ancestor) {
      why = "its buffer is used outside the loop body";
      return false;
    }
    if (op->isBeforeInBlock(ancestor))
      ops.insert(ancestor);
  }
  if (ops.empty()) {
    why = "nothing reads its result in the step";
    return false;
  }
  // Pull in the ops after the reduce that compute what the readers use
  // (the owner test on t); the readers' operands must otherwise come from
  // outside the loop, the induction variable or the partial buffer.
  for (unsigned i = 0; i < ops.size(); ++i) {
    Operation *d = ops[i];
    llvm::SetVector<Value> used;
    getUsedValuesDefinedAbove(d->getRegions(), used);
    used.insert(d->operand_begin(), d->operand_end());
    for (Value v : used) {
      if (v == alloc.getResult() || v == loop.getInductionVar() ||
          loop.isDefinedOutsideOfLoop(v))
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || def->getBlock() != body || !op->isBeforeInBlock(def) ||
          !isMemoryEffectFree(def)) {
        why = "the ops that read its result use values computed before it";
        return false;
      }
      ops.insert(def);
    }
  }
  // Their results stay among them.
  for (Operation *d : ops)
    for (Operation *user : d->getUsers())
      if (!ops.contains(body->findAncestorOpInBlock(*user))) {
        why = "the rest of the step uses what its readers compute";
        return false;
      }
  // What they write or read, apart from the partial buffer, the rest of the
  // step does not write; what they write, it does not read.
  SmallVector<Operation *> except(ops.begin(), ops.end());
  for (Operation *d : ops) {
    SmallVector<Value> writes, reads;
    if (!collectAccesses(d, writes, reads)) {
      why = "its readers touch unknown memory";
      return false;
    }
    for (Value base : llvm::concat<Value>(writes, reads)) {
      if (base == alloc.getResult())
        continue;
      if (!loop.isDefinedOutsideOfLoop(base) || writtenInBody(base, except)) {
        why = "the rest of the step writes memory its readers use";
        return false;
      }
    }
    for (Value base : writes)
      for (Operation &other : body->without_terminator()) {
        if (ops.contains(&other))
          continue;
        SmallVector<Value> otherWrites, otherReads;
        if (!collectAccesses(&other, otherWrites, otherReads) ||
            llvm::is_contained(otherReads, base)) {
          why = "the rest of the step reads memory its readers write";
          return false;
        }
      }
  }
  // Sorted in body order.
  SmallVector<Operation *> sorted(ops.begin(), ops.end());
  llvm::sort(sorted,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  partial.alloc = alloc;
  partial.reduce = op;
  deferredOps.insert(sorted.begin(), sorted.end());
  return true;
}

bool LoopPipeliner::match() {
  q = getSummaSteps(loop);
  if (!q || !loop.getInitArgs().empty())
    return false;
  Value iv = loop.getInductionVar();
  for (Operation &op : loop.getBody()->without_terminator()) {
    std::string why;
    if (auto bcast = dyn_cast<BroadcastOp>(op)) {
      if (!bcast.hasBufferSemantics() || bcast.getRoot() != iv)
        continue;
      Panel panel;
      if (isPanel(bcast, panel, why))
        panels.push_back(panel);
      else
        rejected.push_back({bcast, why});
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      if (!reduce.hasBufferSemantics() || reduce.getRoot() != iv)
        continue;
      Partial partial;
      llvm::SetVector<Operation *> ops;
      if (!isDeferrable(reduce, partial, ops, why)) {
        rejected.push_back({reduce, why});
        continue;
      }
      // A later deferred set must not overlap an earlier one.
      if (llvm::any_of(ops,
                       [&](Operation *o) { return deferred.contains(o); })) {
        rejected.push_back({reduce, "its readers also read another reduce"});
        continue;
      }
      partials.push_back(partial);
      deferred.insert(ops.begin(), ops.end());
    }
  }
  if (panels.empty() && partials.empty())
    return false;
  // The deferred ops must not consume anything else the step computes, and
  // the step must not wait on a deferred op; checked above. Keep the sets in
  // body order.
  SmallVector<Operation *> sorted(deferred.begin(), deferred.end());
  llvm::sort(sorted,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  deferred.clear();
  deferred.insert(sorted.begin(), sorted.end());
  for (Panel &panel : panels) {
    moved.insert(panel.alloc);
    moved.insert(panel.copy);
    moved.insert(panel.broadcast);
  }
  for (Partial &partial : partials)
    moved.insert(partial.alloc);
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
      if (llvm::any_of(panels,
                       [&](Panel &p) {
                         return dealloc.getMemref() == p.alloc.getResult();
                       }) ||
          llvm::any_of(partials, [&](Partial &p) {
            return dealloc.getMemref() == p.alloc.getResult();
          }))
        moved.insert(dealloc);
  return true;
}

SmallVector<Value> LoopPipeliner::startPanels(OpBuilder &b, Value t,
                                              ArrayRef<Value> targets) {
  SmallVector<Value> tokens;
  for (auto [panel, target] : llvm::zip(panels, targets)) {
    Location loc = panel.broadcast.getLoc();
    memref::CopyOp::create(b, panel.copy.getLoc(), panel.copy.getSource(),
                           target);
    tokens.push_back(
        AsyncBroadcastOp::create(b, loc, TokenType::get(b.getContext()), target,
                                 panel.broadcast.getGridAttr(),
                                 panel.broadcast.getAxesAttr(), t)
            .getResult());
  }
  return tokens;
}

void LoopPipeliner::emitCompletion(OpBuilder &b, Value t,
                                   ArrayRef<Value> partialBuffers,
                                   ArrayRef<Value> tokens) {
  for (auto [partial, token] : llvm::zip(partials, tokens))
    WaitOp::create(b, partial.reduce.getLoc(), token);
  IRMapping map;
  map.map(loop.getInductionVar(), t);
  for (auto [partial, buffer] : llvm::zip(partials, partialBuffers))
    map.map(partial.alloc.getResult(), buffer);
  for (Operation *op : deferred)
    b.clone(*op, map);
}

LoopPipeliner::StepOut LoopPipeliner::emitStep(OpBuilder &b, const StepIO &io) {
  StepOut out;
  if (io.prefetch) {
    Value next = arith::AddIOp::create(
        b, loop.getLoc(), io.t,
        arith::ConstantIndexOp::create(b, loop.getLoc(), 1));
    out.panelTokens = startPanels(b, next, io.panelNext);
  }
  for (auto [panel, token] : llvm::zip(panels, io.panelTokens))
    WaitOp::create(b, panel.broadcast.getLoc(), token);
  IRMapping map;
  map.map(loop.getInductionVar(), io.t);
  for (auto [panel, buffer] : llvm::zip(panels, io.panelNow))
    map.map(panel.alloc.getResult(), buffer);
  for (auto [partial, buffer] : llvm::zip(partials, io.partialNow))
    map.map(partial.alloc.getResult(), buffer);
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (moved.contains(&op) || deferred.contains(&op))
      continue;
    auto reduce = dyn_cast<ReduceOp>(op);
    auto partial =
        reduce ? llvm::find_if(partials,
                               [&](Partial &p) { return p.reduce == reduce; })
               : partials.end();
    if (partial != partials.end()) {
      out.reduceTokens.push_back(
          AsyncReduceOp::create(
              b, reduce.getLoc(), TokenType::get(b.getContext()),
              map.lookup(reduce.getInput()), reduce.getGridAttr(),
              reduce.getAxesAttr(), io.t, reduce.getKindAttr())
              .getResult());
      continue;
    }
    b.clone(op, map);
  }
  if (io.completePrev)
    emitCompletion(b, io.tPrev, io.partialPrev, io.reduceTokensPrev);
  return out;
}

SmallVector<Value> LoopPipeliner::pick(OpBuilder &b, Value parityEven,
                                       int64_t constT,
                                       ArrayRef<std::pair<Value, Value>> pairs,
                                       bool other) {
  SmallVector<Value> picked;
  for (auto [even, odd] : pairs) {
    if (!parityEven) {
      bool slotEven = (constT % 2 == 0) != other;
      picked.push_back(slotEven ? even : odd);
      continue;
    }
    picked.push_back(arith::SelectOp::create(
        b, loop.getLoc(), parityEven, other ? odd : even, other ? even : odd));
  }
  return picked;
}

void LoopPipeliner::rewrite() {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // Two buffers per panel and partial product, for the whole loop.
  SmallVector<std::pair<Value, Value>> panelPairs, partialPairs;
  for (Panel &panel : panels) {
    panel.buffers[0] = b.clone(*panel.alloc)->getResult(0);
    panel.buffers[1] = b.clone(*panel.alloc)->getResult(0);
    panelPairs.push_back({panel.buffers[0], panel.buffers[1]});
  }
  for (Partial &partial : partials) {
    partial.buffers[0] = b.clone(*partial.alloc)->getResult(0);
    partial.buffers[1] = b.clone(*partial.alloc)->getResult(0);
    partialPairs.push_back({partial.buffers[0], partial.buffers[1]});
  }
  bool defers = !partials.empty();

  // Prologue: step 0's panels.
  SmallVector<Value> panelTokens =
      startPanels(b, constant(0), pick(b, {}, 0, panelPairs, false));
  SmallVector<Value> reduceTokens;

  // A step with a constant index.
  auto constantStep = [&](int64_t t, bool prefetch, bool completePrev) {
    StepIO io;
    io.t = constant(t);
    io.tPrev = t > 0 ? constant(t - 1) : Value();
    io.panelNow = pick(b, {}, t, panelPairs, false);
    io.panelNext = pick(b, {}, t, panelPairs, true);
    io.partialNow = pick(b, {}, t, partialPairs, false);
    io.partialPrev = pick(b, {}, t, partialPairs, true);
    io.panelTokens = panelTokens;
    io.reduceTokensPrev = reduceTokens;
    io.prefetch = prefetch;
    io.completePrev = completePrev;
    StepOut out = emitStep(b, io);
    panelTokens = out.panelTokens;
    reduceTokens = out.reduceTokens;
  };

  // Steps [first, q-1) in a loop (or inline when there is one), then q-1.
  int64_t first = defers ? 1 : 0;
  if (defers)
    constantStep(0, /*prefetch=*/true, /*completePrev=*/false);
  if (q - 1 - first == 1) {
    constantStep(first, /*prefetch=*/true, defers);
  } else if (q - 1 - first > 1) {
    SmallVector<Value> inits(panelTokens);
    llvm::append_range(inits, reduceTokens);
    auto steady = scf::ForOp::create(
        b, loc, constant(first), constant(q - 1), constant(1), inits,
        [&](OpBuilder &lb, Location l, Value t, ValueRange carried) {
          Value two = arith::ConstantIndexOp::create(lb, l, 2);
          Value zero = arith::ConstantIndexOp::create(lb, l, 0);
          Value parity = arith::RemUIOp::create(lb, l, t, two);
          Value even = arith::CmpIOp::create(lb, l, arith::CmpIPredicate::eq,
                                             parity, zero);
          StepIO io;
          io.t = t;
          if (defers)
            io.tPrev = arith::SubIOp::create(
                lb, l, t, arith::ConstantIndexOp::create(lb, l, 1));
          io.panelNow = pick(lb, even, 0, panelPairs, false);
          io.panelNext = pick(lb, even, 0, panelPairs, true);
          io.partialNow = pick(lb, even, 0, partialPairs, false);
          io.partialPrev = pick(lb, even, 0, partialPairs, true);
          io.panelTokens.assign(carried.begin(),
                                carried.begin() + panels.size());
          io.reduceTokensPrev.assign(carried.begin() + panels.size(),
                                     carried.end());
          io.prefetch = true;
          io.completePrev = defers;
          StepOut out = emitStep(lb, io);
          SmallVector<Value> yielded(out.panelTokens);
          llvm::append_range(yielded, out.reduceTokens);
          scf::YieldOp::create(lb, l, yielded);
        });
    panelTokens.assign(steady.getResults().begin(),
                       steady.getResults().begin() + panels.size());
    reduceTokens.assign(steady.getResults().begin() + panels.size(),
                        steady.getResults().end());
  }
  constantStep(q - 1, /*prefetch=*/false, defers);
  // Epilogue: the last step's reduces.
  if (defers)
    emitCompletion(b, constant(q - 1), pick(b, {}, q - 1, partialPairs, false),
                   reduceTokens);
  for (auto [even, odd] :
       llvm::concat<std::pair<Value, Value>>(panelPairs, partialPairs)) {
    memref::DeallocOp::create(b, loc, even);
    memref::DeallocOp::create(b, loc, odd);
  }
  loop.erase();
}

namespace {
struct SummaOverlapPass : summa::impl::SummaOverlapBase<SummaOverlapPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      LoopPipeliner pipeliner(loop);
      bool matched = pipeliner.match();
      if (emitRemarks)
        for (auto [op, why] : pipeliner.getRejected())
          op->emitRemark() << "stays synchronous: " << why;
      if (!matched)
        continue;
      if (emitRemarks)
        loop.emitRemark() << "SUMMA loop of " << pipeliner.getQ()
                          << " steps overlapped: " << pipeliner.getNumPanels()
                          << " panel broadcast(s) start one step early, "
                          << pipeliner.getNumPartials()
                          << " reduce(s) complete one step late";
      pipeliner.rewrite();
    }
  }
};
} // namespace
