//===- Validate.h - argument checks of the GPU backend ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Every argument check of the GPU backend's entry points, as functions that
// return "" when the arguments are valid and otherwise the message the entry
// point prints (through summa::rt::fatal) before aborting all ranks. Keeping
// them free of CUDA, NCCL and of the runtime's state lets the unit tests check
// every message on a machine without a GPU. Messages follow the CPU
// backend's wording.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_VALIDATE_H
#define SUMMA_RUNTIME_GPU_VALIDATE_H

#include <cstddef>
#include <cstdint>
#include <string>

#include "GemmChecks.h"

namespace summa::gpu {

/// The GEMM functions' checks, shared with the CPU backend (GemmChecks.h).
using summa::rt::checkMatmul;
using summa::rt::checkMatmulEpilogue;
using summa::rt::formatString;

struct GpuDType {
  int32_t dtype;
  size_t size;
  const char *name;
};

/// Checks a SummaDType for the GPU backend. Matmul takes the four float
/// types; the collectives and the driver's tensors also i64 and i32
/// (allowInt).
std::string checkDType(const char *caller, int32_t dtype, GpuDType *info,
                       bool allowInt = false);

/// The oldest NCCL the NCCL mode runs on (ncclCommSplit came with 2.18).
constexpr int kMinNcclVersion = 21800;

/// A version code as "major.minor.patch": NCCL's and cuBLAS's
/// (major * 10000 + minor * 100 + patch, and NCCL's before 2.9, major *
/// 1000 + minor * 100 + patch) and CUDA's (major * 1000 + minor * 10, no
/// patch).
std::string ncclVersionString(int code);
std::string cublasVersionString(int code);
std::string cudaVersionString(int code);

/// The NCCL loaded at run time (`code` from ncclGetVersion) is new enough
/// for the NCCL mode.
std::string checkNcclVersion(const char *caller, int code);

/// A (base, offset, count) buffer: count and offset non-negative, base not
/// null when count > 0.
std::string checkBuffer(const char *caller, const char *what, intptr_t base,
                        int64_t offset, int64_t count);

/// A group index: 0 <= root < groupSize.
std::string checkRoot(const char *caller, int64_t root, int64_t groupSize);

/// A SummaReduction value.
std::string checkReduction(const char *caller, int32_t kind);

/// An [outer, inner] block of an all-gather or reduce-scatter over a group of
/// `groupSize`: non-negative, and groupSize * outer * inner elements must
/// not overflow. Sets *block = outer * inner.
std::string checkBlock(const char *caller, int64_t outer, int64_t inner,
                       int64_t groupSize, int64_t *block);

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_VALIDATE_H
