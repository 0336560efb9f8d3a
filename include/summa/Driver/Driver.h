//===- Driver.h - the compiler driver as a library --------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// What summa-compile does, behind one options struct (on the model of
// CIRCT's Firtool.h and FirtoolOptions): a model file to a distributed
// executable, a library for a host program, an object, LLVM IR or the
// partitioned MLIR. The steps: import, lift constants, choose the entry and
// the grid (or ask the planner), load the --check reference, assign
// layouts, describe the program's tensors for the runtime, partition, lower
// both the partitioned program and the reference (lib/Pipelines), emit
// machine code and link it with the runtime and a generated main.
// summa-compile only turns its flags into CompileOptions.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_DRIVER_DRIVER_H
#define SUMMA_DRIVER_DRIVER_H

#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;
class OpPassManager;
class TimingScope;
} // namespace mlir

namespace mlir::summa::driver {

/// What compileModel writes to CompileOptions::output.
enum class EmitKind {
  /// An executable linked with the runtime's driver (summaRtMain).
  Exe,
  /// A shared library for a host program (summa/Runtime/SummaModel.h) and
  /// its header (the output's name with .h).
  Lib,
  /// One object file of both functions.
  Obj,
  /// The partitioned MLIR before bufferization.
  SpmdMLIR,
  /// LLVM IR of both functions.
  LLVMIR,
};

/// Where the runtime libraries a binary links against are.
struct RuntimeLocation {
  /// libsumma_runtime.so (MPI + BLAS).
  std::string cpuLibrary;
  /// libsumma_runtime_cuda.so; empty where the build has no GPU backend.
  std::string cudaLibrary;
  /// The directory of summa/Runtime/SummaRuntime.h.
  std::string includeDir;
  /// The CUDA toolkit the GPU backend was built with (ptxas, fatbinary).
  std::string cudaToolkit;
};

struct CompileOptions {
  /// The output file.
  std::string output = "a.out";
  EmitKind emit = EmitKind::Exe;
  /// The function to compile; empty: the module's only public one.
  std::string entry;
  /// "q,q,d", or "auto": the planner's best grid of `ranks` ranks.
  std::string grid;
  int64_t ranks = 0;

  /// "cpu" or "cuda".
  std::string target = "cpu";
  /// --target=cuda: the kernels' architecture; empty toolkit: the runtime's.
  std::string cudaChip = "sm_80";
  std::string cudaToolkit;
  /// Threads per block of generated kernels.
  int64_t gpuBlockSize = 256;
  /// Testing without a GPU: --target=cuda's kernel loop nests on the CPU
  /// backend.
  bool gpuLoopsOnHost = false;
  /// Tests only: passes added right after the kernel loop nests are formed
  /// (--target=cuda or gpuLoopsOnHost); summa-compile's
  /// --test-plant-kernel-bug adds test/lib's miscompilation here, to show
  /// that --check's reference does not share the kernels' code.
  std::function<void(OpPassManager &)> testAfterKernelLoops;

  /// --check's reference: from this file (default: the entry itself,
  /// unpartitioned), the function named `referenceName` (default: the
  /// entry's name or the file's only public function), in f64 where the
  /// module allows it.
  std::string referenceFile;
  std::string referenceName;
  bool referenceF64 = true;
  /// A derived training step (summa.gradcheck): compile its loss and
  /// gradients' functions beside the reference for the binary's
  /// --gradcheck.
  bool gradcheck = true;

  /// A generator (summa-derive-generation from the entry, a causal LM's
  /// forward): the prefill of `promptLength` tokens and the decode step in
  /// one executable whose driver is summaRtGenerate.
  bool generate = false;
  int64_t promptLength = 1;

  /// Tensor constants of at least this many elements become arguments
  /// (0: none), their values written to `saveConstants` if set.
  int64_t liftConstants = 0;
  std::string saveConstants;
  /// Keep SUMMA panels within this many bytes per rank (-1: no bound;
  /// unset: no reuse).
  std::optional<int64_t> reuseBudget;
  /// Split the optimizer state over depth (ZeRO stage 1).
  bool zero = false;
  /// Overlap each SUMMA step's collectives with the previous GEMM.
  bool overlap = false;
  /// Report at each local op whether it went to a library call.
  bool remarks = false;

  /// LLVM optimisation level (0-3).
  unsigned optLevel = 2;
  /// Keep the generated main and objects; print the link command.
  bool keepTemps = false;
  bool verbose = false;

  RuntimeLocation runtime;
  /// Where each phase's pass timings go (--mlir-timing); may be null.
  TimingScope *timing = nullptr;
};

/// Compiles the model in `sourceMgr`'s main buffer as `options` say.
/// Problems are reported as diagnostics in `context` or as
/// "summa-compile: error:" lines on stderr.
LogicalResult compileModel(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                           const CompileOptions &options);

} // namespace mlir::summa::driver

#endif // SUMMA_DRIVER_DRIVER_H
