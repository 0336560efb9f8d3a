//===- Normalize.cpp - exporters' forms into summa's ------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-normalize: batched contractions as generics, with the
// reshapes that merge their batch dimensions folded into them (see the
// pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMANORMALIZE
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

/// A generic with at least two parallel loops shared by all of its operands
/// (batch dimensions) and a reduction: a batched contraction.
static bool isBatchedContraction(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || generic.getNumReductionLoops() == 0 ||
      generic.getNumDpsInputs() != 2 || generic.getNumDpsInits() != 1)
    return false;
  if (!linalg::isaContractionOpInterface(generic))
    return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(generic);
  return succeeded(dims) && !dims->batch.empty();
}

namespace {
struct SummaNormalizePass
    : summa::impl::SummaNormalizeBase<SummaNormalizePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    IRRewriter rewriter(ctx);
    SmallVector<linalg::BatchMatmulOp> batched;
    getOperation().walk(
        [&](linalg::BatchMatmulOp op) { batched.push_back(op); });
    for (linalg::BatchMatmulOp op : batched) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::generalizeNamedOp(rewriter, op))) {
        op.emitError() << "summa-normalize: cannot write this "
                          "linalg.batch_matmul as a linalg.generic";
        return signalPassFailure();
      }
    }
    // Fold the reshapes on either side of a batched contraction into it.
    RewritePatternSet patterns(ctx);
    linalg::populateFoldReshapeOpsByExpansionPatterns(
        patterns, [](OpOperand *fused) {
          Operation *producer = fused->get().getDefiningOp();
          Operation *consumer = fused->getOwner();
          return isBatchedContraction(producer) ||
                 isBatchedContraction(consumer);
        });
    linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::EmptyOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::populateFoldTensorEmptyPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
