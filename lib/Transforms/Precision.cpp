//===- Precision.cpp - mixed precision of a derived step ------------------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// precision=bf16 on summa-differentiate. The step is derived in the
// function's precision first; then each of its products, forward and
// backward, reads bf16 operands and rounds its result to bf16. This is
// where torch.autocast puts bf16: its bf16 ops are the GEMMs (mm, bmm,
// addmm, linear, matmul), their autograd products are GEMMs on bf16
// tensors again (dA = dC·Bᵀ, dB = Aᵀ·dC, all bf16 with f32 accumulation),
// and a weight's gradient reaches its f32 master copy through the cast,
// rounded to bf16. What autocast leaves in f32 here stays f32: the
// parameters, the optimizer and its state, the loss, and every value that
// is not a product's operand or result.
//
//===----------------------------------------------------------------------===//

#include "summa/Transforms/Precision.h"

#include "summa/Support/Elementwise.h"
#include "summa/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::summa;

/// Whether values of `type`'s elements are rounded to bf16: floats wider
/// than bf16 (f32, f64).
static bool isWide(Type type) {
  auto f = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return f && f.getWidth() > 16;
}

bool mlir::summa::isPrecisionProduct(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !linalg::isaContractionOpInterface(op))
    return false;
  if (!llvm::all_of(op->getOperandTypes(), [](Type t) {
        return isa<FloatType>(getElementTypeOrSelf(t));
      }))
    return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  return succeeded(dims) && !dims->m.empty() && !dims->n.empty() &&
         !dims->k.empty();
}

namespace {
/// Rounds the products of one function to bf16.
class Rounder {
public:
  explicit Rounder(func::FuncOp func) : func(func), rewriter(func) {}
  LogicalResult run();

private:
  /// `value` rounded to a bf16 tensor, built once, where `value` is
  /// defined.
  Value narrow(Value value);
  /// `value` (a bf16 tensor) widened to `to`'s elements, after it.
  Value widen(Value value, Type to);
  /// `op` reading bf16 operands; the op that replaces it.
  FailureOr<linalg::LinalgOp> readNarrow(linalg::LinalgOp op);

  func::FuncOp func;
  IRRewriter rewriter;
  DenseMap<Value, Value> narrowed;
};
} // namespace

Value Rounder::narrow(Value value) {
  if (Value known = narrowed.lookup(value))
    return known;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfterValue(value);
  Type bf16 = rewriter.getBF16Type();
  Value rounded =
      mapElements(rewriter, value.getLoc(), value, bf16,
                  [&](OpBuilder &b, Location loc, Value element) -> Value {
                    return arith::TruncFOp::create(b, loc, bf16, element);
                  });
  narrowed[value] = rounded;
  return rounded;
}

Value Rounder::widen(Value value, Type to) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointAfterValue(value);
  return mapElements(rewriter, value.getLoc(), value, to,
                     [&](OpBuilder &b, Location loc, Value element) -> Value {
                       return arith::ExtFOp::create(b, loc, to, element);
                     });
}

FailureOr<linalg::LinalgOp> Rounder::readNarrow(linalg::LinalgOp op) {
  SmallVector<Value> inputs = op.getDpsInputs();
  for (Value &input : inputs)
    if (isWide(input.getType()))
      input = narrow(input);
  if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
    // A new op: the body's block arguments take the new input types, and
    // linalg.matmul extends them to the accumulator's.
    rewriter.setInsertionPoint(matmul);
    auto product = rewriter.replaceOpWithNewOp<linalg::MatmulOp>(
        matmul, matmul->getResultTypes(), inputs, matmul.getDpsInits(),
        productAttributes(matmul));
    return cast<linalg::LinalgOp>(product.getOperation());
  }
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::GenericOp> general =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(general))
      return op.emitError() << "summa-differentiate: precision=bf16 cannot "
                               "write this product as a linalg.generic";
    generic = *general;
  }
  // In place: the inputs become the bf16 tensors, the body extends their
  // elements first.
  Block &body = generic.getRegion().front();
  rewriter.setInsertionPointToStart(&body);
  for (auto [k, input] : llvm::enumerate(inputs)) {
    OpOperand &operand = generic->getOpOperand(k);
    if (operand.get() == input)
      continue;
    BlockArgument arg = body.getArgument(k);
    Type wide = arg.getType();
    operand.set(input);
    arg.setType(rewriter.getBF16Type());
    auto ext = arith::ExtFOp::create(rewriter, generic.getLoc(), wide, arg);
    rewriter.replaceAllUsesExcept(arg, ext.getResult(), ext);
  }
  return cast<linalg::LinalgOp>(generic.getOperation());
}

LogicalResult Rounder::run() {
  SmallVector<linalg::LinalgOp> products;
  func.walk([&](linalg::LinalgOp op) {
    if (isPrecisionProduct(op))
      products.push_back(op);
  });
  // In order: a product's result is rounded before a later product reads
  // it (and reads the bf16 tensor itself).
  for (linalg::LinalgOp op : products) {
    FailureOr<linalg::LinalgOp> product = readNarrow(op);
    if (failed(product))
      return failure();
    Value result = (*product)->getResult(0);
    if (!isWide(result.getType()))
      continue;
    Value rounded = narrow(result);
    Value back = widen(rounded, getElementTypeOrSelf(result.getType()));
    rewriter.replaceAllUsesExcept(result, back, rounded.getDefiningOp());
    narrowed[back] = rounded;
  }
  return success();
}

LogicalResult mlir::summa::applyPrecision(func::FuncOp step,
                                          StringRef precision) {
  if (precision == "f32")
    return success();
  // The derived backward's generics carry operands their bodies do not
  // read; in summa-normalize's forms (those erased, contractions raised to
  // linalg.matmul where they are one) the backward's products are
  // contractions of two operands like the forward's.
  if (failed(normalizeForms(step)))
    return failure();
  return Rounder(step).run();
}
