//===- LowerBlockReductions.cpp - gpu.all_reduce as shuffles ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-lower-block-reductions: every gpu.all_reduce of an
// outlined kernel, which only a reduction of summa-block-reductions creates
// and which every thread of the block reaches (it stands at the top level
// of the kernel's body), is marked uniform and expanded by upstream's
// all-reduce rewrite into warp shuffles and workgroup memory.
//
//===----------------------------------------------------------------------===//

#include "summa/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMALOWERBLOCKREDUCTIONS
#include "summa/Codegen/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;

namespace {
struct SummaLowerBlockReductionsPass
    : summa::impl::SummaLowerBlockReductionsBase<
          SummaLowerBlockReductionsPass> {
  void runOnOperation() override {
    SmallVector<gpu::GPUFuncOp> kernels;
    bool bad = false;
    getOperation().walk([&](gpu::AllReduceOp reduce) {
      auto kernel = dyn_cast<gpu::GPUFuncOp>(reduce->getParentOp());
      if (!kernel || !kernel.isKernel()) {
        reduce.emitError("summa-lower-block-reductions: a gpu.all_reduce "
                         "that not every thread of its block may reach "
                         "(it is not at the top level of a kernel)");
        bad = true;
        return;
      }
      reduce.setUniform(true);
      if (kernels.empty() || kernels.back() != kernel)
        kernels.push_back(kernel);
    });
    if (bad)
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateGpuAllReducePatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (gpu::GPUFuncOp kernel : kernels)
      if (failed(
              applyOpPatternsGreedily(ArrayRef<Operation *>{kernel}, frozen))) {
        kernel.emitError("summa-lower-block-reductions: the all-reduce "
                         "rewrite did not converge");
        return signalPassFailure();
      }
    getOperation().walk([&](gpu::AllReduceOp reduce) {
      reduce.emitError("summa-lower-block-reductions: gpu.all_reduce left "
                       "unexpanded");
      bad = true;
    });
    if (bad)
      signalPassFailure();
  }
};
} // namespace
