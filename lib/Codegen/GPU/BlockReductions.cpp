//===- BlockReductions.cpp - row reductions as one block per row -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-block-reductions: a structured op that reduces along the
// contiguous dimension of its inputs (LayerNorm's and softmax's rows, a
// loss) becomes loops that summa-map-parallel-loops puts one block per
// output element and convert-parallel-loops-to-gpu turns into a strided
// partial reduction per thread and a gpu.all_reduce of the block.
//
//===----------------------------------------------------------------------===//

#include "summa/Codegen/Passes.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"

#include "HostCode.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMABLOCKREDUCTIONS
#include "summa/Codegen/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

/// Reductions shorter than this stay one loop per thread: a block would
/// leave most of its threads idle.
static constexpr int64_t kMinLength = 32;
/// A full reduction this long is a two-level tree (several blocks, then
/// one), each thread of the first level taking at least kPerThread elements.
static constexpr int64_t kTreeLength = 16384;
static constexpr int64_t kPerThread = 16;

namespace {

/// What a reduction body combines with: its combiner op (`acc = f(acc, v)`
/// on the output's block argument), the type the block accumulates in and
/// f's identity in it. Half-width floats (f16, bf16) accumulate in f32 and
/// integers narrower than 32 bits (i1 masks, i8, i16) in i32: a warp shuffle
/// moves 32 bits (NVVM has no narrower one), and a sum of thousands of bf16
/// values in bf16 loses most of its digits.
struct Combiner {
  Operation *op;
  Type accType;
  TypedAttr identity;
  /// Integers: whether they widen by zero extension (unsigned maxima and
  /// minima, and the bitwise and/or of i1 masks) rather than by sign.
  bool zeroExtend = false;
};

/// The type a reduction of `type` accumulates in.
Type accumulatorType(Type type) {
  if (isa<Float16Type, BFloat16Type>(type))
    return Float32Type::get(type.getContext());
  if (type.isInteger() && type.getIntOrFloatBitWidth() < 32)
    return IntegerType::get(type.getContext(), 32);
  return type;
}

/// `v` converted to type `to`, both floats or both integers: extended or
/// truncated (integers extended by zero or sign as `combiner` says; the low
/// bits of a sum or product do not depend on which).
Value convertValue(OpBuilder &b, Location loc, Value v, Type to,
                   const Combiner &combiner) {
  Type from = v.getType();
  if (from == to)
    return v;
  bool widen = from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth();
  if (isa<FloatType>(from))
    return widen ? arith::ExtFOp::create(b, loc, to, v).getResult()
                 : arith::TruncFOp::create(b, loc, to, v).getResult();
  if (!widen)
    return arith::TruncIOp::create(b, loc, to, v);
  if (combiner.zeroExtend)
    return arith::ExtUIOp::create(b, loc, to, v);
  return arith::ExtSIOp::create(b, loc, to, v);
}

/// The AtomicRMWKind of a combiner, for its identity value.
std::optional<arith::AtomicRMWKind> kindOf(Operation *op) {
  using K = arith::AtomicRMWKind;
  return TypeSwitch<Operation *, std::optional<K>>(op)
      .Case([](arith::AddFOp) { return K::addf; })
      .Case([](arith::MulFOp) { return K::mulf; })
      .Case([](arith::MaximumFOp) { return K::maximumf; })
      .Case([](arith::MinimumFOp) { return K::minimumf; })
      .Case([](arith::MaxNumFOp) { return K::maxnumf; })
      .Case([](arith::MinNumFOp) { return K::minnumf; })
      .Case([](arith::AddIOp) { return K::addi; })
      .Case([](arith::MulIOp) { return K::muli; })
      .Case([](arith::MaxSIOp) { return K::maxs; })
      .Case([](arith::MinSIOp) { return K::mins; })
      .Case([](arith::MaxUIOp) { return K::maxu; })
      .Case([](arith::MinUIOp) { return K::minu; })
      .Case([](arith::AndIOp) { return K::andi; })
      .Case([](arith::OrIOp) { return K::ori; })
      .Default([](Operation *) { return std::nullopt; });
}

/// The reduction dimensions of `op` when the op qualifies (one output,
/// combined by a known associative op; projected-permutation maps; static
/// loop ranges; reductions at least kMinLength long together; the last
/// reduction dimension the last index of every input that any of them
/// indexes, and none of them an index of the output), else an empty list.
SmallVector<unsigned> rowReductionDims(linalg::LinalgOp op,
                                       Combiner &combiner) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || op->getNumRegions() != 1)
    return {};
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return {};
  int64_t length = 1;
  for (unsigned d : dims)
    length *= ranges[d];
  if (length < kMinLength)
    return {};
  AffineExpr innermost = getAffineDimExpr(dims.back(), op.getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return {};
    bool reduces =
        llvm::any_of(dims, [&](unsigned d) { return map.isFunctionOfDim(d); });
    if (op.isDpsInput(&operand)
            ? reduces && map.getResults().back() != innermost
            : reduces)
      return {};
  }
  SmallVector<Operation *, 1> combiners;
  Value reduced =
      matchReduction(op.getRegionOutputArgs(), /*redPos=*/0, combiners);
  if (!reduced || combiners.size() != 1)
    return {};
  std::optional<arith::AtomicRMWKind> kind = kindOf(combiners.front());
  if (!kind)
    return {};
  Type type = op.getRegionOutputArgs().front().getType();
  Type accType = accumulatorType(type);
  // Accumulating in a wider type replaces the combiner alone: the body must
  // yield the combiner's result, and nothing else in it read the output.
  Block &body = op->getRegion(0).front();
  if (accType != type &&
      (body.getTerminator()->getOperand(0) != combiners.front()->getResult(0) ||
       !op.getRegionOutputArgs().front().hasOneUse()))
    return {};
  OpBuilder b(op);
  using K = arith::AtomicRMWKind;
  bool zeroExtend = *kind == K::maxu || *kind == K::minu || *kind == K::andi ||
                    *kind == K::ori;
  combiner = {combiners.front(), accType,
              arith::getIdentityValueAttr(*kind, accType, b, op.getLoc()),
              zeroExtend};
  return dims;
}

/// The indices of `operand` at the loop indices `ivs` (its map's results
/// are dimensions or the constant 0).
SmallVector<Value> indicesOf(OpBuilder &b, linalg::LinalgOp op,
                             OpOperand &operand, ArrayRef<Value> ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : op.getMatchingIndexingMap(&operand).getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      indices.push_back(ivs[dim.getPosition()]);
    else
      indices.push_back(
          arith::ConstantIndexOp::create(b, op.getLoc(), 0).getResult());
  }
  return indices;
}

/// The combiner applied to `acc` (in place of the output's block argument)
/// and `value` (in place of its other operand), both of the combiner's
/// accumulator type.
Value combine(OpBuilder &b, const Combiner &combiner, Value outputArg,
              Value acc, Value value) {
  IRMapping map;
  for (Value operand : combiner.op->getOperands())
    map.map(operand, operand == outputArg ? acc : value);
  Operation *clone = b.clone(*combiner.op, map);
  clone->getResult(0).setType(combiner.accType);
  return clone->getResult(0);
}

/// One iteration of `op`'s body at the loop indices `ivs` with `acc` (of the
/// accumulator type) for the output's block argument: its inputs loaded,
/// its ops cloned, the combiner in the accumulator type; returns what it
/// yields (the combiner's result).
Value emitBody(OpBuilder &b, linalg::LinalgOp op, const Combiner &combiner,
               ArrayRef<Value> ivs, Value acc) {
  Location loc = op.getLoc();
  Block &body = op->getRegion(0).front();
  IRMapping map;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value arg = op.getMatchingBlockArgument(input);
    Value source = input->get();
    map.map(arg, isa<MemRefType>(source.getType())
                     ? memref::LoadOp::create(b, loc, source,
                                              indicesOf(b, op, *input, ivs))
                           .getResult()
                     : source);
  }
  Value outputArg = op.getRegionOutputArgs().front();
  if (combiner.accType == outputArg.getType())
    map.map(outputArg, acc);
  for (Operation &nested : body.without_terminator()) {
    if (auto indexOp = dyn_cast<linalg::IndexOp>(nested)) {
      map.map(indexOp.getResult(), ivs[indexOp.getDim()]);
      continue;
    }
    if (&nested == combiner.op && combiner.accType != outputArg.getType()) {
      // The element widened, the combiner in the accumulator type.
      Value element = nested.getOperand(0) == outputArg ? nested.getOperand(1)
                                                        : nested.getOperand(0);
      Value wide = convertValue(b, loc, map.lookupOrDefault(element),
                                combiner.accType, combiner);
      map.map(nested.getResult(0), combine(b, combiner, outputArg, acc, wide));
      continue;
    }
    b.clone(nested, map);
  }
  return map.lookup(body.getTerminator()->getOperand(0));
}

/// One step of a block's reduction: `acc` combined with element `r`.
using ReductionStep = function_ref<Value(OpBuilder &, Value r, Value acc)>;

/// A block's reduction over [lo, hi) on `threads` threads:
///
///   scf.parallel (%t) = (0) to (threads) init (identity) {
///     %part = scf.for %r = lo + %t to hi step threads
///                 iter_args(%acc = identity) { step(%r, %acc) }
///     scf.reduce(%part) { combiner }
///   }
Value blockReduce(OpBuilder &b, Location loc, Value lo, Value hi, Value threads,
                  Value identity, const Combiner &combiner, Value outputArg,
                  ReductionStep step) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto all = scf::ParallelOp::create(
      b, loc, ValueRange{zero}, ValueRange{threads}, ValueRange{one},
      ValueRange{identity},
      [&](OpBuilder &tb, Location, ValueRange tIvs, ValueRange) {
        Value first = tb.createOrFold<arith::AddIOp>(loc, lo, tIvs.front());
        auto part = scf::ForOp::create(
            tb, loc, first, hi, threads, ValueRange{identity},
            [&](OpBuilder &fb, Location, Value r, ValueRange acc) {
              scf::YieldOp::create(fb, loc, step(fb, r, acc.front()));
            });
        auto reduce =
            scf::ReduceOp::create(tb, loc, ValueRange{part.getResult(0)});
        Block &pair = reduce.getReductions().front().front();
        OpBuilder rb = OpBuilder::atBlockEnd(&pair);
        scf::ReduceReturnOp::create(rb, loc,
                                    combine(rb, combiner, outputArg,
                                            pair.getArgument(0),
                                            pair.getArgument(1)));
      });
  return all.getResult(0);
}

/// A loop over `upper` (one iteration where it is empty) whose body is
/// `body(ivs)`, marked for summa-map-parallel-loops as one block per
/// iteration.
void blockLoop(OpBuilder &b, Location loc, ArrayRef<Value> upper,
               function_ref<void(OpBuilder &, ValueRange)> body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<Value> bounds(upper);
  if (bounds.empty())
    bounds.push_back(one);
  auto loop = scf::ParallelOp::create(
      b, loc, SmallVector<Value>(bounds.size(), zero), bounds,
      SmallVector<Value>(bounds.size(), one),
      [&](OpBuilder &lb, Location, ValueRange ivs) { body(lb, ivs); });
  loop->setAttr(summa::kBlockReductionAttrName, b.getUnitAttr());
}

/// Replaces `op` by
///
///   scf.parallel (parallel dims) {                  // summa.block_reduction
///     %old = memref.load out[...]
///     %all = blockReduce over [0, L) of the body at (parallel dims,
///            reduction dims of %r)
///     memref.store combiner(%old, %all), out[...]
///   }
///
/// where L is the product of the reduction dimensions' sizes and %r their
/// linearised index (the last one fastest). A full reduction (no parallel
/// dimension) of at least kTreeLength elements is a two-level tree: blocks
/// of `threads` reduce chunks of at least kPerThread elements per thread
/// into a buffer of partial results, which one more block reduces.
void rewrite(IRRewriter &rewriter, linalg::LinalgOp op, ArrayRef<unsigned> dims,
             const Combiner &combiner, int64_t threads) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  SmallVector<unsigned> parallel;
  SmallVector<Value> upper;
  int64_t total = 1;
  for (auto [d, range] : llvm::enumerate(ranges)) {
    if (llvm::is_contained(dims, d)) {
      total *= range;
      continue;
    }
    parallel.push_back(d);
    upper.push_back(index(range));
  }
  // The sizes by which the linearised reduction index is split.
  DenseMap<unsigned, Value> sizes;
  for (unsigned d : dims.drop_front())
    sizes[d] = index(ranges[d]);
  auto threadsFor = [&](int64_t length) {
    return index(std::min<int64_t>(threads, llvm::alignTo(length, 32)));
  };
  Value identity =
      arith::ConstantOp::create(rewriter, loc, combiner.identity).getResult();
  Value outputArg = op.getRegionOutputArgs().front();
  OpOperand &out = op.getDpsInitsMutable()[0];

  // The body at the parallel indices `ivs` and linearised reduction index r.
  auto bodyAt = [&](SmallVector<Value> ivs) {
    return [&, ivs](OpBuilder &b, Value r, Value acc) {
      SmallVector<Value> at = ivs;
      Value rest = r;
      for (unsigned d : llvm::reverse(dims)) {
        if (d == dims.front()) {
          at[d] = rest;
          break;
        }
        at[d] = arith::RemUIOp::create(b, loc, rest, sizes.lookup(d));
        rest = arith::DivUIOp::create(b, loc, rest, sizes.lookup(d));
      }
      return emitBody(b, op, combiner, at, acc);
    };
  };
  Value zero = index(0);
  // Out[ivs] = combiner(old, the block's reduction of [0, length) by step).
  auto reduceInto = [&](OpBuilder &b, ArrayRef<Value> ivs, Value length,
                        Value lengthThreads, ReductionStep step) {
    SmallVector<Value> outIndices = indicesOf(b, op, out, ivs);
    Value old = memref::LoadOp::create(b, loc, out.get(), outIndices);
    Value all = blockReduce(b, loc, zero, length, lengthThreads, identity,
                            combiner, outputArg, step);
    Value wideOld = convertValue(b, loc, old, combiner.accType, combiner);
    Value result = combine(b, combiner, outputArg, wideOld, all);
    memref::StoreOp::create(
        b, loc, convertValue(b, loc, result, outputArg.getType(), combiner),
        out.get(), outIndices);
  };

  SmallVector<Value> noIvs(ranges.size());
  if (!parallel.empty() || total < kTreeLength) {
    Value length = index(total), lengthThreads = threadsFor(total);
    blockLoop(rewriter, loc, upper, [&](OpBuilder &b, ValueRange outerIvs) {
      SmallVector<Value> ivs(ranges.size());
      for (auto [d, iv] : llvm::zip(parallel, outerIvs))
        ivs[d] = iv;
      reduceInto(b, ivs, length, lengthThreads, bodyAt(ivs));
    });
    rewriter.eraseOp(op);
    return;
  }
  // Two levels: chunks of the reduction into partial results, then those.
  int64_t perBlock = std::min<int64_t>(threads, 1024) * kPerThread;
  int64_t chunks = std::min<int64_t>(llvm::divideCeil(total, perBlock), 1024);
  int64_t chunk = llvm::divideCeil(total, chunks);
  Value partials = memref::AllocOp::create(
      rewriter, loc, MemRefType::get({chunks}, combiner.accType));
  Value chunksV = index(chunks), chunkV = index(chunk), totalV = index(total);
  Value chunkThreads = threadsFor(chunk), chunksThreads = threadsFor(chunks);
  blockLoop(rewriter, loc, {chunksV}, [&](OpBuilder &b, ValueRange chunkIv) {
    Value lo = arith::MulIOp::create(b, loc, chunkIv.front(), chunkV);
    Value end = arith::AddIOp::create(b, loc, lo, chunkV);
    Value hi = arith::MinUIOp::create(b, loc, end, totalV);
    Value all = blockReduce(b, loc, lo, hi, chunkThreads, identity, combiner,
                            outputArg, bodyAt(noIvs));
    memref::StoreOp::create(b, loc, all, partials, chunkIv);
  });
  blockLoop(rewriter, loc, {}, [&](OpBuilder &b, ValueRange) {
    reduceInto(b, noIvs, chunksV, chunksThreads,
               [&](OpBuilder &sb, Value r, Value acc) {
                 Value partial = memref::LoadOp::create(sb, loc, partials, r);
                 return combine(sb, combiner, outputArg, acc, partial);
               });
  });
  memref::DeallocOp::create(rewriter, loc, partials);
  rewriter.eraseOp(op);
}

struct SummaBlockReductionsPass
    : summa::BlockSizePass<SummaBlockReductionsPass,
                           summa::impl::SummaBlockReductionsBase> {
  using BlockSizePass::BlockSizePass;

  void runOnHostCode() {
    SmallVector<std::tuple<linalg::LinalgOp, SmallVector<unsigned>, Combiner>>
        rows;
    for (auto linalgOp :
         summa::collectHostOps<linalg::LinalgOp>(getOperation())) {
      Combiner combiner;
      SmallVector<unsigned> dims = rowReductionDims(linalgOp, combiner);
      if (!dims.empty())
        rows.emplace_back(linalgOp, dims, combiner);
    }
    IRRewriter rewriter(&getContext());
    for (auto &[op, dims, combiner] : rows) {
      if (emitRemarks)
        op->emitRemark() << "block reduction: " << op->getName()
                         << " as one GPU block per output element";
      rewrite(rewriter, op, dims, combiner, blockSize);
    }
  }
};

} // namespace
