//===- FuseElementwise.cpp - elementwise producers into consumers -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-fuse-elementwise: upstream's elementwise fusion patterns
// with summa's control (single-use producers, never into a contraction).
//
//===----------------------------------------------------------------------===//

#include "summa/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAFUSEELEMENTWISE
#include "summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

/// Whether the producer of `operand` may be fused into its owner: the
/// producer's results have no other use (fusing would compute it twice),
/// its body does not read its own outputs (an accumulation such as
/// summa-differentiate's `db = 0 + ...`: upstream's fusion keeps such an
/// output as a second output of the fused op, indexed through the
/// consumer's map, so where the consumer broadcasts the producer the
/// accumulation repeats once per broadcast element) and the owner is not a
/// contraction (it would no longer be a GEMM for the library).
static bool shouldFuse(OpOperand *operand) {
  auto producer = operand->get().getDefiningOp<linalg::LinalgOp>();
  if (!producer || !producer->hasOneUse())
    return false;
  for (OpOperand &init : producer.getDpsInitsMutable())
    if (producer.payloadUsesValueFromOperand(&init))
      return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  return consumer && !linalg::isaContractionOpInterface(consumer);
}

namespace {
struct SummaFuseElementwisePass
    : summa::impl::SummaFuseElementwiseBase<SummaFuseElementwisePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
