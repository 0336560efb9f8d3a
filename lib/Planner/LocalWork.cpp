//===- LocalWork.cpp - bytes the local loop nests move ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// localWork: what one execution of an op costs on its local tiles, for the
// local terms of the time model (docs/Planner.md, "Time"). linalg.matmul is
// a GEMM (summaRtMatmul, counted apart); a generic that sums a product over
// its reduction loops (attention's products) is a local GEMM
// (convert-contractions-to-runtime's summaRtMatmulBatched), 2 flops per
// iteration; every other linalg op is a loop nest, timed by the bytes it
// moves and by its iterations:
//
//  * it reads each tensor input once and writes each result once, and reads
//    an init whose value the body uses (a reduction's accumulator);
//  * a table read inside its body (a gather) costs the rows it reads: at
//    most one element per iteration of the result, at most the table;
//  * one with reduction loops counts its iterations (the product of its
//    loop ranges: each carries the accumulator to the next); an elementwise
//    one vectorises and is bound by memory;
//  * tensor.pad and tensor.concat write their result and read their
//    inputs; tensor.insert_slice reads its source and writes it into the
//    destination; reshapes, casts and extract_slice are views (their
//    readers pay); collectives are the communication term.
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

/// Bytes of the tables `op`'s body reads with tensor.extract: for each, the
/// elements of the results (one read per iteration), at most the table.
static int64_t tableTraffic(Operation *op,
                            function_ref<int64_t(Value)> bytesOf) {
  int64_t resultElements = 0;
  for (Value r : op->getResults())
    if (auto type = dyn_cast<ShapedType>(r.getType());
        type && type.hasStaticShape())
      resultElements = std::max(resultElements, type.getNumElements());
  int64_t bytes = 0;
  op->walk([&](tensor::ExtractOp extract) {
    Value table = extract.getTensor();
    if (op->isAncestor(table.getParentBlock()->getParentOp()))
      return;
    int64_t perElement = elementBytes(extract.getType());
    bytes += std::min(bytesOf(table), resultElements * perElement);
  });
  return bytes;
}

/// The product of the static loop ranges of `op` (0 if one is dynamic).
static int64_t iterationsOf(linalg::LinalgOp op) {
  int64_t iterations = 1;
  for (int64_t range : op.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return 0;
    iterations *= range;
  }
  return iterations;
}

/// The bytes of the largest operand (input or accumulator) that the
/// innermost loop (the last loop dimension: convert-linalg-to-loops keeps
/// their order) walks along a dimension that is not the operand's last: an
/// element a cache line apart from the previous one every iteration.
static int64_t stridedOperandBytes(linalg::LinalgOp op,
                                   function_ref<int64_t(Value)> bytesOf) {
  AffineExpr inner = getAffineDimExpr(op.getNumLoops() - 1, op.getContext());
  int64_t bytes = 0;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (map.getNumResults() < 2)
      continue;
    std::optional<unsigned> at = map.getResultPosition(inner);
    if (at && *at + 1 != map.getNumResults())
      bytes = std::max(bytes, bytesOf(operand.get()));
  }
  return bytes;
}

/// Elements of a statically shaped tensor, else 0.
static int64_t elementsOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() ? type.getNumElements() : 0;
}

LocalWork mlir::summa::plan::detail::localWork(
    Operation *op, function_ref<int64_t(Value)> bytesOf, int64_t divisor) {
  auto tensorBytes = [&](Value v) -> int64_t {
    return isa<RankedTensorType>(v.getType()) ? bytesOf(v) : 0;
  };
  LocalWork work;
  if (isa<linalg::MatmulOp>(op))
    return work; // a GEMM: summaRtMatmul
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (!linalgOp.hasPureTensorSemantics())
      return work;
    // A product summed over its reduction loops (attention's Q*K^T and
    // P*V): convert-contractions-to-runtime makes it a batched GEMM.
    if (linalg::isaContractionOpInterface(linalgOp)) {
      work.gemmFlops = 2 * iterationsOf(linalgOp) / divisor;
      for (Value input : linalgOp.getDpsInputs())
        work.gemmBytes += tensorBytes(input);
      for (Value result : op->getResults())
        work.gemmBytes += tensorBytes(result);
      return work;
    }
    for (Value input : linalgOp.getDpsInputs())
      work.bytes += tensorBytes(input);
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      work.bytes += tensorBytes(linalgOp.getTiedOpResult(&init));
      if (linalgOp.payloadUsesValueFromOperand(&init))
        work.bytes += tensorBytes(init.get());
    }
    work.bytes += tableTraffic(op, bytesOf);
    // An elementwise loop nest vectorises and is bound by memory; one with
    // reduction loops carries its accumulator from iteration to iteration.
    if (linalgOp.getNumReductionLoops() > 0) {
      work.iterations = iterationsOf(linalgOp) / divisor;
      work.stridedBytes = stridedOperandBytes(linalgOp, bytesOf);
    }
    return work;
  }
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    work.bytes =
        tensorBytes(softmax.getInput()) + tensorBytes(softmax.getResult()[0]);
    work.iterations = elementsOf(softmax.getInput()) / divisor;
    return work;
  }
  if (isa<tensor::PadOp, tensor::ConcatOp>(op)) {
    work.bytes = tensorBytes(op->getResult(0));
    for (Value v : op->getOperands())
      work.bytes += tensorBytes(v);
    return work;
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    work.bytes = 2 * tensorBytes(insert.getSource());
    return work;
  }
  if (isa<tensor::GenerateOp, tensor::FromElementsOp, tensor::SplatOp>(op))
    work.bytes = tensorBytes(op->getResult(0));
  return work;
}
