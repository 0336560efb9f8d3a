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

#include "summa/Conversion/Passes.h"
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
#include "summa/Conversion/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

/// Reductions shorter than this stay one loop per thread: a block would
/// leave most of its threads idle.
static constexpr int64_t kMinLength = 32;

namespace {

/// What a reduction body combines with: its combiner op (`acc = f(acc, v)`
/// on the output's block argument) and f's identity.
struct Combiner {
  Operation *op;
  TypedAttr identity;
};

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
  OpBuilder b(op);
  combiner = {combiners.front(),
              arith::getIdentityValueAttr(*kind, type, b, op.getLoc())};
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
/// and `value` (in place of its other operand).
Value combine(OpBuilder &b, const Combiner &combiner, Value outputArg,
              Value acc, Value value) {
  IRMapping map;
  for (Value operand : combiner.op->getOperands())
    map.map(operand, operand == outputArg ? acc : value);
  return b.clone(*combiner.op, map)->getResult(0);
}

/// One iteration of `op`'s body at the loop indices `ivs` with `acc` for the
/// output's block argument: its inputs loaded, its ops cloned; returns what
/// it yields (the combiner's result).
Value emitBody(OpBuilder &b, linalg::LinalgOp op, ArrayRef<Value> ivs,
               Value acc) {
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
  map.map(op.getRegionOutputArgs().front(), acc);
  for (Operation &nested : body.without_terminator()) {
    if (auto indexOp = dyn_cast<linalg::IndexOp>(nested)) {
      map.map(indexOp.getResult(), ivs[indexOp.getDim()]);
      continue;
    }
    b.clone(nested, map);
  }
  return map.lookup(body.getTerminator()->getOperand(0));
}

/// Replaces `op` by
///
///   scf.parallel (parallel dims) {                  // summa.block_reduction
///     %old = memref.load out[...]
///     %all = scf.parallel (%t) = (0) to (T) init (identity) {
///       %part = scf.for %r = %t to L step T iter_args(%acc = identity) {
///         ... the body at (parallel dims, reduction dims of %r), combined
///         into %acc ...
///       }
///       scf.reduce(%part) { combiner }
///     }
///     memref.store combiner(%old, %all), out[...]
///   }
///
/// where L is the product of the reduction dimensions' sizes and %r their
/// linearised index (the last one fastest). With no parallel dimension the
/// outer loop has one iteration.
void rewrite(IRRewriter &rewriter, linalg::LinalgOp op, ArrayRef<unsigned> dims,
             const Combiner &combiner, int64_t threads) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  auto index = [&](int64_t v) {
    return arith::ConstantIndexOp::create(rewriter, loc, v).getResult();
  };
  Value zero = index(0), one = index(1);
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
  if (parallel.empty())
    upper.push_back(one);
  Value length = index(total);
  // The sizes by which the linearised reduction index is split.
  DenseMap<unsigned, Value> sizes;
  for (unsigned d : dims.drop_front())
    sizes[d] = index(ranges[d]);
  Value blockThreads =
      index(std::min<int64_t>(threads, llvm::alignTo(total, int64_t(32))));
  Value identity =
      arith::ConstantOp::create(rewriter, loc, combiner.identity).getResult();
  Value outputArg = op.getRegionOutputArgs().front();
  OpOperand &out = op.getDpsInitsMutable()[0];

  auto outer = scf::ParallelOp::create(
      rewriter, loc, SmallVector<Value>(upper.size(), zero), upper,
      SmallVector<Value>(upper.size(), one),
      [&](OpBuilder &b, Location, ValueRange outerIvs) {
        SmallVector<Value> ivs(ranges.size());
        for (auto [d, iv] : llvm::zip(parallel, outerIvs))
          ivs[d] = iv;
        SmallVector<Value> outIndices = indicesOf(b, op, out, ivs);
        Value old = memref::LoadOp::create(b, loc, out.get(), outIndices);
        auto all = scf::ParallelOp::create(
            b, loc, ValueRange{zero}, ValueRange{blockThreads}, ValueRange{one},
            ValueRange{identity},
            [&](OpBuilder &tb, Location, ValueRange tIvs, ValueRange) {
              auto part = scf::ForOp::create(
                  tb, loc, tIvs.front(), length, blockThreads,
                  ValueRange{identity},
                  [&](OpBuilder &fb, Location, Value r, ValueRange acc) {
                    SmallVector<Value> at = ivs;
                    Value rest = r;
                    for (unsigned d : llvm::reverse(dims)) {
                      if (d == dims.front()) {
                        at[d] = rest;
                        break;
                      }
                      Value size = sizes.lookup(d);
                      at[d] = arith::RemUIOp::create(fb, loc, rest, size);
                      rest = arith::DivUIOp::create(fb, loc, rest, size);
                    }
                    scf::YieldOp::create(fb, loc,
                                         emitBody(fb, op, at, acc.front()));
                  });
              auto reduce =
                  scf::ReduceOp::create(tb, loc, ValueRange{part.getResult(0)});
              Block &combine2 = reduce.getReductions().front().front();
              OpBuilder rb = OpBuilder::atBlockEnd(&combine2);
              scf::ReduceReturnOp::create(rb, loc,
                                          combine(rb, combiner, outputArg,
                                                  combine2.getArgument(0),
                                                  combine2.getArgument(1)));
            });
        Value result = combine(b, combiner, outputArg, old, all.getResult(0));
        memref::StoreOp::create(b, loc, result, out.get(), outIndices);
      });
  outer->setAttr(summa::kBlockReductionAttrName, rewriter.getUnitAttr());
  rewriter.eraseOp(op);
}

struct SummaBlockReductionsPass
    : summa::impl::SummaBlockReductionsBase<SummaBlockReductionsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize < 1 || blockSize > 1024) {
      getOperation().emitError()
          << "summa-block-reductions: block-size must be in [1, 1024], got "
          << blockSize.getValue();
      return signalPassFailure();
    }
    SmallVector<std::tuple<linalg::LinalgOp, SmallVector<unsigned>, Combiner>>
        rows;
    summa::walkHostCode(getOperation(), [&](Operation *op) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      Combiner combiner;
      if (!linalgOp)
        return;
      SmallVector<unsigned> dims = rowReductionDims(linalgOp, combiner);
      if (!dims.empty())
        rows.emplace_back(linalgOp, dims, combiner);
    });
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
