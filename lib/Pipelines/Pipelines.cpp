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
// Every pass is added by its constructor with typed options (no textual
// pipeline), as upstream's GPU-to-NVVM pipeline does.
//
//===----------------------------------------------------------------------===//

#include "summa/Pipelines/Pipelines.h"

#include "summa/Codegen/Passes.h"
#include "summa/Conversion/Passes.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::summa;

namespace {
/// Builds the lowering into a module's pass manager, a stage a method, each
/// pass from its constructor and typed options.
class LowerPipelineBuilder {
public:
  LowerPipelineBuilder(OpPassManager &pm, const LowerOptions &options)
      : pm(pm), options(options), cuda(options.cuda) {}
  void build();

private:
  void bufferize();
  void deallocate();
  void runtimeCalls();
  void cpuToLLVM();
  void loopsToLLVM();
  void kernelLoops();
  void kernels();
  void hostToLLVM();
  void packArguments();
  void outline() { pm.addPass(createSummaOutlineDispatches()); }

  OpPassManager &pm;
  const LowerOptions &options;
  const CudaOptions *cuda;
};
} // namespace

/// One-shot bufferization with function boundaries in identity layouts,
/// results distinct buffers, then out-parameters (hoisted where static).
void LowerPipelineBuilder::bufferize() {
  bufferization::OneShotBufferizePassOptions oneShot;
  oneShot.bufferizeFunctionBoundaries = true;
  oneShot.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(oneShot));
  pm.addPass(createSummaDistinctResults());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
}

/// Deallocation: upstream's buffer-deallocation-pipeline, with, on the CPU,
/// each buffer freed right after its last use (the model's peak memory is
/// its live buffers, and the pipeline stays linear in the size of a
/// function).
void LowerPipelineBuilder::deallocate() {
  memref::ExpandReallocPassOptions realloc;
  realloc.emitDeallocs = false;
  pm.addPass(memref::createExpandReallocPass(realloc));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  if (!cuda)
    pm.addPass(createSummaDeallocAtLastUse());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createCanonicalizerPass());
}

/// Scatters (an embedding's gradient) to loops, on buffers (on the CPU each
/// update's slice innermost; on the GPU one thread per slice position);
/// summa-overlap; a GEMM that overwrites its C and the elementwise op that
/// alone reads it as one runtime call (summaRtMatmulEpilogue: bias and
/// residual sums on both targets, GeLU too on the GPU through cuBLASLt's
/// GELU_BIAS; not the reference's); then the collectives and SUMMA matmuls
/// to runtime calls.
void LowerPipelineBuilder::runtimeCalls() {
  SummaLowerScatterOptions scatter;
  scatter.parallel = cuda != nullptr;
  pm.addPass(createSummaLowerScatter(scatter));
  if (options.overlap) {
    pm.addPass(createSummaOverlap());
    pm.addPass(createCanonicalizerPass());
  }
  if (!options.plain) {
    ConvertGemmEpiloguesToRuntimeOptions epilogues;
    epilogues.gelu = cuda != nullptr;
    epilogues.emitRemarks = options.remarks;
    pm.addPass(createConvertGemmEpiloguesToRuntime(epilogues));
  }
  ConvertSummaToRuntimeOptions calls;
  calls.libraryMatmuls = !options.plain;
  pm.addPass(createConvertSummaToRuntime(calls));
}

/// The functions a driver calls take their buffers as one array of data
/// pointers (summa-pack-arguments), just before the host goes to LLVM.
void LowerPipelineBuilder::packArguments() {
  if (options.packArguments.empty())
    return;
  SummaPackArgumentsOptions pack;
  pack.functions.assign(options.packArguments.begin(),
                        options.packArguments.end());
  pm.addPass(createSummaPackArguments(pack));
}

/// The CPU: contractions (2-D, batched, strided: attention's products) to
/// the runtime's BLAS GEMMs and, once the loop nests are functions of their
/// own, f32 tanh/exp/erf as polynomials that LLVM vectorises (the fast path,
/// not the reference's); then loopsToLLVM.
void LowerPipelineBuilder::cpuToLLVM() {
  if (!options.plain) {
    ConvertContractionsToRuntimeOptions contractions;
    contractions.emitRemarks = options.remarks;
    pm.addPass(createConvertContractionsToRuntime(contractions));
  }
  packArguments();
  outline();
  if (!options.plain)
    pm.addNestedPass<func::FuncOp>(createSummaApproximateMath());
  loopsToLLVM();
}

/// Local ops to loops, and everything to LLVM (libm for what
/// summa-approximate-math left). Conversions between f32 and bf16 become
/// integer operations (round to nearest even): LLVM would otherwise call
/// __truncsfbf2 on a CPU without AVX512-BF16, which GCC 12's libgcc lacks.
void LowerPipelineBuilder::loopsToLLVM() {
  OpPassManager &funcs = pm.nest<func::FuncOp>();
  funcs.addPass(createConvertLinalgToLoopsPass());
  funcs.addPass(memref::createExpandStridedMetadataPass());
  funcs.addPass(createLowerAffinePass());
  funcs.addPass(createSCFToControlFlowPass());
  arith::ArithExpandOpsPassOptions bf16;
  bf16.includeBf16 = true;
  funcs.addPass(arith::createArithExpandOpsPass(bf16));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

/// --target=cuda, after convert-summa-to-runtime: the integers host code
/// reads from buffers through the runtime, batched contractions to
/// runtime GEMMs, row reductions to one block per row (warp shuffles), host
/// globals copied to the device (not with the loops on the host, which read
/// them where they are), the other local ops to block/thread loop nests.
void LowerPipelineBuilder::kernelLoops() {
  pm.addPass(createConvertScalarLoadsToRuntime());
  ConvertContractionsToRuntimeOptions contractions;
  contractions.emitRemarks = options.remarks;
  pm.addPass(createConvertContractionsToRuntime(contractions));
  SummaBlockReductionsOptions reductions;
  reductions.blockSize = cuda->blockSize;
  reductions.emitRemarks = options.remarks;
  pm.addPass(createSummaBlockReductions(reductions));
  SummaPrepareDeviceOpsOptions device;
  device.globalsToDevice = !cuda->loopsOnHost;
  pm.addPass(createSummaPrepareDeviceOps(device));
  pm.addPass(createConvertLinalgToParallelLoopsPass());
  SummaMapParallelLoopsOptions map;
  map.blockSize = cuda->blockSize;
  pm.addPass(createSummaMapParallelLoops(map));
}

/// The loop nests to kernels: constants (sizes, strides, divisors of the
/// index computations) sunk into them before outlining, so that ptxas sees
/// them (an index divided by a constant is a multiply and a shift, not a
/// 64-bit division per element); checked that the host touches no buffer;
/// all in one module (one NVPTX compile and one ptxas run, not one per
/// kernel); to NVVM and a binary.
void LowerPipelineBuilder::kernels() {
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createSummaLowerBlockReductions());
  pm.addPass(createSummaVerifyHostCode());
  pm.addPass(createSummaMergeKernelModules());
  GpuNVVMAttachTargetOptions target;
  target.chip = cuda->chip;
  target.optLevel = cuda->optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = cuda->format;
  binary.toolkitPath = cuda->toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

/// The host to LLVM, allocations through the runtime's device pool
/// (_mlir_memref_to_llvm_alloc) and launches through its mgpu* functions.
void LowerPipelineBuilder::hostToLLVM() {
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  FinalizeMemRefToLLVMConversionPassOptions memrefs;
  memrefs.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefs));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void LowerPipelineBuilder::build() {
  pm.addPass(createSummaDecomposeAggregates());
  // Local elementwise ops fused into their consumers and, on the CPU, each
  // attention a head and a block of query rows at a time (not the
  // reference's).
  if (!options.plain)
    pm.addNestedPass<func::FuncOp>(createSummaFuseElementwise());
  if (!options.plain && !cuda) {
    SummaTileAttentionOptions tile;
    tile.emitRemarks = options.remarks;
    pm.addNestedPass<func::FuncOp>(createSummaTileAttention(tile));
  }
  if (cuda)
    pm.addPass(createSummaMaterializeSplats());
  bufferize();
  deallocate();
  runtimeCalls();
  if (!cuda)
    return cpuToLLVM();
  kernelLoops();
  if (cuda->afterKernelLoops)
    cuda->afterKernelLoops(pm);
  if (cuda->loopsOnHost) {
    packArguments();
    outline();
    loopsToLLVM();
    return;
  }
  kernels();
  packArguments();
  hostToLLVM();
}

void mlir::summa::buildLowerToLLVMPipeline(OpPassManager &pm,
                                           const LowerOptions &options) {
  LowerPipelineBuilder(pm, options).build();
}

void mlir::summa::buildReferenceLoweringPipeline(
    OpPassManager &pm, ArrayRef<std::string> functions) {
  LowerOptions plain;
  plain.plain = true;
  plain.packArguments.assign(functions.begin(), functions.end());
  buildLowerToLLVMPipeline(pm, plain);
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
  Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("the kernels' optimisation level (NVVM's and ptxas's -O)"),
      llvm::cl::init(3)};
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
        cuda.optLevel = cl.optLevel;
        LowerOptions lower = cl.lowerOptions();
        lower.cuda = &cuda;
        buildLowerToLLVMPipeline(pm, lower);
      });
}
