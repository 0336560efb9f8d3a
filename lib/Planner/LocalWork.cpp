//===- LocalWork.cpp - bytes the local loop nests move ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// localTraffic: the bytes one execution of an op reads and writes on its
// local tiles, for the local term of the time model (docs/Planner.md,
// "Time"). Every linalg op but linalg.matmul (a GEMM: summaRtMatmul) is a
// loop nest that is bound by memory on a CPU and in a GPU kernel alike:
//
//  * it reads each tensor input once and writes each result once, and reads
//    an init whose value the body uses (a reduction's accumulator);
//  * a table read inside its body (a gather) costs the rows it reads: at
//    most one element per iteration of the result, at most the table;
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

int64_t
mlir::summa::plan::detail::localTraffic(Operation *op,
                                        function_ref<int64_t(Value)> bytesOf) {
  auto tensorBytes = [&](Value v) -> int64_t {
    return isa<RankedTensorType>(v.getType()) ? bytesOf(v) : 0;
  };
  if (isa<linalg::MatmulOp>(op))
    return 0; // a GEMM
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (!linalgOp.hasPureTensorSemantics())
      return 0;
    int64_t bytes = 0;
    for (Value input : linalgOp.getDpsInputs())
      bytes += tensorBytes(input);
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      bytes += tensorBytes(linalgOp.getTiedOpResult(&init));
      if (linalgOp.payloadUsesValueFromOperand(&init))
        bytes += tensorBytes(init.get());
    }
    return bytes + tableTraffic(op, bytesOf);
  }
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return tensorBytes(softmax.getInput()) +
           tensorBytes(softmax.getResult()[0]);
  if (isa<tensor::PadOp, tensor::ConcatOp>(op)) {
    int64_t bytes = tensorBytes(op->getResult(0));
    for (Value v : op->getOperands())
      bytes += tensorBytes(v);
    return bytes;
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op))
    return 2 * tensorBytes(insert.getSource());
  if (isa<tensor::GenerateOp, tensor::FromElementsOp, tensor::SplatOp>(op))
    return tensorBytes(op->getResult(0));
  return 0;
}
