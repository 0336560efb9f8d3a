//===- TMTensorToLinalg.cpp - torch-mlir's tm_tensor ops as linalg --------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements convert-tm-tensor-to-linalg: tm_tensor.scan as a broadcast of
// its first element and an ordered fold over a new reduction dimension.
//
//===----------------------------------------------------------------------===//

#include "summa/Conversion/Passes.h"
#include "summa/Dialect/TMTensor/IR/TMTensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::summa {
#define GEN_PASS_DEF_CONVERTTMTENSORTOLINALG
#include "summa/Conversion/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using summa::tm_tensor::ScanOp;

namespace {

/// The first element of each row of the scan, broadcast along the scanned
/// dimension: the input's first slice (inclusive) or the accumulator
/// operand (exclusive).
Value firstElements(OpBuilder &b, ScanOp scan) {
  Location loc = scan.getLoc();
  auto type = cast<RankedTensorType>(scan.getInput().getType());
  int64_t rank = type.getRank(), dim = scan.getDimension();
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> source;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != dim)
      source.push_back(getAffineDimExpr(d, ctx));
    else if (scan.getInclusive())
      source.push_back(getAffineConstantExpr(0, ctx));
  }
  Value from = scan.getInclusive() ? scan.getInput() : scan.getAccumulator();
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, source, ctx),
                                 b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{from},
             ValueRange{scan.getOutput()}, maps, iterators,
             [](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, args[0]);
             })
      .getResult(0);
}

/// out[x] = f(... f(out[x], in[x with dim := j]) ...) over the j that the
/// scan combines into out[x], in increasing order of j.
Value fold(OpBuilder &b, ScanOp scan, Value first) {
  Location loc = scan.getLoc();
  auto type = cast<RankedTensorType>(scan.getInput().getType());
  int64_t rank = type.getRank(), dim = scan.getDimension();
  MLIRContext *ctx = b.getContext();
  // Dimensions 0..rank-1 index the output; dimension `rank` is j.
  SmallVector<AffineExpr> input, output;
  for (int64_t d = 0; d < rank; ++d) {
    input.push_back(getAffineDimExpr(d == dim ? rank : d, ctx));
    output.push_back(getAffineDimExpr(d, ctx));
  }
  SmallVector<AffineMap> maps = {AffineMap::get(rank + 1, 0, input, ctx),
                                 AffineMap::get(rank + 1, 0, output, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  bool inclusive = scan.getInclusive();
  Block &region = scan.getRegion().front();
  auto body = [&](OpBuilder &nb, Location nloc, ValueRange args) {
    Value next = args[0], sofar = args[1];
    Value i = linalg::IndexOp::create(nb, nloc, dim);
    Value j = linalg::IndexOp::create(nb, nloc, rank);
    // Inclusive: 1 <= j <= i; exclusive: j < i.
    Value take;
    if (inclusive) {
      Value one = arith::ConstantIndexOp::create(nb, nloc, 1);
      Value notFirst =
          arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::uge, j, one);
      Value upTo =
          arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::ule, j, i);
      take = arith::AndIOp::create(nb, nloc, notFirst, upTo);
    } else {
      take = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::ult, j, i);
    }
    IRMapping map;
    map.map(region.getArgument(0), sofar);
    map.map(region.getArgument(1), next);
    for (Operation &op : region.without_terminator())
      nb.clone(op, map);
    Value combined = map.lookup(region.getTerminator()->getOperand(0));
    Value result = arith::SelectOp::create(nb, nloc, take, combined, sofar);
    linalg::YieldOp::create(nb, nloc, result);
  };
  return linalg::GenericOp::create(b, loc, TypeRange{type},
                                   ValueRange{scan.getInput()},
                                   ValueRange{first}, maps, iterators, body)
      .getResult(0);
}

LogicalResult lowerScan(RewriterBase &rewriter, ScanOp scan) {
  auto type = cast<RankedTensorType>(scan.getInput().getType());
  int64_t dim = scan.getDimension();
  int64_t n = type.getDimSize(dim);
  if (ShapedType::isDynamic(n))
    return scan.emitOpError("scans dimension ")
           << dim << " of dynamic size; summa takes static shapes only";
  rewriter.setInsertionPoint(scan);
  Value output = fold(rewriter, scan, firstElements(rewriter, scan));
  Value accumulator = scan.getAccumulator();
  if (n > 0) {
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(rewriter.getIndexAttr(d == dim ? 1 : type.getDimSize(d)));
    offsets[dim] = rewriter.getIndexAttr(n - 1);
    accumulator = tensor::ExtractSliceOp::create(
        rewriter, scan.getLoc(),
        cast<RankedTensorType>(scan.getAccumulator().getType()), output,
        offsets, sizes, strides);
  }
  rewriter.replaceOp(scan, ValueRange{output, accumulator});
  return success();
}

struct ConvertTMTensorToLinalgPass
    : summa::impl::ConvertTMTensorToLinalgBase<ConvertTMTensorToLinalgPass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<ScanOp> scans;
    getOperation().walk([&](ScanOp scan) { scans.push_back(scan); });
    IRRewriter rewriter(&getContext());
    for (ScanOp scan : scans)
      if (failed(lowerScan(rewriter, scan)))
        return signalPassFailure();
  }
};

} // namespace
