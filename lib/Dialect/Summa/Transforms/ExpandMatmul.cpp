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
// With q = 1 a rank owns every block it computes: the backward products
// accumulate onto C like the forward one (no partial product, no reduce).
//
// Products of the same form that broadcast the same operand (the Q, K and V
// projections of one activation, or their weight gradients) share one loop,
// so each step broadcasts the shared panel once.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAEXPANDMATMUL
#include "summa/Dialect/Summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// The indexing maps of a local product of the given form.
ArrayAttr getMaps(MLIRContext *ctx, MatmulForm form) {
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

/// The operand a form broadcasts in every step and products of that form
/// can share: the lhs for ab and atb, the rhs for abt.
Value getSharedOperand(MatmulOp op) {
  return op.getForm() == MatmulForm::abt ? op.getRhs() : op.getLhs();
}

/// Moves `value`'s defining fill/empty chain before `point` if it does not
/// dominate it already; false if it cannot.
bool hoistBefore(Value value, Operation *point, DominanceInfo &dom) {
  if (dom.properlyDominates(value, point))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || !isa<linalg::FillOp, tensor::EmptyOp, arith::ConstantOp>(def))
    return false;
  for (Value operand : def->getOperands())
    if (!hoistBefore(operand, point, dom))
      return false;
  def->moveBefore(point);
  return true;
}

/// Expands products of one form that share their broadcast operand into one
/// loop of q SUMMA steps, at the position of the first.
class GroupExpander {
public:
  GroupExpander(RewriterBase &rewriter, ArrayRef<MatmulOp> group, GridOp grid)
      : rewriter(rewriter), group(group), grid(grid),
        form(this->group.front().getForm()), ctx(rewriter.getContext()),
        gridRef(this->group.front().getGridAttr()) {}
  void run();

private:
  DenseI32ArrayAttr axes(GridAxis a) {
    return getAxesAttr(rewriter.getContext(), {a});
  }
  /// A broadcast over a group of one rank moves nothing and is not built.
  Value broadcast(OpBuilder &b, Location l, Value v, GridAxis axis, Value t) {
    if (grid.getAxisSize(axis) == 1)
      return v;
    return BroadcastOp::create(b, l, v.getType(), v, gridRef, axes(axis), t)
        .getResult();
  }
  /// acc + panel product for form ab.
  Value stepForward(OpBuilder &b, Location l, Value aPanel, MatmulOp op,
                    Value acc, Value t);
  /// acc + (owner ? reduced product : 0) for abt and atb.
  Value stepBackward(OpBuilder &b, Location l, Value shared, MatmulOp op,
                     Value acc, Value t, Value coord);

  RewriterBase &rewriter;
  SmallVector<MatmulOp> group;
  GridOp grid;
  MatmulForm form;
  MLIRContext *ctx;
  FlatSymbolRefAttr gridRef;
};

} // namespace

Value GroupExpander::stepForward(OpBuilder &b, Location l, Value aPanel,
                                 MatmulOp op, Value acc, Value t) {
  Value bPanel = broadcast(b, l, op.getRhs(), GridAxis::row, t);
  return linalg::MatmulOp::create(b, l, ValueRange{aPanel, bPanel},
                                  ValueRange{acc})
      .getResult(0);
}

Value GroupExpander::stepBackward(OpBuilder &b, Location l, Value shared,
                                  MatmulOp op, Value acc, Value t,
                                  Value coord) {
  bool abt = form == MatmulForm::abt;
  auto accType = cast<RankedTensorType>(acc.getType());
  Value lhs = abt ? op.getLhs() : shared, rhs = abt ? shared : op.getRhs();
  NamedAttribute maps(b.getStringAttr("indexing_maps"), getMaps(ctx, form));
  GridAxis reduceAxis = abt ? GridAxis::col : GridAxis::row;
  // On a grid of one rank per row and column (q = 1) every rank owns its
  // block and there is nothing to reduce: the product accumulates onto acc.
  if (grid.getAxisSize(reduceAxis) == 1)
    return linalg::MatmulOp::create(b, l, TypeRange{accType},
                                    ValueRange{lhs, rhs}, ValueRange{acc},
                                    {maps})
        .getResult(0);
  Value zero =
      arith::ConstantOp::create(b, l, b.getZeroAttr(accType.getElementType()));
  Value empty = tensor::EmptyOp::create(b, l, accType.getShape(),
                                        accType.getElementType());
  Value init = linalg::FillOp::create(b, l, zero, empty).getResult(0);
  Value partial =
      linalg::MatmulOp::create(b, l, TypeRange{accType}, ValueRange{lhs, rhs},
                               ValueRange{init}, {maps})
          .getResult(0);
  Value reduced =
      ReduceOp::create(b, l, accType, partial, gridRef, axes(reduceAxis), t,
                       ReductionKindAttr::get(ctx, ReductionKind::sum))
          .getResult();
  // The owner of block t adds the reduced product; the others keep their
  // accumulator. Written in place on the loop's accumulator.
  Value isRoot =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, coord, t);
  AffineMap id = b.getMultiDimIdentityMap(accType.getRank());
  SmallVector<utils::IteratorType> parallel(accType.getRank(),
                                            utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, l, TypeRange{accType}, ValueRange{reduced}, ValueRange{acc},
             ArrayRef<AffineMap>{id, id}, parallel,
             [&](OpBuilder &nb, Location nl, ValueRange args) {
               Value sum = arith::AddFOp::create(nb, nl, args[1], args[0]);
               Value kept =
                   arith::SelectOp::create(nb, nl, isRoot, sum, args[1]);
               linalg::YieldOp::create(nb, nl, kept);
             })
      .getResult(0);
}

void GroupExpander::run() {
  MatmulOp first = group.front();
  Location loc = first.getLoc();
  rewriter.setInsertionPoint(first);
  auto c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
  auto cq = arith::ConstantIndexOp::create(rewriter, loc, grid.getQ());
  auto c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
  Value coord;
  if (form != MatmulForm::ab)
    coord = CoordOp::create(rewriter, loc, rewriter.getIndexType(), gridRef,
                            GridAxisAttr::get(ctx, form == MatmulForm::abt
                                                       ? GridAxis::col
                                                       : GridAxis::row));
  SmallVector<Value> accs;
  for (MatmulOp op : group)
    accs.push_back(op.getAcc());
  Value shared = getSharedOperand(first);
  // ab and atb broadcast the lhs panel of column t along the row; abt the
  // rhs panel of row t along the column.
  GridAxis sharedAxis = form == MatmulForm::abt ? GridAxis::row : GridAxis::col;
  auto loop = scf::ForOp::create(
      rewriter, loc, c0, cq, c1, accs,
      [&](OpBuilder &b, Location l, Value t, ValueRange iterArgs) {
        Value panel = broadcast(b, l, shared, sharedAxis, t);
        SmallVector<Value> next;
        for (auto [i, acc] : llvm::enumerate(iterArgs))
          next.push_back(
              form == MatmulForm::ab
                  ? stepForward(b, l, panel, group[i], acc, t)
                  : stepBackward(b, l, panel, group[i], acc, t, coord));
        scf::YieldOp::create(b, l, next);
      });
  for (auto [i, result] : llvm::enumerate(loop.getResults())) {
    MatmulOp op = group[i];
    Value value = result;
    if (form == MatmulForm::atb && grid.getD() > 1) {
      rewriter.setInsertionPointAfter(loop);
      auto sum = ReductionKindAttr::get(ctx, ReductionKind::sum);
      // Each depth replica keeps its block of the sum (depth_scatter), or
      // all of it.
      if (std::optional<uint64_t> dim = op.getDepthScatter())
        value = ReduceScatterOp::create(rewriter, op.getLoc(),
                                        op.getResult().getType(), value,
                                        Value(), gridRef, axes(GridAxis::depth),
                                        rewriter.getI64IntegerAttr(*dim), sum)
                    .getResult();
      else
        value = AllReduceOp::create(rewriter, op.getLoc(), value.getType(),
                                    value, gridRef, axes(GridAxis::depth), sum)
                    .getResult();
    }
    rewriter.replaceOp(op, value);
  }
}

namespace {
struct SummaExpandMatmulPass
    : summa::impl::SummaExpandMatmulBase<SummaExpandMatmulPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void SummaExpandMatmulPass::runOnOperation() {
  // Group the products of one block by (form, shared operand), in order.
  SmallVector<SmallVector<MatmulOp>> groups;
  DenseMap<std::tuple<Block *, int, Value>, unsigned> groupOf;
  getOperation().walk([&](MatmulOp op) {
    auto key = std::make_tuple(op->getBlock(), static_cast<int>(op.getForm()),
                               getSharedOperand(op));
    auto [it, inserted] = groupOf.try_emplace(key, groups.size());
    if (inserted || !fuseShared)
      groups.emplace_back();
    groups[fuseShared ? it->second : groups.size() - 1].push_back(op);
  });
  IRRewriter rewriter(&getContext());
  for (SmallVector<MatmulOp> &candidates : groups) {
    GridOp grid =
        lookupGrid(candidates.front(), candidates.front().getGridAttr());
    if (!grid) {
      candidates.front().emitOpError() << "refers to no summa.grid";
      return signalPassFailure();
    }
    // A later product joins the loop at the first one if its own operands
    // are available there (its accumulator's fill can move up).
    DominanceInfo dom(candidates.front()->getParentOp());
    SmallVector<MatmulOp> group = {candidates.front()};
    SmallVector<MatmulOp> alone;
    for (MatmulOp op : llvm::drop_begin(candidates)) {
      Operation *first = candidates.front();
      Value own = op.getForm() == MatmulForm::abt ? op.getLhs() : op.getRhs();
      bool joins = op.getGridAttr() == candidates.front().getGridAttr() &&
                   dom.properlyDominates(own, first) &&
                   hoistBefore(op.getAcc(), first, dom);
      (joins ? group : alone).push_back(op);
    }
    GroupExpander(rewriter, group, grid).run();
    for (MatmulOp op : alone)
      GroupExpander(rewriter, {op}, grid).run();
  }
}
