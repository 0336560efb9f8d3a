//===- TMTensorToLinalg.cpp - torch-mlir's tm_tensor ops as linalg --------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements convert-tm-tensor-to-linalg: tm_tensor.scan as a broadcast of
// its first element and an ordered fold over a new reduction dimension;
// tm_tensor.sort as the position of every element (how many come before
// it, by the comparator, ties by index) and each output gathered by those
// positions: two reductions over the sorted dimension, O(n^2) in its size
// (a router's experts: 4 to 64), no data-dependent control flow, so the
// layout rules, the partitioner and summa-differentiate take them as any
// other generic.
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
using summa::tm_tensor::SortOp;

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

/// A zero of `type` (a float or an integer).
Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

/// A tensor of `type` filled with zeros.
Value zerosLike(OpBuilder &b, Location loc, RankedTensorType type) {
  Value empty =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::FillOp::create(b, loc, zeroOf(b, loc, type.getElementType()),
                                empty)
      .getResult(0);
}

/// The maps of a loop nest over the outputs' dimensions and one more (the
/// other element along `dim`, loop `rank`): the identity, and the one that
/// reads dimension `dim` at the extra loop.
std::pair<AffineMap, AffineMap> sortMaps(MLIRContext *ctx, int64_t rank,
                                         int64_t dim) {
  SmallVector<AffineExpr> here, there;
  for (int64_t d = 0; d < rank; ++d) {
    here.push_back(getAffineDimExpr(d, ctx));
    there.push_back(getAffineDimExpr(d == dim ? rank : d, ctx));
  }
  return {AffineMap::get(rank + 1, 0, here, ctx),
          AffineMap::get(rank + 1, 0, there, ctx)};
}

/// The position each element of the sorted outputs goes to along the
/// dimension (i64): the number of elements j that come before element i,
/// those the comparator puts first (cmp(j, i) and not cmp(i, j)), and those
/// it orders neither or both ways with j < i (a stable sort).
Value sortPositions(OpBuilder &b, SortOp sort) {
  Location loc = sort.getLoc();
  auto type = cast<RankedTensorType>(sort.getOutputs()[0].getType());
  int64_t rank = type.getRank(), dim = sort.getDimension();
  auto [here, there] = sortMaps(b.getContext(), rank, dim);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (Value output : sort.getOutputs()) {
    inputs.append({output, output});
    maps.append({here, there});
  }
  maps.push_back(here);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Block &comparator = sort.getRegion().front();
  auto body = [&](OpBuilder &nb, Location nloc, ValueRange args) {
    size_t n = sort.getOutputs().size();
    // cmp(first, second) on the elements i (args 2k) and j (args 2k + 1).
    auto compare = [&](bool jFirst) {
      IRMapping map;
      for (size_t k = 0; k < n; ++k) {
        map.map(comparator.getArgument(2 * k), args[2 * k + (jFirst ? 1 : 0)]);
        map.map(comparator.getArgument(2 * k + 1),
                args[2 * k + (jFirst ? 0 : 1)]);
      }
      for (Operation &op : comparator.without_terminator())
        nb.clone(op, map);
      return map.lookup(comparator.getTerminator()->getOperand(0));
    };
    Value jFirst = compare(true), iFirst = compare(false);
    Value i = linalg::IndexOp::create(nb, nloc, dim);
    Value j = linalg::IndexOp::create(nb, nloc, rank);
    Value trueValue = arith::ConstantIntOp::create(nb, nloc, 1, 1);
    Value notIFirst = arith::XOrIOp::create(nb, nloc, iFirst, trueValue);
    Value strictly = arith::AndIOp::create(nb, nloc, jFirst, notIFirst);
    Value tie = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::eq,
                                      jFirst, iFirst);
    Value lower =
        arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::ult, j, i);
    Value before = arith::OrIOp::create(
        nb, nloc, strictly, arith::AndIOp::create(nb, nloc, tie, lower));
    Value one = arith::ExtUIOp::create(nb, nloc, nb.getI64Type(), before);
    linalg::YieldOp::create(
        nb, nloc,
        arith::AddIOp::create(nb, nloc, args.back(), one).getResult());
  };
  RankedTensorType positions = type.clone(b.getI64Type());
  return linalg::GenericOp::create(b, loc, TypeRange{positions}, inputs,
                                   ValueRange{zerosLike(b, loc, positions)},
                                   maps, iterators, body)
      .getResult(0);
}

/// `output` permuted along the dimension: element p of the result is the
/// element whose position is p (a sum over the dimension of the one element
/// that matches, so that its derivative is the same permutation back).
Value permute(OpBuilder &b, SortOp sort, Value output, Value positions) {
  Location loc = sort.getLoc();
  auto type = cast<RankedTensorType>(output.getType());
  int64_t rank = type.getRank(), dim = sort.getDimension();
  auto [here, there] = sortMaps(b.getContext(), rank, dim);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  Type element = type.getElementType();
  auto body = [&](OpBuilder &nb, Location nloc, ValueRange args) {
    Value p = arith::IndexCastOp::create(
        nb, nloc, nb.getI64Type(), linalg::IndexOp::create(nb, nloc, dim));
    Value match =
        arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::eq, args[0], p);
    Value picked = arith::SelectOp::create(nb, nloc, match, args[1],
                                           zeroOf(nb, nloc, element));
    Value sum =
        isa<FloatType>(element)
            ? arith::AddFOp::create(nb, nloc, args[2], picked).getResult()
            : arith::AddIOp::create(nb, nloc, args[2], picked).getResult();
    linalg::YieldOp::create(nb, nloc, sum);
  };
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{positions, output},
             ValueRange{zerosLike(b, loc, type)},
             ArrayRef<AffineMap>{there, there, here}, iterators, body)
      .getResult(0);
}

void lowerSort(RewriterBase &rewriter, SortOp sort) {
  rewriter.setInsertionPoint(sort);
  Value positions = sortPositions(rewriter, sort);
  SmallVector<Value> sorted;
  for (Value output : sort.getOutputs())
    sorted.push_back(permute(rewriter, sort, output, positions));
  rewriter.replaceOp(sort, sorted);
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
    SmallVector<SortOp> sorts;
    getOperation().walk([&](SortOp sort) { sorts.push_back(sort); });
    for (SortOp sort : sorts)
      lowerSort(rewriter, sort);
  }
};

} // namespace
