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
// The backward products broadcast one operand and reduce the partial
// product to the rank that owns the block of the result:
//
//   A·Bᵀ (dX = dY·Wᵀ):  B_panel = broadcast W(t, j) along the column
//     (axes = [row], root t); P = dY(ki, j)·B_panelᵀ; C(ki, t) += reduce P
//     along the row (axes = [col], root t).
//   Aᵀ·B (dW = Xᵀ·dY):  A_panel = broadcast X(ki, t) along the row
//     (axes = [col], root t); P = A_panelᵀ·dY(ki, j); C(t, j) += reduce P
//     along the column (axes = [row], root t); after the loop the depth
//     layers' sums are added by an all-reduce over [depth] (depth splits
//     the batch, and the weight is replicated over depth).
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

/// The indexing maps of a local product of the given form.
static ArrayAttr getMaps(MLIRContext *ctx, MatmulForm form) {
  AffineExpr d0, d1, d2;
  bindDims(ctx, d0, d1, d2);
  auto map = [&](AffineExpr a, AffineExpr b) {
    return AffineMapAttr::get(AffineMap::get(3, 0, {a, b}, ctx));
  };
  Attribute c = map(d0, d1);
  switch (form) {
  case MatmulForm::ab:
    return ArrayAttr::get(ctx, {map(d0, d2), map(d2, d1), c});
  case MatmulForm::abt:
    return ArrayAttr::get(ctx, {map(d0, d2), map(d1, d2), c});
  case MatmulForm::atb:
    return ArrayAttr::get(ctx, {map(d2, d0), map(d2, d1), c});
  }
  llvm_unreachable("covered switch");
}

/// summa.matmul forms abt and atb -> scf.for over the q steps of a
/// broadcast, a local product and a reduce to the owner of the block.
struct ExpandMatmulBackward : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    MatmulForm form = op.getForm();
    if (form == MatmulForm::ab)
      return rewriter.notifyMatchFailure(op, "form ab");
    GridOp grid = lookupGrid(op, op.getGridAttr());
    if (!grid)
      return rewriter.notifyMatchFailure(op, "no grid");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    bool abt = form == MatmulForm::abt;
    // abt broadcasts the rhs along the column and reduces along the row;
    // atb broadcasts the lhs along the row and reduces along the column.
    GridAxis bcastAxis = abt ? GridAxis::row : GridAxis::col;
    GridAxis reduceAxis = abt ? GridAxis::col : GridAxis::row;
    auto axesAttr = [&](GridAxis a) {
      return rewriter.getDenseI32ArrayAttr({static_cast<int32_t>(a)});
    };
    FlatSymbolRefAttr gridRef = op.getGridAttr();
    auto accType = cast<RankedTensorType>(op.getAcc().getType());
    auto c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    auto cq = arith::ConstantIndexOp::create(rewriter, loc, grid.getQ());
    auto c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(accType.getElementType()));
    Value coord = CoordOp::create(rewriter, loc, rewriter.getIndexType(),
                                  gridRef, GridAxisAttr::get(ctx, reduceAxis));
    NamedAttribute maps(rewriter.getStringAttr("indexing_maps"),
                        getMaps(ctx, form));
    auto loop = scf::ForOp::create(
        rewriter, loc, c0, cq, c1, ValueRange{op.getAcc()},
        [&](OpBuilder &b, Location l, Value t, ValueRange iterArgs) {
          Value lhs = op.getLhs(), rhs = op.getRhs();
          Value &panel = abt ? rhs : lhs;
          panel = BroadcastOp::create(b, l, panel.getType(), panel, gridRef,
                                      axesAttr(bcastAxis), t)
                      .getResult();
          Value empty = tensor::EmptyOp::create(b, l, accType.getShape(),
                                                accType.getElementType());
          Value init =
              linalg::FillOp::create(b, l, zero, empty).getResult(0);
          Value partial =
              linalg::MatmulOp::create(b, l, TypeRange{accType},
                                       ValueRange{lhs, rhs}, ValueRange{init},
                                       ArrayRef<NamedAttribute>{maps})
                  .getResult(0);
          Value reduced =
              ReduceOp::create(b, l, accType, partial, gridRef,
                               axesAttr(reduceAxis), t,
                               ReductionKindAttr::get(ctx, ReductionKind::sum))
                  .getResult();
          // The owner of block t adds the reduced product; the others keep
          // their accumulator. Written in place on the loop's accumulator.
          Value isRoot = arith::CmpIOp::create(
              b, l, arith::CmpIPredicate::eq, coord, t);
          AffineMap id = b.getMultiDimIdentityMap(accType.getRank());
          SmallVector<utils::IteratorType> parallel(
              accType.getRank(), utils::IteratorType::parallel);
          Value next =
              linalg::GenericOp::create(
                  b, l, TypeRange{accType}, ValueRange{reduced},
                  ValueRange{iterArgs[0]}, ArrayRef<AffineMap>{id, id},
                  parallel,
                  [&](OpBuilder &nb, Location nl, ValueRange args) {
                    Value sum = arith::AddFOp::create(nb, nl, args[1], args[0]);
                    Value kept =
                        arith::SelectOp::create(nb, nl, isRoot, sum, args[1]);
                    linalg::YieldOp::create(nb, nl, kept);
                  })
                  .getResult(0);
          scf::YieldOp::create(b, l, next);
        });
    Value result = loop.getResult(0);
    if (!abt)
      result = AllReduceOp::create(
                   rewriter, loc, accType, result, gridRef,
                   axesAttr(GridAxis::depth),
                   ReductionKindAttr::get(ctx, ReductionKind::sum))
                   .getResult();
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SummaExpandMatmulPass
    : summa::impl::SummaExpandMatmulBase<SummaExpandMatmulPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandMatmulAB, ExpandMatmulBackward>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
