//===- TestWrongDerivative.cpp - a derivative planted wrong ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-test-wrong-exp-derivative: a test-only pass (registered by summa-opt
// alone, as upstream's mlir/test/lib) that does nothing itself but attaches
// a wrong derivative rule to linalg.exp for the passes after it: the rule
// passes the result's adjoint on as it is (d exp(x) / dx taken as 1). A
// step summa-differentiate derives with it is wrong in a way --check cannot
// see (the unpartitioned reference runs the same wrong derivative) and
// --gradcheck must (test/Integration/gradcheck-planted.mlir).
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::summa;

namespace {

/// d exp(x) = dY: wrong on purpose (it should be dY * exp(x)).
struct WrongExpDerivative
    : public DerivativeRuleOpInterface::ExternalModel<WrongExpDerivative,
                                                      linalg::ExpOp> {
  LogicalResult differentiate(Operation *op, DerivativeState &s) const {
    auto exp = cast<linalg::ExpOp>(op);
    Value input = exp.getDpsInputOperand(0)->get();
    if (s.isActive(input))
      s.accumulate(op->getLoc(), input, s.getAdjoint(op->getResult(0)));
    return success();
  }
};

struct TestWrongExpDerivativePass
    : public PassWrapper<TestWrongExpDerivativePass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestWrongExpDerivativePass)

  StringRef getArgument() const final {
    return "summa-test-wrong-exp-derivative";
  }
  StringRef getDescription() const final {
    return "Test only: attach a wrong derivative rule to linalg.exp for the "
           "passes that follow";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
      linalg::ExpOp::attachInterface<WrongExpDerivative>(*ctx);
    });
  }
  void runOnOperation() override {}
};

} // namespace

namespace mlir::summa::test {
void registerTestWrongDerivativePass() {
  PassRegistration<TestWrongExpDerivativePass>();
}
} // namespace mlir::summa::test
