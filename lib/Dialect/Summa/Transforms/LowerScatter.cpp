//===- LowerScatter.cpp - summa.scatter on buffers to loops -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-lower-scatter: a loop over the batch dimensions (in
// order), a loop over the slice dimensions inside it, a bounds check of the
// indices and the combiner on the element each update lands on. With
// `parallel` the slice loops are an scf.parallel around the batch loop.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMALOWERSCATTER
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// Builds the loops of one scatter on buffers.
class ScatterLowering {
public:
  ScatterLowering(ScatterOp op, bool parallel)
      : op(op), parallel(parallel), b(op), loc(op.getLoc()) {}
  void run();

private:
  /// The dimension sizes of `shaped` in `dims` as index values.
  SmallVector<Value> sizes(Value shaped, ArrayRef<int64_t> dims);
  /// A nest of scf.for over `upper` at `at`'s insertion point, calling
  /// `body` with the induction variables in the innermost loop.
  void forNest(OpBuilder at, ArrayRef<Value> upper,
               function_ref<void(OpBuilder &, ValueRange)> body);
  /// The index columns of batch position `batch`, placed in `position`
  /// (the dimensions dimension_map names), and whether all are in bounds.
  Value loadIndices(OpBuilder &nb, ValueRange batch,
                    SmallVectorImpl<Value> &position);
  /// Combines update (batch, slice) into the original at `position`, whose
  /// slice dimensions this fills in.
  void apply(OpBuilder &nb, ValueRange batch, ValueRange slice,
             SmallVectorImpl<Value> &position);

  ScatterOp op;
  bool parallel;
  OpBuilder b;
  Location loc;
};

} // namespace

SmallVector<Value> ScatterLowering::sizes(Value shaped,
                                          ArrayRef<int64_t> dims) {
  SmallVector<Value> out;
  for (int64_t d : dims)
    out.push_back(memref::DimOp::create(b, loc, shaped, d));
  return out;
}

void ScatterLowering::forNest(
    OpBuilder nb, ArrayRef<Value> upper,
    function_ref<void(OpBuilder &, ValueRange)> body) {
  SmallVector<Value> ivs;
  Value zero = arith::ConstantIndexOp::create(nb, loc, 0);
  Value one = arith::ConstantIndexOp::create(nb, loc, 1);
  for (Value ub : upper) {
    auto loop = scf::ForOp::create(nb, loc, zero, ub, one);
    ivs.push_back(loop.getInductionVar());
    nb.setInsertionPoint(loop.getBody()->getTerminator());
  }
  body(nb, ivs);
}

Value ScatterLowering::loadIndices(OpBuilder &nb, ValueRange batch,
                                   SmallVectorImpl<Value> &position) {
  Value inBounds;
  for (auto [k, d] : llvm::enumerate(op.getDimensionMap())) {
    SmallVector<Value> at(batch);
    at.push_back(arith::ConstantIndexOp::create(nb, loc, k));
    Value raw = memref::LoadOp::create(nb, loc, op.getIndices(), at);
    Value index =
        raw.getType().isIndex()
            ? raw
            : arith::IndexCastOp::create(nb, loc, nb.getIndexType(), raw)
                  .getResult();
    Value size = memref::DimOp::create(nb, loc, op.getOriginal(), d);
    // Unsigned: a negative index is a huge one, outside as well.
    Value ok =
        arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::ult, index, size);
    inBounds = inBounds
                   ? arith::AndIOp::create(nb, loc, inBounds, ok).getResult()
                   : ok;
    position[d] = index;
  }
  return inBounds;
}

void ScatterLowering::apply(OpBuilder &nb, ValueRange batch, ValueRange slice,
                            SmallVectorImpl<Value> &position) {
  for (auto [i, d] : llvm::enumerate(op.getSliceDims()))
    position[d] = slice[i];
  SmallVector<Value> at(batch);
  llvm::append_range(at, slice);
  Value updateValue = memref::LoadOp::create(nb, loc, op.getUpdates(), at);
  Value current = memref::LoadOp::create(nb, loc, op.getOriginal(), position);
  Block &combiner = op.getCombiner().front();
  IRMapping mapping;
  mapping.map(combiner.getArgument(0), updateValue);
  mapping.map(combiner.getArgument(1), current);
  for (Operation &inner : combiner.without_terminator())
    nb.clone(inner, mapping);
  Value combined =
      mapping.lookupOrDefault(combiner.getTerminator()->getOperand(0));
  memref::StoreOp::create(nb, loc, combined, op.getOriginal(), position);
}

void ScatterLowering::run() {
  int64_t batchRank = op.getBatchRank();
  SmallVector<int64_t> batchDims =
      llvm::to_vector(llvm::seq<int64_t>(0, batchRank));
  SmallVector<int64_t> sliceDims;
  auto updates = cast<MemRefType>(op.getUpdates().getType());
  for (int64_t d = batchRank; d < updates.getRank(); ++d)
    sliceDims.push_back(d);
  SmallVector<Value> batchSizes = sizes(op.getIndices(), batchDims);
  SmallVector<Value> sliceSizes = sizes(op.getUpdates(), sliceDims);
  int64_t rank = cast<MemRefType>(op.getOriginal().getType()).getRank();
  if (!parallel || sliceSizes.empty()) {
    // For each update: its indices once, then its slice if in bounds.
    forNest(b, batchSizes, [&](OpBuilder &nb, ValueRange batch) {
      SmallVector<Value> position(rank);
      Value inBounds = loadIndices(nb, batch, position);
      auto guard = scf::IfOp::create(nb, loc, inBounds, /*withElse=*/false);
      forNest(guard.getThenBodyBuilder(), sliceSizes,
              [&](OpBuilder &sb, ValueRange slice) {
                apply(sb, batch, slice, position);
              });
    });
  } else {
    // Each thread one position of the slice, all updates in batch order.
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    SmallVector<Value> lower(sliceSizes.size(), zero),
        steps(sliceSizes.size(), one);
    scf::ParallelOp::create(
        b, loc, lower, sliceSizes, steps,
        [&](OpBuilder &pb, Location, ValueRange slice) {
          forNest(pb, batchSizes, [&](OpBuilder &nb, ValueRange batch) {
            SmallVector<Value> position(rank);
            Value inBounds = loadIndices(nb, batch, position);
            auto guard =
                scf::IfOp::create(nb, loc, inBounds, /*withElse=*/false);
            OpBuilder tb = guard.getThenBodyBuilder();
            apply(tb, batch, slice, position);
          });
        });
  }
  op.erase();
}

namespace {
struct SummaLowerScatterPass
    : summa::impl::SummaLowerScatterBase<SummaLowerScatterPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<ScatterOp> scatters;
    WalkResult walked = getOperation().walk([&](ScatterOp op) {
      if (op.getResult()) {
        op.emitError() << "summa-lower-scatter takes buffers: bufferize "
                          "this summa.scatter first";
        return WalkResult::interrupt();
      }
      scatters.push_back(op);
      return WalkResult::advance();
    });
    if (walked.wasInterrupted())
      return signalPassFailure();
    for (ScatterOp op : scatters)
      ScatterLowering(op, parallel).run();
  }
};
} // namespace
