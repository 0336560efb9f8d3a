//===- Differentiate.cpp - reverse mode on linalg tensors -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-differentiate: from a forward function whose first result
// is a loss, builds `<name>_grad` returning the loss and the gradients of its
// weight and bias arguments. The backward is written in the same IR the
// partitioner reads, so it is partitioned like a hand-written one:
//
//  * linalg.matmul A·B: dA = dC·Bᵀ and dB = Aᵀ·dC as linalg.matmul with
//    transposing maps (2.5D SUMMA forms abt and atb);
//  * any other structured op: for every active operand, a linalg.generic over
//    the same loops that recomputes the body, differentiates it forward-mode
//    with respect to that operand and accumulates dOut·∂body into a
//    zero-filled adjoint laid out by the operand's indexing map (loops the
//    map drops become reductions: a bias gradient sums over tokens);
//    reductions with a max/min combiner route dOut to the elements equal to
//    the result;
//  * every other op: its family's rule (DerivativeRuleOpInterface, in
//    lib/Dialect/Summa/OpRules/: a reshape's adjoint is the inverse
//    reshape, a slice's its place in zeros, ...).
//
//===----------------------------------------------------------------------===//

#include "summa/Conversion/Passes.h"
#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Dialect/Summa/IR/GradcheckAttr.h"
#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"
#include "summa/Dialect/Summa/OpRules/OpRules.h"
#include "summa/Support/Elementwise.h"
#include "summa/Support/Functions.h"
#include "summa/Support/IndexingMaps.h"
#include "summa/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "summa/Dialect/Summa/Analysis/Gather.h"
#include "summa/Dialect/Summa/Analysis/Reductions.h"
#include "summa/Transforms/Accumulate.h"
#include "summa/Transforms/Optimizer.h"
#include "summa/Transforms/Precision.h"
#include "summa/Transforms/Recompute.h"
#include "llvm/ADT/TypeSwitch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include <cmath>

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMADIFFERENTIATE
#include "summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// Builds the backward of one function, in place, before its return. The
/// derivative rules of the ops outside linalg (DerivativeRuleOpInterface)
/// see it as their DerivativeState.
class Differentiator : public DerivativeState {
public:
  /// `floatParams`: every float tensor argument without a role is a
  /// parameter (params=floats), not only weights and biases.
  /// `optimizer`: the update after the backward (none when its rate is 0);
  /// `returnGradients`: the gradients are results too. `recompute`: which
  /// parts of the forward the backward computes again before it reads them
  /// ("layers": findRecomputeCuts' segments, "attention":
  /// findAttentionRanges'). `lossScale`: the
  /// adjoint the loss is seeded with (1/K for one of K accumulated
  /// micro-batches: `(loss / K).backward()`).
  Differentiator(func::FuncOp func, const OptimizerOptions &optimizer,
                 bool returnGradients, bool floatParams, StringRef recompute,
                 double lossScale = 1.0)
      : func(func), optimizer(optimizer), returnGradients(returnGradients),
        floatParams(floatParams), recompute(recompute), lossScale(lossScale),
        b(func.getContext()) {}
  LogicalResult run();
  /// After run(): the parameters' argument numbers, in the order of the
  /// gradients.
  ArrayRef<unsigned> getParameters() const { return paramIndices; }

  // DerivativeState.
  OpBuilder &getBuilder() override { return b; }
  Value getAdjoint(Value v) const override { return adjoints.lookup(v); }
  bool isActive(Value v) const override { return active.contains(v); }
  void accumulate(Location loc, Value v, Value d) override;
  Value zeros(Location loc, Type type) override;

private:
  LogicalResult findParameters(SmallVectorImpl<BlockArgument> &params);
  Value constantLike(Location loc, Type type, double value);
  /// Elementwise a + b.
  Value add(Location loc, Value lhs, Value rhs);
  LogicalResult visit(Operation *op);
  /// The ops of `segment` cloned at the insertion point (active and gathers
  /// as the originals), the adjoints of their results moved to the clones.
  SmallVector<Operation *> recomputeSegment(ArrayRef<Operation *> segment);
  LogicalResult visitMatmul(linalg::MatmulOp op);
  LogicalResult visitStructured(linalg::LinalgOp op);
  LogicalResult visitGather(linalg::GenericOp op);
  /// The adjoint of operand `k` of `op` for result `r` with adjoint `dR`.
  FailureOr<Value> operandAdjoint(linalg::LinalgOp op, unsigned k, unsigned r,
                                  Value dR);

  func::FuncOp func;
  OptimizerOptions optimizer;
  bool returnGradients;
  bool floatParams;
  /// "none", "layers" or "attention".
  std::string recompute;
  double lossScale;
  SmallVector<unsigned> paramIndices;
  OpBuilder b;
  llvm::SmallPtrSet<Value, 32> active;
  DenseMap<Value, Value> adjoints;
  /// Gathers (see gatherRead) whose table is active: visitGather.
  llvm::SmallPtrSet<Operation *, 8> gathers;
};

/// The forward-mode derivative of the scalar ops of a structured op's body.
class ScalarTangents {
public:
  ScalarTangents(OpBuilder &b, Operation *owner) : b(b), owner(owner) {}
  void seed(Value v) { tangents[v] = one(v.getLoc(), v.getType()); }
  /// Propagates through `op`; fails for an op with no rule.
  LogicalResult propagate(Operation *op);
  /// The tangent of `v`, or null if it is structurally zero.
  Value get(Value v) const { return tangents.lookup(v); }

private:
  /// The tangent of `op`'s result (null: structurally zero), or nullopt if
  /// `op` is not an arith op with a rule (mathTangent: a math op).
  std::optional<Value> arithTangent(Operation *op);
  std::optional<Value> mathTangent(Operation *op);

  Value one(Location loc, Type t) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, 1.0));
  }
  Value cst(Location loc, Type t, double v) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
  }
  Value zeroIfNull(Value t, Value like) {
    return t ? t : cst(like.getLoc(), like.getType(), 0.0);
  }

  OpBuilder &b;
  Operation *owner;
  DenseMap<Value, Value> tangents;
};

} // namespace

LogicalResult ScalarTangents::propagate(Operation *op) {
  bool any = llvm::any_of(op->getOperands(),
                          [&](Value v) { return tangents.contains(v); });
  if (!any || op->getNumResults() != 1)
    return success();
  std::optional<Value> out = arithTangent(op);
  if (!out)
    out = mathTangent(op);
  if (!out)
    return owner->emitError() << "summa-differentiate: no derivative for '"
                              << op->getName() << "' in the body of this op";
  if (*out)
    tangents[op->getResult(0)] = *out;
  return success();
}

std::optional<Value> ScalarTangents::arithTangent(Operation *op) {
  Location loc = op->getLoc();
  Value y = op->getResult(0);
  auto t = [&](unsigned i) { return tangents.lookup(op->getOperand(i)); };
  auto mul = [&](Value x, Value yv) {
    return arith::MulFOp::create(b, loc, x, yv).getResult();
  };
  return llvm::TypeSwitch<Operation *, std::optional<Value>>(op)
      .Case([&](arith::AddFOp) {
        if (!t(0) || !t(1))
          return t(0) ? t(0) : t(1);
        return arith::AddFOp::create(b, loc, t(0), t(1)).getResult();
      })
      .Case([&](arith::SubFOp) {
        if (!t(1))
          return t(0);
        Value neg = arith::NegFOp::create(b, loc, t(1));
        return t(0) ? arith::AddFOp::create(b, loc, t(0), neg).getResult()
                    : neg;
      })
      .Case([&](arith::MulFOp m) {
        Value l = t(0) ? mul(t(0), m.getRhs()) : Value();
        Value r = t(1) ? mul(m.getLhs(), t(1)) : Value();
        if (!l || !r)
          return l ? l : r;
        return arith::AddFOp::create(b, loc, l, r).getResult();
      })
      .Case([&](arith::DivFOp d) {
        // (ta - y·tb) / b
        Value num = zeroIfNull(t(0), y);
        if (t(1))
          num = arith::SubFOp::create(b, loc, num, mul(y, t(1)));
        return arith::DivFOp::create(b, loc, num, d.getRhs()).getResult();
      })
      .Case([&](arith::NegFOp) {
        return arith::NegFOp::create(b, loc, t(0)).getResult();
      })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MinimumFOp,
            arith::MinNumFOp>([&](Operation *m) {
        bool isMax = isa<arith::MaximumFOp, arith::MaxNumFOp>(m);
        Value pick = arith::CmpFOp::create(b, loc,
                                           isMax ? arith::CmpFPredicate::OGE
                                                 : arith::CmpFPredicate::OLE,
                                           m->getOperand(0), m->getOperand(1));
        return arith::SelectOp::create(b, loc, pick, zeroIfNull(t(0), y),
                                       zeroIfNull(t(1), y))
            .getResult();
      })
      .Case([&](arith::SelectOp s) {
        if (tangents.contains(s.getCondition()))
          return Value();
        return arith::SelectOp::create(b, loc, s.getCondition(),
                                       zeroIfNull(t(1), y), zeroIfNull(t(2), y))
            .getResult();
      })
      .Case([&](arith::ExtFOp) {
        return arith::ExtFOp::create(b, loc, y.getType(), t(0)).getResult();
      })
      .Case([&](arith::TruncFOp) {
        return arith::TruncFOp::create(b, loc, y.getType(), t(0)).getResult();
      })
      .Case<arith::CmpFOp, arith::CmpIOp>([](Operation *) {
        return Value(); // Piecewise constant: no derivative.
      })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<Value> ScalarTangents::mathTangent(Operation *op) {
  Location loc = op->getLoc();
  Value y = op->getResult(0);
  Value t0 = tangents.lookup(op->getOperand(0));
  auto mul = [&](Value x, Value yv) {
    return arith::MulFOp::create(b, loc, x, yv).getResult();
  };
  return llvm::TypeSwitch<Operation *, std::optional<Value>>(op)
      .Case([&](math::TanhOp) {
        Value oneMinus = arith::SubFOp::create(
            b, loc, cst(loc, y.getType(), 1.0), mul(y, y));
        return mul(oneMinus, t0);
      })
      .Case([&](math::ExpOp) { return mul(y, t0); })
      .Case([&](math::ErfOp e) {
        Value a = e.getOperand();
        Value negSq = arith::NegFOp::create(b, loc, mul(a, a));
        Value g = mul(cst(loc, y.getType(), 2.0 / std::sqrt(M_PI)),
                      math::ExpOp::create(b, loc, negSq));
        return mul(g, t0);
      })
      .Case([&](math::RsqrtOp) {
        Value y3 = mul(mul(y, y), y);
        return mul(mul(cst(loc, y.getType(), -0.5), y3), t0);
      })
      .Case([&](math::SqrtOp) {
        Value half =
            arith::DivFOp::create(b, loc, cst(loc, y.getType(), 0.5), y);
        return mul(half, t0);
      })
      .Case([&](math::LogOp l) {
        return arith::DivFOp::create(b, loc, t0, l.getOperand()).getResult();
      })
      .Case([&](math::FPowIOp p) {
        // d(x^n) = n x^(n-1) dx, n an integer operand (torch-mlir's x**3
        // in GELU, x**2 in RMSNorm); no tangent flows into n.
        Value n = p.getRhs();
        Value one =
            arith::ConstantOp::create(b, loc, b.getIntegerAttr(n.getType(), 1));
        Value lower = math::FPowIOp::create(
            b, loc, p.getLhs(), arith::SubIOp::create(b, loc, n, one));
        Value nf = arith::SIToFPOp::create(b, loc, y.getType(), n);
        return mul(mul(nf, lower), t0);
      })
      .Default([](Operation *) { return std::nullopt; });
}

Value Differentiator::constantLike(Location loc, Type type, double value) {
  auto tensor = cast<RankedTensorType>(type);
  Value empty = tensor::EmptyOp::create(b, loc, tensor.getShape(),
                                        tensor.getElementType());
  Value scalar = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(tensor.getElementType(), value));
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

Value Differentiator::zeros(Location loc, Type type) {
  return constantLike(loc, type, 0.0);
}

Value Differentiator::add(Location loc, Value lhs, Value rhs) {
  return addElements(b, loc, lhs, rhs);
}

void Differentiator::accumulate(Location loc, Value v, Value d) {
  auto it = adjoints.find(v);
  if (it == adjoints.end())
    adjoints[v] = d;
  else
    it->second = add(loc, it->second, d);
}

LogicalResult Differentiator::visitMatmul(linalg::MatmulOp op) {
  std::optional<MatmulForm> form = getMatmulForm(op.getIndexingMapsArray());
  if (!form)
    return op.emitError() << "summa-differentiate: a linalg.matmul is "
                             "differentiated in the forms A·B, A·Bᵀ and Aᵀ·B "
                             "(this one has other indexing maps)";
  Value dC = adjoints.lookup(op->getResult(0));
  if (!dC)
    return success();
  Location loc = op.getLoc();
  Value a = op.getDpsInputOperand(0)->get(),
        bm = op.getDpsInputOperand(1)->get(),
        c0 = op.getDpsInitOperand(0)->get();
  MLIRContext *ctx = b.getContext();
  AffineExpr d0, d1, d2;
  bindDims(ctx, d0, d1, d2);
  // The maps of a product of `form` (result (d0, d1), contracted d2).
  auto maps = [&](MatmulForm f) {
    AffineMap lhs = f == MatmulForm::atb ? AffineMap::get(3, 0, {d2, d0}, ctx)
                                         : AffineMap::get(3, 0, {d0, d2}, ctx);
    AffineMap rhs = f == MatmulForm::abt ? AffineMap::get(3, 0, {d1, d2}, ctx)
                                         : AffineMap::get(3, 0, {d2, d1}, ctx);
    return NamedAttribute(b.getStringAttr("indexing_maps"),
                          b.getAffineMapArrayAttr(
                              {lhs, rhs, AffineMap::get(3, 0, {d0, d1}, ctx)}));
  };
  // The adjoint of `operand`: the product of `lhs` and `rhs` in `f`.
  auto adjoint = [&](Value operand, Value lhs, Value rhs, MatmulForm f) {
    if (!isActive(operand))
      return;
    Value init = zeros(loc, operand.getType());
    Value product = linalg::MatmulOp::create(
                        b, loc, TypeRange{operand.getType()},
                        ValueRange{lhs, rhs}, ValueRange{init}, {maps(f)})
                        .getResult(0);
    accumulate(loc, operand, product);
  };
  switch (*form) {
  case MatmulForm::ab:                   // C[M,N] = A[M,K] · B[K,N]
    adjoint(a, dC, bm, MatmulForm::abt); // dA = dC · Bᵀ
    adjoint(bm, a, dC, MatmulForm::atb); // dB = Aᵀ · dC
    break;
  case MatmulForm::abt:                  // C[M,N] = A[M,K] · B[N,K]ᵀ
    adjoint(a, dC, bm, MatmulForm::ab);  // dA = dC · B
    adjoint(bm, dC, a, MatmulForm::atb); // dB = dCᵀ · A
    break;
  case MatmulForm::atb:                  // C[M,N] = A[K,M]ᵀ · B[K,N]
    adjoint(a, bm, dC, MatmulForm::abt); // dA = B · dCᵀ
    adjoint(bm, a, dC, MatmulForm::ab);  // dB = A · dC
    break;
  }
  if (isActive(c0))
    accumulate(loc, c0, dC);
  return success();
}

FailureOr<Value> Differentiator::operandAdjoint(linalg::LinalgOp op, unsigned k,
                                                unsigned r, Value dR) {
  Location loc = op.getLoc();
  OpOperand &target = op->getOpOperand(k);
  OpOperand &init = *op.getDpsInitOperand(r);
  Block *body = op.getBlock();
  BlockArgument targetArg = op.getMatchingBlockArgument(&target);
  BlockArgument accArg = op.getMatchingBlockArgument(&init);
  std::optional<ReductionKind> kind = getCombinerKind(accArg, r);
  bool isMaxMin = op.getNumReductionLoops() > 0 && kind &&
                  (*kind == ReductionKind::max || *kind == ReductionKind::min);
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (op.getNumReductionLoops() > 0 && !isMaxMin) {
    // A reduction's result is its accumulator's initial value combined with
    // every step's term. Only a sum (yield f(...) + acc, the accumulator
    // used there alone) has the derivatives below: each term's is dOut ·
    // ∂f, computed from the operands; any other combiner (a product, a
    // body that reads the accumulator elsewhere) would need the running
    // value, which the adjoint generic does not have.
    if (!accArg.use_empty() && (!kind || *kind != ReductionKind::sum))
      return op.emitError()
             << "summa-differentiate: a reduction is differentiated when its "
                "body adds each term to its accumulator (yield f(...) + acc) "
                "or takes their max or min; this one combines them otherwise";
    // The initial value (a bias a convolution or a GEMM starts from) enters
    // the result once, not once per step: its adjoint is the result's.
    if (&target == &init)
      return dR;
  }
  if (isMaxMin) {
    // Only `yield max(x, acc)` of an input x: dx = dOut where x == result.
    Operation *combiner = *accArg.getUsers().begin();
    if (!llvm::is_contained(combiner->getOperands(), targetArg))
      return op.emitError()
             << "summa-differentiate: a max/min reduction is differentiated "
                "only when it combines an operand directly";
  }

  // Operands of the adjoint generic: every operand of `op`, the adjoint of
  // result r (and the result itself for max/min), then the accumulator.
  SmallVector<Value> inputs(op->getOperands());
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap resultMap = op.getMatchingIndexingMap(&init);
  inputs.push_back(dR);
  maps.push_back(resultMap);
  if (isMaxMin) {
    inputs.push_back(op->getResult(r));
    maps.push_back(resultMap);
  }
  AffineMap targetMap = op.getMatchingIndexingMap(&target);
  maps.push_back(targetMap);
  // A loop the target's map reads only through a window (a convolution's
  // input: `oh * stride + kh`) adds several terms to one element: it is a
  // reduction of the adjoint, not a parallel loop (a GPU thread per
  // iteration would race on the element).
  llvm::SmallBitVector windowed = getWindowedLoops(targetMap, op.getNumLoops());
  SmallVector<utils::IteratorType> iterators;
  for (unsigned l = 0; l < op.getNumLoops(); ++l)
    iterators.push_back(targetMap.isFunctionOfDim(l) && !windowed.test(l)
                            ? utils::IteratorType::parallel
                            : utils::IteratorType::reduction);
  Value acc0 = zeros(loc, target.get().getType());
  unsigned numOperands = op->getNumOperands();

  LogicalResult status = success();
  auto adjoint = linalg::GenericOp::create(
      b, loc, TypeRange{acc0.getType()}, inputs, ValueRange{acc0}, maps,
      iterators, [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value dOut = args[numOperands];
        Value acc = args.back();
        Value contribution;
        if (isMaxMin) {
          Value x = args[k], result = args[numOperands + 1];
          Value hit = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ,
                                            x, result);
          Value zero = arith::ConstantOp::create(
              nb, nl, nb.getFloatAttr(x.getType(), 0.0));
          contribution = arith::SelectOp::create(nb, nl, hit, dOut, zero);
        } else {
          // Recompute the body, then differentiate it forward-mode.
          IRMapping mapping;
          for (auto [arg, replacement] :
               llvm::zip(body->getArguments(), args.take_front(numOperands)))
            mapping.map(arg, replacement);
          for (Operation &inner : body->without_terminator())
            nb.clone(inner, mapping);
          ScalarTangents tangents(nb, op);
          tangents.seed(args[k]);
          for (Operation &inner : body->without_terminator())
            if (failed(tangents.propagate(
                    mapping.lookup(inner.getResult(0)).getDefiningOp()))) {
              status = failure();
              break;
            }
          Value t = tangents.get(mapping.lookupOrDefault(yield.getOperand(r)));
          if (!t)
            t = arith::ConstantOp::create(nb, nl,
                                          nb.getFloatAttr(dOut.getType(), 0.0));
          contribution = arith::MulFOp::create(nb, nl, dOut, t);
        }
        // A body that converts (torch-mlir's LayerNorm variance in f64,
        // truncated to f32): the adjoint takes the operand's type.
        auto from = cast<FloatType>(contribution.getType());
        auto to = cast<FloatType>(acc.getType());
        if (from.getWidth() < to.getWidth())
          contribution = arith::ExtFOp::create(nb, nl, to, contribution);
        else if (from.getWidth() > to.getWidth())
          contribution = arith::TruncFOp::create(nb, nl, to, contribution);
        linalg::YieldOp::create(
            nb, nl,
            arith::AddFOp::create(nb, nl, contribution, acc).getResult());
      });
  if (failed(status))
    return failure();
  // The recomputed body keeps only what the derivative reads: the rest
  // would keep inputs alive for nothing (and hide a contraction's form).
  Block *adjointBody = adjoint.getBlock();
  for (Operation &inner :
       llvm::make_early_inc_range(llvm::reverse(*adjointBody)))
    if (&inner != adjointBody->getTerminator() && inner.use_empty() &&
        isPure(&inner))
      inner.erase();
  return adjoint.getResult(0);
}

/// The adjoint of a gather's table (summa/Dialect/Summa/Analysis/Gather.h): a
/// scatter-add of the output adjoint into the rows the indices name.
LogicalResult Differentiator::visitGather(linalg::GenericOp op) {
  std::optional<Gather> gather = matchGather(op);
  Value table = gather->getTable();
  Location loc = op.getLoc();
  Value dOut = adjoints.lookup(op->getResult(0));
  // An embedding table's padding row gets nothing from lookups
  // (summa.padding_idx: nn.Embedding(padding_idx)).
  if (auto arg = dyn_cast<BlockArgument>(table);
      arg && arg.getOwner() == &func.getBody().front())
    if (auto padding = func.getArgAttrOfType<IntegerAttr>(
            arg.getArgNumber(), kPaddingIndexAttrName)) {
      auto type = cast<RankedTensorType>(table.getType());
      if (padding.getInt() >= type.getDimSize(0))
        return func.emitError()
               << "summa-differentiate: '" << kPaddingIndexAttrName << "' (#"
               << arg.getArgNumber() << ") is " << padding.getInt()
               << ", not a row of its table " << type;
      dOut = maskGatherRow(b, *gather, dOut, padding.getInt());
    }
  Value dTable =
      buildGatherAdjoint(b, *gather, dOut, zeros(loc, table.getType()));
  accumulate(loc, table, dTable);
  return success();
}

LogicalResult Differentiator::visitStructured(linalg::LinalgOp op) {
  for (Operation &inner : op.getBlock()->without_terminator())
    if (inner.getNumResults() != 1 || inner.getNumRegions() != 0)
      return op.emitError() << "summa-differentiate: the body op '"
                            << inner.getName() << "' is not a scalar op";
  for (unsigned r = 0; r < op->getNumResults(); ++r) {
    Value dR = adjoints.lookup(op->getResult(r));
    if (!dR)
      continue;
    for (OpOperand &operand : op->getOpOperands()) {
      Value v = operand.get();
      auto type = dyn_cast<RankedTensorType>(v.getType());
      if (!type || !isa<FloatType>(type.getElementType()) || !isActive(v))
        continue;
      // An accumulator belongs to its own result only.
      if (op.isDpsInit(&operand) &&
          operand.getOperandNumber() - op.getNumDpsInputs() != r)
        continue;
      FailureOr<Value> d =
          operandAdjoint(op, operand.getOperandNumber(), r, dR);
      if (failed(d))
        return failure();
      accumulate(op.getLoc(), v, *d);
    }
  }
  return success();
}

LogicalResult Differentiator::visit(Operation *op) {
  if (llvm::none_of(op->getResults(),
                    [&](Value v) { return adjoints.contains(v); }))
    return success();
  // An op's own rule (DerivativeRuleOpInterface) comes first: an op of
  // another dialect, the families of lib/Dialect/Summa/OpRules/, or a model
  // attached to a linalg op, which then replaces the rules below.
  if (auto rule = dyn_cast<DerivativeRuleOpInterface>(op))
    return rule.differentiate(*this);
  if (auto mm = dyn_cast<linalg::MatmulOp>(op))
    return visitMatmul(mm);
  if (gathers.contains(op))
    return visitGather(cast<linalg::GenericOp>(op));
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    // The adjoint's transpose (summa-normalize folds it into the product
    // that computes it, as it folds the forward one into its use).
    Value input = transpose.getInput();
    if (!isActive(input))
      return success();
    ArrayRef<int64_t> perm = transpose.getPermutation();
    SmallVector<int64_t> inverse(perm.size());
    for (auto [i, p] : llvm::enumerate(perm))
      inverse[p] = i;
    auto type = cast<RankedTensorType>(input.getType());
    Location loc = op->getLoc();
    Value empty =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
    Value d =
        linalg::TransposeOp::create(
            b, loc, adjoints.lookup(transpose->getResult(0)), empty, inverse)
            ->getResult(0);
    accumulate(loc, input, d);
    return success();
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitStructured(linalgOp);
  return op->emitError() << "summa-differentiate: no derivative for '"
                         << op->getName() << "'";
}

SmallVector<Operation *>
Differentiator::recomputeSegment(ArrayRef<Operation *> segment) {
  IRMapping map;
  SmallVector<Operation *> clones;
  for (Operation *op : segment) {
    Operation *clone = b.clone(*op, map);
    clones.push_back(clone);
    if (gathers.contains(op))
      gathers.insert(clone);
    for (auto [r, c] : llvm::zip(op->getResults(), clone->getResults())) {
      if (active.contains(r))
        active.insert(c);
      // The adjoint of a value later segments read, complete by now.
      if (auto it = adjoints.find(r); it != adjoints.end()) {
        Value d = it->second;
        adjoints.erase(it);
        adjoints[c] = d;
      }
    }
  }
  return clones;
}

/// The parameters (weight and bias arguments; every float tensor argument
/// without a role, with params=floats) and the values that depend on them
/// (`active`).
LogicalResult
Differentiator::findParameters(SmallVectorImpl<BlockArgument> &params) {
  Block &block = func.getBody().front();
  for (BlockArgument arg : func.getArguments()) {
    std::optional<ArgumentRole> role =
        getArgumentRole(func, arg.getArgNumber());
    bool isParam = isTrainedRole(role);
    if (floatParams && !role) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      isParam =
          type && type.getRank() >= 1 && isa<FloatType>(type.getElementType());
    }
    if (isParam) {
      params.push_back(arg);
      active.insert(arg);
    }
  }
  if (params.empty())
    return func.emitError()
           << (floatParams ? "summa-differentiate: no argument is a "
                             "floating-point tensor without a summa.role"
                           : "summa-differentiate: no argument has "
                             "summa.role \"weight\" or \"bias\" (params=floats "
                             "takes every floating-point tensor argument)");
  for (Operation &op : block.without_terminator()) {
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return active.contains(v); }))
      active.insert(op.getResults().begin(), op.getResults().end());
    // A value read inside a body is not an operand. A gather (an embedding
    // table, the logits a cross-entropy picks, read by tensor.extract and
    // yielded) has an adjoint of its own (visitGather); any other such read
    // is an error, not a gradient that silently leaves that path out.
    Value captured;
    op.walk([&](Operation *inner) {
      if (inner == &op)
        return;
      for (Value v : inner->getOperands())
        if (!captured && active.contains(v) &&
            !op.isAncestor(v.getParentRegion()->getParentOp()))
          captured = v;
    });
    if (captured && matchGather(&op, captured)) {
      active.insert(op.getResults().begin(), op.getResults().end());
      gathers.insert(&op);
      continue;
    }
    if (captured) {
      InFlightDiagnostic diag =
          op.emitError() << "summa-differentiate: '" << op.getName()
                         << "' reads a value that depends on the parameters "
                            "inside its body other than as a gather (the "
                            "element a tensor.extract reads, yielded as it "
                            "is); no derivative for it";
      if (auto arg = dyn_cast<BlockArgument>(captured))
        diag << " (argument " << arg.getArgNumber() << ")";
      return diag;
    }
  }

  return success();
}

LogicalResult Differentiator::run() {
  Block &block = func.getBody().front();
  auto ret = cast<func::ReturnOp>(block.getTerminator());
  if (ret.getNumOperands() == 0)
    return func.emitError()
           << "summa-differentiate: the function returns no loss";
  Value loss = ret.getOperand(0);
  auto lossType = dyn_cast<RankedTensorType>(loss.getType());
  if (!lossType || !isa<FloatType>(lossType.getElementType()))
    return func.emitError() << "summa-differentiate: the loss (result 0) must "
                               "be a float tensor, got "
                            << loss.getType();

  SmallVector<BlockArgument> params;
  if (failed(findParameters(params)))
    return failure();

  b.setInsertionPoint(ret);
  Location loc = ret.getLoc();
  adjoints[loss] = constantLike(loc, loss.getType(), lossScale);
  for (BlockArgument p : params)
    paramIndices.push_back(p.getArgNumber());
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  // The ranges of the forward computed again before their backward.
  SmallVector<std::pair<size_t, size_t>> ranges;
  if (recompute == "layers") {
    SmallVector<size_t> starts = {0};
    llvm::append_range(starts, findRecomputeCuts(func, ops, paramIndices));
    // The last segment's activations are still alive.
    for (size_t s = 0; s + 1 < starts.size(); ++s)
      ranges.push_back({starts[s], starts[s + 1]});
  } else if (recompute == "attention") {
    ranges = findAttentionRanges(func, ops, paramIndices);
  }
  auto visitActive = [&](Operation *op) {
    return success(
        !active.contains(op->getNumResults() ? op->getResult(0) : Value()) ||
        succeeded(visit(op)));
  };
  auto range = ranges.rbegin();
  for (size_t i = ops.size(); i > 0;) {
    if (range != ranges.rend() && range->second == i) {
      SmallVector<Operation *> clones = recomputeSegment(
          ArrayRef<Operation *>(ops).slice(range->first, i - range->first));
      for (Operation *op : llvm::reverse(clones))
        if (failed(visitActive(op)))
          return failure();
      i = range->first;
      ++range;
      continue;
    }
    if (failed(visitActive(ops[--i])))
      return failure();
  }

  SmallVector<Value> grads;
  for (BlockArgument p : params) {
    Value g = adjoints.lookup(p);
    grads.push_back(g ? g : zeros(loc, p.getType()));
  }
  if (failed(returnStep(b, func, loc, loss, paramIndices, grads, optimizer,
                        returnGradients)))
    return failure();
  ret.erase();
  return success();
}

/// A copy of `gradients` named `name` that returns only its loss (result
/// 0): the backward, which nothing reads then, is erased.
static func::FuncOp keepOnlyLoss(func::FuncOp gradients, StringRef name) {
  auto loss = cast<func::FuncOp>(gradients->clone());
  loss.setSymName(name);
  loss.setPrivate();
  gradients->getBlock()->push_back(loss);
  auto ret = cast<func::ReturnOp>(loss.getBody().front().getTerminator());
  Value value = ret.getOperand(0);
  OpBuilder b(ret);
  func::ReturnOp::create(b, ret.getLoc(), value);
  ret.erase();
  loss.setFunctionType(FunctionType::get(
      loss.getContext(), loss.getArgumentTypes(), {value.getType()}));
  loss.setAllResultAttrs(
      ArrayRef<DictionaryAttr>{DictionaryAttr::get(loss.getContext())});
  SmallVector<Operation *> ops;
  for (Operation &op : loss.getBody().front().without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
  return loss;
}

namespace {
struct SummaDifferentiatePass
    : summa::impl::SummaDifferentiateBase<SummaDifferentiatePass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(requireOpRules(module)))
      return signalPassFailure();
    SmallVector<func::FuncOp> selected = selectFunctions(module, function);
    if (selected.size() > 1) {
      module.emitError() << "summa-differentiate: more than one public "
                            "function; name one with function=NAME";
      return signalPassFailure();
    }
    if (selected.empty()) {
      module.emitError() << "summa-differentiate: no function "
                         << (function.empty() ? std::string("to differentiate")
                                              : "named @" + function);
      return signalPassFailure();
    }
    if (params != "roles" && params != "floats") {
      module.emitError() << "summa-differentiate: params=" << params
                         << " is not roles or floats";
      return signalPassFailure();
    }
    func::FuncOp forward = selected.front();
    if (!forward.getBody().hasOneBlock()) {
      forward.emitError() << "summa-differentiate: functions with control "
                             "flow are not supported";
      return signalPassFailure();
    }
    // torch-mlir's tm_tensor ops (a mixture of experts' top-k router:
    // tm_tensor.sort) become the linalg that the rules below derive, as
    // summa-compile's pipeline lowers them.
    bool tmTensor = false;
    forward.walk([&](Operation *op) {
      tmTensor |= op->getName().getDialectNamespace() == "tm_tensor";
    });
    if (tmTensor) {
      OpPassManager lower(ModuleOp::getOperationName());
      lower.addPass(createConvertTMTensorToLinalg());
      if (failed(runPipeline(lower, module)))
        return signalPassFailure();
    }
    std::string name = (forward.getSymName() + "_grad").str();
    if (module.lookupSymbol(name)) {
      forward.emitError() << "summa-differentiate: @" << name
                          << " already exists";
      return signalPassFailure();
    }
    auto grad = cast<func::FuncOp>(forward->clone());
    grad.setSymName(name);
    module.getBody()->push_back(grad);
    // The step is derived from summa-normalize's forms (a product of a
    // weight repeated over the batch is one GEMM, transposes folded into
    // products): their adjoints are the SUMMA forms and local GEMMs.
    if (failed(normalizeForms(grad))) {
      grad.erase();
      return signalPassFailure();
    }
    OptimizerOptions update;
    if (sgdLr > 0 && lr > 0) {
      module.emitError() << "summa-differentiate: sgd-lr and lr exclude each "
                            "other (sgd-lr=R is optimizer=sgd lr=R)";
      return signalPassFailure();
    }
    update.kind = sgdLr > 0 ? std::string("sgd") : optimizer;
    update.lr = sgdLr > 0 ? sgdLr : lr;
    update.momentum = momentum;
    update.beta1 = beta1;
    update.beta2 = beta2;
    update.eps = eps;
    update.weightDecay = weightDecay;
    update.clipNorm = clipNorm;
    update.schedule = schedule;
    update.warmup = warmup;
    update.decaySteps = decaySteps;
    update.minLr = minLr;
    if (decay != "matrices" && decay != "all") {
      module.emitError() << "summa-differentiate: decay=" << decay
                         << " is not matrices or all";
      return signalPassFailure();
    }
    update.decayAll = decay == "all";
    // Any optimizer option asks for an update: without a rate it is an
    // error, not a step that silently returns only the gradients.
    bool wantsUpdate = update.lr != 0 || update.kind != "sgd" ||
                       update.schedule != "constant" || update.clipNorm != 0 ||
                       update.weightDecay != 0;
    if (wantsUpdate) {
      if (std::string why = update.validate(); !why.empty()) {
        module.emitError() << "summa-differentiate: " << why;
        return signalPassFailure();
      }
    }
    if (recompute != "none" && recompute != "layers" &&
        recompute != "attention") {
      forward.emitError() << "summa-differentiate: recompute=" << recompute
                          << " is not none, layers or attention";
      grad.erase();
      return signalPassFailure();
    }
    if (precision != "f32" && precision != "bf16") {
      forward.emitError() << "summa-differentiate: precision=" << precision
                          << " is not f32 or bf16";
      grad.erase();
      return signalPassFailure();
    }
    int64_t microBatches = accumulate;
    if (microBatches < 1) {
      forward.emitError() << "summa-differentiate: accumulate=" << microBatches
                          << " is not a number of micro-batches (1 or more)";
      grad.erase();
      return signalPassFailure();
    }
    FailureOr<SmallVector<unsigned>> stepParams =
        derive(grad, update, gradients, microBatches);
    if (failed(stepParams) || failed(applyPrecision(grad, precision))) {
      grad.erase();
      return signalPassFailure();
    }
    if (gradcheck && failed(markForGradcheck(forward, grad, *stepParams,
                                             wantsUpdate, microBatches))) {
      grad.erase();
      return signalPassFailure();
    }
  }

  /// Derives `step` in place (a copy of the forward): its backward and,
  /// with `update`, the optimizer step after it, over `microBatches`
  /// micro-batches. Returns the parameters' argument numbers.
  FailureOr<SmallVector<unsigned>> derive(func::FuncOp step,
                                          const OptimizerOptions &update,
                                          bool returnGradients,
                                          int64_t microBatches) {
    std::string again = recompute;
    if (microBatches == 1) {
      Differentiator differentiator(step, update, returnGradients,
                                    params == "floats", again);
      if (failed(differentiator.run()))
        return failure();
      return SmallVector<unsigned>(differentiator.getParameters());
    }
    // Gradient accumulation: the backward of one micro-batch (seeded with
    // 1/K), copied K times into the step before one update.
    auto micro = cast<func::FuncOp>(step->clone());
    micro.setSymName((step.getSymName() + "_micro_batch").str());
    step->getParentOfType<ModuleOp>().getBody()->push_back(micro);
    Differentiator microGrad(micro, OptimizerOptions(),
                             /*returnGradients=*/true, params == "floats",
                             again, 1.0 / static_cast<double>(microBatches));
    LogicalResult built = succeeded(microGrad.run())
                              ? buildAccumulatedStep(step, micro, microBatches,
                                                     microGrad.getParameters(),
                                                     update, returnGradients)
                              : failure();
    SmallVector<unsigned> stepParams(microGrad.getParameters());
    micro.erase();
    if (failed(built))
      return failure();
    return stepParams;
  }

  /// `summa.gradcheck` on `step` (GradcheckAttr.h): the loss function, the
  /// function that returns the loss and the parameters' gradients, and the
  /// parameters. The step is that function where it returns exactly those
  /// (no update, one micro-batch, the function's own precision); otherwise
  /// `<forward>_gradients` is derived by the same rules without them. The
  /// loss function is the forward; over K micro-batches, whose arguments
  /// are not the forward's, `<forward>_loss`: the gradients' function with
  /// only its loss kept.
  LogicalResult markForGradcheck(func::FuncOp forward, func::FuncOp step,
                                 ArrayRef<unsigned> stepParams,
                                 bool wantsUpdate, int64_t microBatches) {
    ModuleOp module = forward->getParentOfType<ModuleOp>();
    func::FuncOp gradientsFn = step;
    if (wantsUpdate || microBatches != 1 || precision != "f32") {
      std::string name = (forward.getSymName() + "_gradients").str();
      if (module.lookupSymbol(name))
        return forward.emitError()
               << "summa-differentiate: @" << name
               << " already exists (gradcheck=false derives no gradient "
                  "function for --gradcheck)";
      gradientsFn = cast<func::FuncOp>(forward->clone());
      gradientsFn.setSymName(name);
      gradientsFn.setPrivate();
      module.getBody()->push_back(gradientsFn);
      if (failed(normalizeForms(gradientsFn)))
        return failure();
      FailureOr<SmallVector<unsigned>> params =
          derive(gradientsFn, OptimizerOptions(), /*returnGradients=*/true,
                 microBatches);
      if (failed(params))
        return failure();
      if (ArrayRef<unsigned>(*params) != stepParams)
        return gradientsFn.emitError()
               << "summa-differentiate: the gradient function has other "
                  "parameters than the step";
    }
    func::FuncOp lossFn = forward;
    if (microBatches != 1) {
      std::string name = (forward.getSymName() + "_loss").str();
      if (module.lookupSymbol(name))
        return forward.emitError()
               << "summa-differentiate: @" << name << " already exists";
      lossFn = keepOnlyLoss(gradientsFn, name);
    }
    setGradcheckAttr(step, lossFn, gradientsFn, stepParams);
    return success();
  }
};
} // namespace
