//===- ExpandMatmul.cpp - summa.matmul into SUMMA steps ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-expand-matmul: the 2.5D product C += A * B on a
// [q, q, d] grid is, in every depth layer k, the 2D SUMMA loop
//
//   for t in 0..q-1:
//     A_panel = broadcast A(k*q+i, t) along the row     (axes = [col], root t)
//     B_panel = broadcast B(t, j) along the column      (axes = [row], root t)
//     C(k*q+i, j) += A_panel * B_panel                  (local linalg.matmul)
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAEXPANDMATMUL
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// summa.matmul form ab -> scf.for over the q SUMMA steps.
struct ExpandMatmulAB : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getForm() != MatmulForm::ab)
      return rewriter.notifyMatchFailure(op, "not form ab");
    GridOp grid = lookupGrid(op, op.getGridAttr());
    if (!grid)
      return rewriter.notifyMatchFailure(op, "no grid");
    Location loc = op.getLoc();
    auto c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    auto cq = arith::ConstantIndexOp::create(rewriter, loc, grid.getQ());
    auto c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    FlatSymbolRefAttr gridRef = op.getGridAttr();
    auto colAxes = rewriter.getDenseI32ArrayAttr(
        {static_cast<int32_t>(GridAxis::col)});
    auto rowAxes = rewriter.getDenseI32ArrayAttr(
        {static_cast<int32_t>(GridAxis::row)});
    auto loop = scf::ForOp::create(
        rewriter, loc, c0, cq, c1, ValueRange{op.getAcc()},
        [&](OpBuilder &b, Location l, Value t, ValueRange iterArgs) {
          Value aPanel =
              BroadcastOp::create(b, l, op.getLhs().getType(), op.getLhs(),
                                  gridRef, colAxes, t)
                  .getResult();
          Value bPanel =
              BroadcastOp::create(b, l, op.getRhs().getType(), op.getRhs(),
                                  gridRef, rowAxes, t)
                  .getResult();
          Value acc = linalg::MatmulOp::create(b, l, ValueRange{aPanel, bPanel},
                                               ValueRange{iterArgs[0]})
                          .getResult(0);
          scf::YieldOp::create(b, l, acc);
        });
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

struct SummaExpandMatmulPass
    : summa::impl::SummaExpandMatmulBase<SummaExpandMatmulPass> {
  void runOnOperation() override {
    WalkResult unsupported = getOperation().walk([](MatmulOp op) {
      if (op.getForm() == MatmulForm::ab)
        return WalkResult::advance();
      op.emitOpError() << "form " << stringifyMatmulForm(op.getForm())
                       << " has no SUMMA expansion yet (only ab)";
      return WalkResult::interrupt();
    });
    if (unsupported.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandMatmulAB>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
