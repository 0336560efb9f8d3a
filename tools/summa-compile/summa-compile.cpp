//===- summa-compile.cpp - model to distributed executable ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-compile model.mlir --grid=q,q,d --target=cpu -o model
//
// Runs the summa pipeline on the entry function for the grid, lowers the
// unpartitioned function too (the reference that --check runs), emits one
// object file through LLVM and links it with the runtime library and a
// generated main (the runtime's summaRtMain, given a table that describes
// the entry function's tensors and their layouts). The work is the driver
// library's (include/summa/Driver/Driver.h); this file turns the flags into
// its CompileOptions and says where this build's runtime is.
//
//===----------------------------------------------------------------------===//

#include "summa/Driver/Driver.h"
#include "summa/InitAllSumma.h"
#include "summa/InitAllSummaTranslations.h"
#include "summa/Tools/PanelReuseOptions.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
using summa::driver::EmitKind;
namespace cl = llvm::cl;

static cl::OptionCategory category("summa-compile options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<model.mlir>"),
                                      cl::Required, cl::cat(category));
static cl::opt<std::string> outputFile("o",
                                       cl::desc("output executable or library"),
                                       cl::value_desc("file"),
                                       cl::init("a.out"), cl::cat(category));
static cl::opt<std::string>
    gridOpt("grid",
            cl::desc("grid shape q,q,d, or auto (the planner's best grid for "
                     "--ranks)"),
            cl::Required, cl::cat(category));
static cl::opt<int64_t> ranksOpt("ranks",
                                 cl::desc("number of ranks for --grid=auto"),
                                 cl::init(0), cl::cat(category));
static cl::opt<std::string>
    target("target",
           cl::desc("cpu (MPI + BLAS runtime) or cuda (CUDA + NCCL + cuBLAS "
                    "runtime; every local op a GPU kernel)"),
           cl::init("cpu"), cl::cat(category));
static cl::opt<std::string> cudaChip(
    "cuda-chip",
    cl::desc("--target=cuda: GPU architecture of the kernels' SASS; the PTX "
             "beside it runs on later GPUs (default sm_80; sm_90 for Hopper)"),
    cl::init("sm_80"), cl::cat(category));
static cl::opt<std::string> cudaToolkit(
    "cuda-toolkit",
    cl::desc("--target=cuda: CUDA toolkit directory with ptxas, fatbinary "
             "and libdevice (default: the one the runtime was built with)"),
    cl::cat(category));
static cl::opt<bool> gpuLoopsOnHost(
    "gpu-loops-on-host",
    cl::desc("testing without a GPU: build the loop nests of --target=cuda's "
             "kernels but run them on the CPU backend"),
    cl::Hidden, cl::cat(category));
static cl::opt<bool> testPlantKernelBug(
    "test-plant-kernel-bug",
    cl::desc("tests only, with --gpu-loops-on-host or --target=cuda: "
             "miscompile the last "
             "kernel loop nest (its stores write value + 1), to show that "
             "--check's reference does not share the kernels' code"),
    cl::Hidden, cl::cat(category));
static cl::opt<bool> referenceInF64(
    "reference-f64",
    cl::desc("--check's reference computes in f64 (default; =false: in the "
             "model's own element types)"),
    cl::init(true), cl::cat(category));
static cl::opt<bool> gradcheckFunctions(
    "gradcheck",
    cl::desc("a training step summa-differentiate derived: build its loss "
             "and gradients' functions in for the binary's --gradcheck "
             "(default; --gradcheck=false: leave them out)"),
    cl::init(true), cl::cat(category));
static cl::opt<int64_t> gpuBlockSize(
    "gpu-block-size",
    cl::desc("--target=cuda: threads per block of generated kernels"),
    cl::init(256), cl::cat(category));
static cl::opt<std::string>
    entryName("entry",
              cl::desc("function to compile (default: the only public one)"),
              cl::cat(category));
static cl::opt<EmitKind>
    emit("emit", cl::desc("what to write"), cl::init(EmitKind::Exe),
         cl::values(
             clEnumValN(EmitKind::Exe, "exe", "linked executable (default)"),
             clEnumValN(EmitKind::Lib, "lib",
                        "shared library for a host program (the C API of "
                        "summa/Runtime/SummaModel.h) and its header, -o "
                        "with .h for .so"),
             clEnumValN(EmitKind::Obj, "obj", "object file of both functions"),
             clEnumValN(EmitKind::SpmdMLIR, "spmd-mlir",
                        "partitioned MLIR before bufferization"),
             clEnumValN(EmitKind::LLVMIR, "llvm", "LLVM IR of both functions")),
         cl::cat(category));
static cl::opt<std::string> referenceFile(
    "reference-file",
    cl::desc("take the function --check compares with from this file "
             "(default: the entry function itself, unpartitioned)"),
    cl::cat(category));
static cl::opt<std::string>
    referenceName("reference",
                  cl::desc("the reference function (default: the entry's "
                           "name, or the only public function of "
                           "--reference-file)"),
                  cl::cat(category));
static cl::opt<bool> keepTemps("keep-temps",
                               cl::desc("keep the generated main and object"),
                               cl::cat(category));
static cl::opt<unsigned> optLevel("O",
                                  cl::desc("LLVM optimisation level (0-3)"),
                                  cl::init(2), cl::Prefix, cl::cat(category));
static cl::opt<bool> verbose("v", cl::desc("print the link command"),
                             cl::cat(category));
static summa::PanelReuseOptions
    panelReuse(category,
               "keep a SUMMA loop's broadcast panels for the later loops that "
               "broadcast them again (summa-reuse-panels)");
static cl::opt<int64_t> liftConstants(
    "lift-constants",
    cl::desc("turn tensor constants of at least this many elements into "
             "arguments of the entry (summa-lift-constants), laid out like "
             "weights and given to the binary as inputs; 0: keep them"),
    cl::init(0), cl::cat(category));
static cl::opt<std::string> saveConstantsTo(
    "save-constants",
    cl::desc("with --lift-constants: write the lifted constants' values to "
             "this safetensors file under their argument names (the "
             "resources' keys), for the binary's --inputs"),
    cl::value_desc("FILE"), cl::cat(category));
static cl::opt<bool> zero(
    "zero",
    cl::desc("split the optimizer state of a training step over the grid's "
             "depth (ZeRO stage 1 along depth, summa-shard-optimizer-state): "
             "optimizer bytes per rank / d, the gradient's depth all-reduce "
             "a reduce-scatter, the weights all-gathered over depth"),
    cl::cat(category));
static cl::opt<bool> overlap(
    "overlap",
    cl::desc("overlap each SUMMA step's collectives with the previous step's "
             "GEMM (summa-overlap: asynchronous collectives, two buffers "
             "per panel)"),
    cl::cat(category));
static cl::opt<bool> remarks(
    "remarks",
    cl::desc("report at each local op of the partitioned program whether it "
             "went to a library call (BLAS, cuBLAS) or stays generated code"),
    cl::cat(category));

static cl::opt<bool> generate(
    "generate",
    cl::desc(
        "build a generator from a causal language model's forward "
        "(token ids [B, S] -> logits [B, S, V]): its prefill and KV-cached "
        "decode step (summa-derive-generation) in one executable that "
        "reads --prompt, samples the next tokens from the split logits "
        "and writes the sequences (docs/Generation.md)"),
    cl::cat(category));
static cl::opt<int64_t> promptLength(
    "prompt-length",
    cl::desc("with --generate: the tokens per row the prefill takes at once "
             "(a longer prompt's rest goes through the decode step)"),
    cl::init(1), cl::cat(category));

namespace mlir::summa::test {
/// test/lib's planted miscompilation of the kernels' loop nests.
std::unique_ptr<Pass> createTestPlantKernelBugPass();
} // namespace mlir::summa::test

/// The runtime this build of summa-compile links binaries against.
static summa::driver::RuntimeLocation runtimeOfThisBuild() {
  summa::driver::RuntimeLocation runtime;
  runtime.cpuLibrary = SUMMA_RUNTIME_LIBRARY;
  runtime.includeDir = SUMMA_RUNTIME_INCLUDE_DIR;
#ifdef SUMMA_RUNTIME_CUDA_LIBRARY
  runtime.cudaLibrary = SUMMA_RUNTIME_CUDA_LIBRARY;
  runtime.cudaToolkit = SUMMA_CUDA_TOOLKIT_DIR;
#endif
  return runtime;
}

/// The flags as the driver library's options.
static FailureOr<summa::driver::CompileOptions> compileOptions() {
  summa::driver::CompileOptions o;
  o.output = outputFile;
  o.emit = emit;
  o.entry = entryName;
  o.grid = gridOpt;
  o.ranks = ranksOpt;
  o.target = target;
  o.cudaChip = cudaChip;
  o.cudaToolkit = cudaToolkit;
  o.gpuBlockSize = gpuBlockSize;
  o.gpuLoopsOnHost = gpuLoopsOnHost;
  if (testPlantKernelBug) {
    if (!gpuLoopsOnHost && target != "cuda") {
      llvm::errs() << "summa-compile: error: --test-plant-kernel-bug needs "
                      "--gpu-loops-on-host or --target=cuda\n";
      return failure();
    }
    o.testAfterKernelLoops = [](OpPassManager &pm) {
      pm.addPass(summa::test::createTestPlantKernelBugPass());
    };
  }
  o.referenceFile = referenceFile;
  o.referenceName = referenceName;
  o.referenceF64 = referenceInF64;
  o.gradcheck = gradcheckFunctions;
  o.generate = generate;
  o.promptLength = promptLength;
  o.liftConstants = liftConstants;
  o.saveConstants = saveConstantsTo;
  std::string reuseError;
  o.reuseBudget = panelReuse.budgetOrNone(reuseError);
  if (!reuseError.empty()) {
    llvm::errs() << "summa-compile: error: " << reuseError << "\n";
    return failure();
  }
  o.zero = zero;
  o.overlap = overlap;
  o.remarks = remarks;
  o.optLevel = optLevel;
  o.keepTemps = keepTemps;
  o.verbose = verbose;
  o.runtime = runtimeOfThisBuild();
  return o;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  summa::registerAllSummaPasses();
  registerPassManagerCLOptions();
  registerMLIRContextCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "summa-compile: compile a linalg model into a 2.5D SUMMA program "
      "linked with the summa runtime\n\n"
      "  summa-compile model.mlir --grid=2,2,2 --target=cpu -o model\n"
      "  mpirun -np 8 ./model --check --iters 10\n");

  DialectRegistry registry;
  summa::registerAllSummaDialects(registry);
  summa::registerAllSummaTranslations(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);

  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file) {
    llvm::errs() << "summa-compile: error: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  FailureOr<summa::driver::CompileOptions> options = compileOptions();
  if (failed(options))
    return 1;
  // --mlir-timing's report is printed when `timing` goes out of scope.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope root = timing.getRootScope();
  if (timing.isEnabled())
    options->timing = &root;
  return failed(summa::driver::compileModel(context, sourceMgr, *options)) ? 1
                                                                           : 0;
}
