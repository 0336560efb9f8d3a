//===- Pipelines.h - the pipelines every summa tool runs --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The one definition of summa's pass pipelines, with typed options, on the
// model of upstream's GPU-to-NVVM pipeline: summa-opt (`--summa-pipeline`,
// `--summa-lower-to-llvm`, `--summa-lower-to-cuda`), summa-compile, the
// planner and the fuzz target all build their pass managers here.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_PIPELINES_PIPELINES_H
#define SUMMA_PIPELINES_PIPELINES_H

#include "summa/Dialect/Summa/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace mlir::summa {

/// How --target=cuda lowers local ops: every one becomes a GPU kernel,
/// compiled through NVVM into a binary embedded in the host code.
struct CudaOptions {
  /// The GPU architecture of the kernels' SASS (the PTX in the same fat
  /// binary runs on later ones).
  std::string chip = "sm_80";
  /// The CUDA toolkit (ptxas, fatbinary, libdevice); empty: MLIR's default.
  std::string toolkit;
  /// gpu-module-to-binary's format: fatbin, bin or isa (PTX).
  std::string format = "fatbin";
  /// Threads per block of the generated kernels.
  int64_t blockSize = 256;
  /// The kernels' optimisation level (NVVM's and ptxas's -O): 3, or 0 for
  /// a compile that only has to go through ptxas quickly (summa-compile
  /// -O0: the compile-only tests).
  unsigned optLevel = 3;
  /// Testing without a GPU: stop before the kernels are outlined and lower
  /// the block/thread loop nests on the host, for the CPU runtime, so that
  /// `--check` tests the loop forms summa builds for the kernels (against a
  /// reference lowered without them: summa-compile lowers the reference
  /// through the plain CPU pipeline).
  bool loopsOnHost = false;
  /// Tests only: adds passes that run on the kernels' loop nests, after
  /// summa-map-parallel-loops (summa-compile --test-plant-kernel-bug plants
  /// a miscompilation there to show that --check sees it).
  std::function<void(OpPassManager &)> afterKernelLoops;
};

/// The lowering (bufferize -> runtime calls -> LLVM), alone for the
/// unpartitioned reference. With `cuda`, local ops become GPU kernels
/// and buffers device memory (docs/GPU.md). `plain` (CPU only): no library
/// at all (matmuls and local contractions as loops, libm for tanh/exp/erf),
/// host code on host memory: the lowering of --check's independent
/// reference on every target.
/// How buildLowerToLLVMPipeline lowers a module.
struct LowerOptions {
  /// Software-pipeline the SUMMA loops after bufferization (summa-overlap).
  bool overlap = false;
  /// --target=cuda; null: the CPU.
  const CudaOptions *cuda = nullptr;
  /// Without the CPU fast path: the --check reference's lowering.
  bool plain = false;
  /// Functions that take their buffers as one array of data pointers
  /// (summa-pack-arguments): the entries that a driver calls.
  SmallVector<std::string> packArguments;
  /// Report at each local op whether it went to a library call or stays
  /// generated code (convert-contractions-to-runtime{remarks}).
  bool remarks = false;
};
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerOptions &options = {});
/// The lowering of --check's reference (and --gradcheck's functions) on
/// every target: host code without any library or kernel loop form
/// (`plain`), `functions` taking their buffers packed, so that a bug in the
/// partitioned program's code generation cannot hide on both sides of the
/// check.
void buildReferenceLoweringPipeline(OpPassManager &pm,
                                    ArrayRef<std::string> functions);

/// What every tool runs on a model as it reads it, before anything else
/// (the partitioning, the --check reference, the planner): the ops an
/// exporter writes outside upstream's dialects become upstream ops
/// (convert-tm-tensor-to-linalg).
void buildImportPipeline(OpPassManager &pm);

/// The partitioning, in two halves (summa-compile describes the program's
/// layouts between them). First: summa-normalize, summa-assign-layouts and,
/// with `shardOptimizerState`, summa-shard-optimizer-state (the optimizer
/// state split over depth: ZeRO stage 1).
void buildAssignLayoutsPipeline(OpPassManager &pm,
                                const SummaAssignLayoutsOptions &options,
                                bool shardOptimizerState = false);
/// Second: summa-partition, summa-expand-matmul, canonicalize,
/// summa-combine-collectives and, with a `memoryBudget` (bytes per rank,
/// -1: no bound), summa-reuse-panels.
void buildPartitionPipeline(OpPassManager &pm,
                            std::optional<int64_t> memoryBudget);

/// Options of the end-to-end pipeline.
struct PipelineOptions {
  SmallVector<int64_t, 3> grid;
  /// Keep SUMMA panels for later loops within this many bytes per rank
  /// (summa-reuse-panels; -1: no bound; unset: no reuse).
  std::optional<int64_t> memoryBudget;
  /// Split the optimizer state over depth (summa-shard-optimizer-state).
  bool shardOptimizerState = false;
  /// How the partitioned program is lowered (overlap, remarks, target).
  LowerOptions lower;
};

/// unsharded linalg -> SPMD tensors -> memrefs -> runtime calls -> LLVM:
/// buildImportPipeline, buildAssignLayoutsPipeline, buildPartitionPipeline,
/// buildLowerToLLVMPipeline.
void buildSummaPipeline(OpPassManager &pm, const PipelineOptions &options);
/// Registers `summa-pipeline`, `summa-lower-to-llvm` and
/// `summa-lower-to-cuda`.
void registerSummaPipelines();

} // namespace mlir::summa

#endif // SUMMA_PIPELINES_PIPELINES_H
