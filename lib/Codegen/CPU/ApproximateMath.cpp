//===- ApproximateMath.cpp - math functions as polynomials ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-approximate-math: the f32 transcendental functions of the
// local ops (tanh of GeLU, exp of softmax, erf) become upstream MLIR's
// polynomial approximations, arithmetic that LLVM vectorises, instead of a
// libm call per element.
//
//===----------------------------------------------------------------------===//

#include "summa/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMAAPPROXIMATEMATH
#include "summa/Codegen/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

namespace {
struct SummaApproximateMathPass
    : public summa::impl::SummaApproximateMathBase<SummaApproximateMathPass> {
  using SummaApproximateMathBase::SummaApproximateMathBase;

  void runOnOperation() override {
    // The functions upstream approximates.
    static constexpr StringLiteral kKnown[] = {
        "tanh", "exp",   "expm1", "erf",  "erfc", "log", "log2", "log1p",
        "atan", "atan2", "asin",  "acos", "cbrt", "sin", "cos"};
    llvm::StringSet<> functions;
    for (StringRef name : llvm::split(StringRef(ops), ',')) {
      name = name.trim();
      if (name.empty())
        continue;
      if (!llvm::is_contained(kKnown, name)) {
        std::string known;
        for (StringRef k : kKnown)
          known += (known.empty() ? "" : ", ") + k.str();
        getOperation()->emitError()
            << "summa-approximate-math: no polynomial approximation of '"
            << name << "' (ops=... takes " << known << ")";
        return signalPassFailure();
      }
      functions.insert(("math." + name).str());
    }
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(
        patterns, [&](StringRef name) { return functions.contains(name); });
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
