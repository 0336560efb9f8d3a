//===- Pipelines.cpp - named summa pipelines --------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-pipeline{grid=q,q,d overlap}: unsharded linalg on tensors -> LLVM
// dialect. summa-lower-to-llvm{plain}: the same without the partitioning half;
// with `plain`, without any library either (loops and libm): the lowering of
// the unpartitioned reference that summa-compile links into every binary.
//
//===----------------------------------------------------------------------===//

#include "summa/Pipelines/Pipelines.h"

#include "summa/Conversion/Passes.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::summa;

/// The passes after partitioning, as a textual pipeline so that it reads the
/// same as on the summa-opt command line.
static const char *const kDecompose = "summa-decompose-aggregates";
/// Local elementwise ops fused into their consumers (not the reference's:
/// LowerOptions::plain).
static const char *const kFuse = "func.func(summa-fuse-elementwise)";
/// On the CPU, each attention a head and a block of query rows at a time
/// (not the reference's either).
static const char *const kTileAttention = "func.func(summa-tile-attention)";
static const char *const kBufferize =
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "summa-distinct-results,"
    "buffer-results-to-out-params{hoist-static-allocs=true "
    "modify-public-functions=true}";
/// Deallocation: upstream's buffer-deallocation-pipeline, with, on the CPU,
/// each buffer freed right after its last use (%EARLY%: the model's peak
/// memory is its live buffers, and the pipeline stays linear in the size of
/// a function).
static const char *const kDeallocate = "expand-realloc{emit-deallocs=false},"
                                       "canonicalize,"
                                       "ownership-based-buffer-deallocation,"
                                       "%EARLY%"
                                       "canonicalize,"
                                       "buffer-deallocation-simplification,"
                                       "bufferization-lower-deallocations,"
                                       "cse,"
                                       "canonicalize,"
                                       "convert-bufferization-to-memref,"
                                       "canonicalize";
/// A GEMM that overwrites its C and the elementwise op that alone reads it,
/// one runtime call (summaRtMatmulEpilogue): the bias and residual sums on
/// both targets, GeLU too on the GPU (cuBLASLt's GELU_BIAS; on the CPU it
/// stays a vectorised loop). Not the reference's (LowerOptions::plain).
static const char *const kEpiloguesCPU =
    "convert-gemm-epilogues-to-runtime{gelu=false}";
static const char *const kEpiloguesGPU =
    "convert-gemm-epilogues-to-runtime{gelu=true}";
/// summa-overlap goes between the two halves, which begin with
/// convert-summa-to-runtime.
static const char *const kRuntimeCalls = "convert-summa-to-runtime";
/// The CPU target's fast path, before kToLLVM: contractions (2-D, batched,
/// strided: attention's products) to the runtime's BLAS GEMMs, and f32
/// tanh/exp/erf as polynomials that LLVM vectorises. The --check reference
/// goes without it (LowerOptions::plain).
static const char *const kFastCPU = "convert-contractions-to-runtime";
/// The other half of the fast path, once the loop nests are functions of
/// their own (so that it runs on small functions).
static const char *const kApproximate = "func.func(summa-approximate-math)";
/// Scatters (an embedding's gradient) to loops, once on buffers: on the CPU
/// each update's slice innermost; on the GPU one thread per slice position.
static const char *const kScatterCPU = "summa-lower-scatter";
static const char *const kScatterGPU = "summa-lower-scatter{parallel=true}";
/// Each local loop nest into a function of its own (identical ones shared),
/// so that what follows, and LLVM, work on small functions.
static const char *const kOutline = "summa-outline-dispatches";
/// Local ops to loops, and everything to LLVM.
static const char *const kToLLVM = "func.func(convert-linalg-to-loops,"
                                   "expand-strided-metadata,"
                                   "lower-affine,"
                                   "convert-scf-to-cf),"
                                   "convert-math-to-llvm,"
                                   "convert-math-to-libm,"
                                   "finalize-memref-to-llvm,"
                                   "convert-arith-to-llvm,"
                                   "convert-index-to-llvm,"
                                   "convert-func-to-llvm,"
                                   "convert-cf-to-llvm,"
                                   "reconcile-unrealized-casts";

/// --target=cuda, after convert-summa-to-runtime: batched contractions to
/// runtime GEMMs, row reductions to one block per row (warp shuffles), the
/// other local ops to kernels
/// (constants sunk into them, outlined, checked that the host touches no
/// buffer), the kernels to NVVM
/// and a binary; then the host to LLVM, with allocations through the
/// runtime's device pool (_mlir_memref_to_llvm_alloc) and launches through
/// its mgpu* functions.
static const char *const kToLoops =
    "convert-contractions-to-runtime,"
    "summa-block-reductions{block-size=%BLOCK%},"
    "summa-prepare-device-ops{globals-to-device=%GLOBALS%},"
    "convert-linalg-to-parallel-loops,"
    "summa-map-parallel-loops{block-size=%BLOCK%}";
static const char *const kToKernels =
    "convert-parallel-loops-to-gpu,"
    // Constants (sizes, strides, divisors of the index computations) go
    // into the kernels before outlining, so that ptxas sees them: an index
    // divided by a constant is a multiply and a shift, not a 64-bit
    // division per element.
    "gpu-launch-sink-index-computations,"
    "gpu-kernel-outlining,"
    "summa-lower-block-reductions,"
    "summa-verify-host-code,"
    "nvvm-attach-target{chip=%CHIP% O=3},"
    "gpu.module(expand-strided-metadata,lower-affine,convert-scf-to-cf,"
    "convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts),"
    "gpu-module-to-binary{format=%FORMAT%%TOOLKIT%}";
static const char *const kHostToLLVM =
    "expand-strided-metadata,"
    "lower-affine,"
    "convert-scf-to-cf,"
    "finalize-memref-to-llvm{use-generic-functions=true},"
    "convert-arith-to-llvm,"
    "convert-index-to-llvm,"
    "convert-func-to-llvm,"
    "convert-cf-to-llvm,"
    "gpu-to-llvm,"
    "reconcile-unrealized-casts";

static std::string substitute(std::string text, StringRef key,
                              StringRef value) {
  for (size_t at = 0; (at = text.find(key.str(), at)) != std::string::npos;
       at += value.size())
    text.replace(at, key.size(), value.str());
  return text;
}

static void addTextual(OpPassManager &pm, const Twine &pipeline) {
  if (failed(parsePassPipeline(pipeline.str(), pm, llvm::errs())))
    llvm::report_fatal_error("summa: malformed built-in pipeline");
}

void mlir::summa::buildLowerToLLVMPipeline(OpPassManager &pm,
                                           const LowerOptions &options) {
  const CudaOptions *cuda = options.cuda;
  // Just before the host code goes to LLVM.
  auto packArguments = [&] {
    if (options.packArguments.empty())
      return;
    addTextual(pm, "summa-pack-arguments{functions=" +
                       llvm::join(options.packArguments, ",") + "}");
  };
  // The passes that choose a path per local op (library call, tiled
  // attention, block reduction), with remarks if asked.
  auto library = [&](const char *pipeline) {
    if (!options.remarks)
      return std::string(pipeline);
    std::string text = substitute(pipeline, "convert-contractions-to-runtime",
                                  "convert-contractions-to-runtime{remarks}");
    text = substitute(text, "convert-gemm-epilogues-to-runtime{",
                      "convert-gemm-epilogues-to-runtime{remarks ");
    text = substitute(text, "summa-tile-attention",
                      "summa-tile-attention{remarks}");
    return substitute(text, "summa-block-reductions{",
                      "summa-block-reductions{remarks ");
  };
  addTextual(pm, kDecompose);
  if (!options.plain)
    addTextual(pm, kFuse);
  if (!options.plain && !cuda)
    addTextual(pm, library(kTileAttention));
  if (cuda)
    addTextual(pm, "summa-materialize-splats");
  addTextual(pm, kBufferize);
  addTextual(pm, substitute(kDeallocate, "%EARLY%",
                            cuda ? "" : "summa-dealloc-at-last-use,"));
  addTextual(pm, cuda ? kScatterGPU : kScatterCPU);
  if (options.overlap) {
    pm.addPass(createSummaOverlap());
    pm.addPass(createCanonicalizerPass());
  }
  if (!options.plain)
    addTextual(pm, library(cuda ? kEpiloguesGPU : kEpiloguesCPU));
  addTextual(pm, options.plain
                     ? std::string(kRuntimeCalls) + "{library-matmuls=false}"
                     : std::string(kRuntimeCalls));
  if (!cuda) {
    if (!options.plain)
      addTextual(pm, library(kFastCPU));
    packArguments();
    addTextual(pm, kOutline);
    if (!options.plain)
      addTextual(pm, kApproximate);
    addTextual(pm, kToLLVM);
    return;
  }
  // On the host (--gpu-loops-on-host) the loops read host globals where
  // they are; kernels need them copied to the device.
  addTextual(pm, substitute(substitute(library(kToLoops), "%BLOCK%",
                                       std::to_string(cuda->blockSize)),
                            "%GLOBALS%", cuda->loopsOnHost ? "false" : "true"));
  if (cuda->afterKernelLoops)
    cuda->afterKernelLoops(pm);
  if (cuda->loopsOnHost) {
    packArguments();
    addTextual(pm, kOutline);
    addTextual(pm, kToLLVM);
    return;
  }
  std::string kernels = kToKernels;
  kernels = substitute(kernels, "%CHIP%", cuda->chip);
  kernels = substitute(kernels, "%FORMAT%", cuda->format);
  kernels = substitute(kernels, "%TOOLKIT%",
                       cuda->toolkit.empty() ? std::string()
                                             : " toolkit=" + cuda->toolkit);
  addTextual(pm, kernels);
  packArguments();
  addTextual(pm, kHostToLLVM);
}

void mlir::summa::buildImportPipeline(OpPassManager &pm) {
  pm.addPass(createConvertTMTensorToLinalg());
}

void mlir::summa::buildAssignLayoutsPipeline(
    OpPassManager &pm, const SummaAssignLayoutsOptions &options,
    bool shardOptimizerState) {
  pm.addPass(createSummaNormalize());
  pm.addPass(createSummaAssignLayouts(options));
  if (shardOptimizerState)
    pm.addPass(createSummaShardOptimizerState());
}

void mlir::summa::buildPartitionPipeline(OpPassManager &pm,
                                         std::optional<int64_t> memoryBudget) {
  pm.addPass(createSummaPartition());
  pm.addPass(createSummaExpandMatmul());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSummaCombineCollectives());
  if (memoryBudget) {
    SummaReusePanelsOptions keep;
    keep.memoryBudget = *memoryBudget;
    pm.addPass(createSummaReusePanels(keep));
  }
}

void mlir::summa::buildSummaPipeline(OpPassManager &pm,
                                     const PipelineOptions &options) {
  SummaAssignLayoutsOptions assign;
  assign.grid.assign(options.grid.begin(), options.grid.end());
  buildImportPipeline(pm);
  buildAssignLayoutsPipeline(pm, assign, options.shardOptimizerState);
  buildPartitionPipeline(pm, options.memoryBudget);
  buildLowerToLLVMPipeline(pm, options.lower);
}

namespace {
/// The options every lowering pipeline takes (LowerOptions' overlap and
/// remarks).
template <typename Derived>
struct LowerCLOptions : public PassPipelineOptions<Derived> {
  using Base = PassPipelineOptions<Derived>;
  typename Base::template Option<bool> overlap{
      *this, "overlap",
      llvm::cl::desc("software-pipeline the SUMMA loops (summa-overlap)"),
      llvm::cl::init(false)};
  typename Base::template Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("report at each local op whether it went to a library "
                     "call (BLAS, cuBLAS) or stays generated code"),
      llvm::cl::init(false)};

  LowerOptions lowerOptions() const {
    LowerOptions lower;
    lower.overlap = overlap;
    lower.remarks = remarks;
    return lower;
  }
};

struct SummaPipelineCLOptions : public LowerCLOptions<SummaPipelineCLOptions> {
  ListOption<int64_t> grid{*this, "grid", llvm::cl::desc("grid shape q,q,d")};
  Option<bool> zero{*this, "zero",
                    llvm::cl::desc("split the optimizer state over depth "
                                   "(summa-shard-optimizer-state)"),
                    llvm::cl::init(false)};
  Option<int64_t> reuseBudget{
      *this, "reuse-panels",
      llvm::cl::desc("keep SUMMA panels for later loops (summa-reuse-panels) "
                     "within this many bytes per rank (-1: no bound; "
                     "unset: no reuse)")};
};

struct LowerToCudaCLOptions : public LowerCLOptions<LowerToCudaCLOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("GPU architecture of the kernels"),
                           llvm::cl::init("sm_80")};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit directory (ptxas, fatbinary, libdevice)")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("kernel binary format: fatbin, bin or isa (PTX)"),
      llvm::cl::init("fatbin")};
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("threads per block"),
                            llvm::cl::init(256)};
};
struct LowerToLLVMCLOptions : public LowerCLOptions<LowerToLLVMCLOptions> {
  Option<bool> plain{*this, "plain",
                     llvm::cl::desc("without any library (matmuls and "
                                    "contractions as loops, libm for tanh/"
                                    "exp/erf): the --check reference's "
                                    "lowering"),
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
        options.lower = cl.lowerOptions();
        options.shardOptimizerState = cl.zero;
        if (cl.reuseBudget.hasValue())
          options.memoryBudget = cl.reuseBudget.getValue();
        buildSummaPipeline(pm, options);
      });
  PassPipelineRegistration<LowerToLLVMCLOptions>(
      "summa-lower-to-llvm",
      "Bufferize and lower summa/linalg on tensors to the LLVM dialect with "
      "runtime calls (no partitioning)",
      [](OpPassManager &pm, const LowerToLLVMCLOptions &cl) {
        LowerOptions lower = cl.lowerOptions();
        lower.plain = cl.plain;
        buildLowerToLLVMPipeline(pm, lower);
      });
  PassPipelineRegistration<LowerToCudaCLOptions>(
      "summa-lower-to-cuda",
      "Bufferize and lower summa/linalg on tensors for --target=cuda: "
      "runtime calls on device buffers, every local op a GPU kernel",
      [](OpPassManager &pm, const LowerToCudaCLOptions &cl) {
        CudaOptions cuda;
        cuda.chip = cl.chip;
        cuda.toolkit = cl.toolkit;
        cuda.format = cl.format;
        cuda.blockSize = cl.blockSize;
        LowerOptions lower = cl.lowerOptions();
        lower.cuda = &cuda;
        buildLowerToLLVMPipeline(pm, lower);
      });
}
