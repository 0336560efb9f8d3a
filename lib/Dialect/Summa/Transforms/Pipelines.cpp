//===- Pipelines.cpp - named summa pipelines --------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-pipeline{grid=q,q,d overlap}: unsharded linalg on tensors -> LLVM dialect.
// summa-lower-to-llvm: the same without the partitioning half, used for the
// unpartitioned reference that summa-compile links into every binary.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::summa;

/// The passes after partitioning, as a textual pipeline so that it reads the
/// same as on the summa-opt command line.
static const char *const kBufferize =
    "summa-decompose-aggregates,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{hoist-static-allocs=true modify-public-functions=true},"
    "buffer-deallocation-pipeline,"
    "convert-bufferization-to-memref,"
    "canonicalize";
/// summa-overlap goes between the two halves.
static const char *const kToLLVM =
    "convert-summa-to-runtime,"
    "convert-linalg-to-loops,"
    "expand-strided-metadata,"
    "lower-affine,"
    "convert-scf-to-cf,"
    "convert-math-to-llvm,"
    "convert-math-to-libm,"
    "finalize-memref-to-llvm,"
    "convert-arith-to-llvm,"
    "convert-index-to-llvm,"
    "convert-func-to-llvm,"
    "convert-cf-to-llvm,"
    "reconcile-unrealized-casts";

static void addTextual(OpPassManager &pm, StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("summa: malformed built-in pipeline");
}

void mlir::summa::buildLowerToLLVMPipeline(OpPassManager &pm, bool overlap) {
  addTextual(pm, kBufferize);
  if (overlap) {
    pm.addPass(createSummaOverlap());
    pm.addPass(createCanonicalizerPass());
  }
  addTextual(pm, kToLLVM);
}

void mlir::summa::buildSummaPipeline(OpPassManager &pm,
                                     const PipelineOptions &options) {
  SummaAssignLayoutsOptions assign;
  assign.grid.assign(options.grid.begin(), options.grid.end());
  pm.addPass(createSummaAssignLayouts(assign));
  pm.addPass(createSummaPartition());
  pm.addPass(createSummaExpandMatmul());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSummaCombineCollectives());
  if (options.memoryBudget) {
    SummaReusePanelsOptions keep;
    keep.memoryBudget = *options.memoryBudget;
    pm.addPass(createSummaReusePanels(keep));
  }
  buildLowerToLLVMPipeline(pm, options.overlap);
}

namespace {
struct SummaPipelineCLOptions
    : public PassPipelineOptions<SummaPipelineCLOptions> {
  ListOption<int64_t> grid{*this, "grid",
                           llvm::cl::desc("grid shape q,q,d")};
  Option<int64_t> reuseBudget{
      *this, "reuse-panels",
      llvm::cl::desc("keep SUMMA panels for later loops (summa-reuse-panels) "
                     "within this many bytes per rank (-1: no bound; "
                     "unset: no reuse)")};
  Option<bool> overlap{*this, "overlap",
                       llvm::cl::desc("software-pipeline the SUMMA loops "
                                      "(summa-overlap)"),
                       llvm::cl::init(false)};
};
} // namespace

void mlir::summa::registerSummaPipelines() {
  PassPipelineRegistration<SummaPipelineCLOptions>(
      "summa-pipeline",
      "Partition unsharded linalg for a [q, q, d] grid and lower it to the "
      "LLVM dialect with runtime calls",
      [](OpPassManager &pm, const SummaPipelineCLOptions &cl) {
        PipelineOptions options;
        options.grid.assign(cl.grid.begin(), cl.grid.end());
        options.overlap = cl.overlap;
        if (cl.reuseBudget.hasValue())
          options.memoryBudget = cl.reuseBudget.getValue();
        buildSummaPipeline(pm, options);
      });
  PassPipelineRegistration<>(
      "summa-lower-to-llvm",
      "Bufferize and lower summa/linalg on tensors to the LLVM dialect with "
      "runtime calls (no partitioning)",
      [](OpPassManager &pm) { buildLowerToLLVMPipeline(pm); });
}
