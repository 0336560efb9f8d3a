//===- Reductions.cpp - recognising reduction combiners ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Analysis/Reductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::summa;

/// The reduction kind that combines the accumulator `acc` (a block argument
/// of a structured op's body) into the value yielded at `position`, if the
/// body is `yield combine(f(...), acc)`.
std::optional<ReductionKind> mlir::summa::getCombinerKind(BlockArgument acc,
                                                          unsigned position) {
  if (!acc.hasOneUse())
    return std::nullopt;
  Operation *user = *acc.getUsers().begin();
  Operation *yield = acc.getOwner()->getTerminator();
  if (user->getNumResults() != 1 ||
      yield->getOperand(position) != user->getResult(0))
    return std::nullopt;
  return llvm::TypeSwitch<Operation *, std::optional<ReductionKind>>(user)
      .Case<arith::AddFOp, arith::AddIOp>(
          [](auto) { return ReductionKind::sum; })
      .Case<arith::MulFOp, arith::MulIOp>(
          [](auto) { return ReductionKind::prod; })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
          [](auto) { return ReductionKind::max; })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
          [](auto) { return ReductionKind::min; })
      .Default([](Operation *) { return std::nullopt; });
}

/// True if `value` is `linalg.fill` of the identity of `kind`.
bool mlir::summa::isIdentityFill(Value value, ReductionKind kind) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return false;
  FloatAttr cst;
  if (!matchPattern(fill.getInputs()[0], m_Constant(&cst)))
    return false;
  APFloat v = cst.getValue();
  switch (kind) {
  case ReductionKind::sum:
    return v.isZero();
  case ReductionKind::prod:
    return v.isExactlyValue(1.0);
  case ReductionKind::max:
    return v.isInfinity() ? v.isNegative() : (v.isLargest() && v.isNegative());
  case ReductionKind::min:
    return v.isInfinity() ? !v.isNegative()
                          : (v.isLargest() && !v.isNegative());
  }
  return false;
}
