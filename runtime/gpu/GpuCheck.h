//===- GpuCheck.h - checked CUDA, cuBLAS and NCCL calls ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Every CUDA, cuBLAS(Lt) and NCCL call of the GPU backend goes through one of
// these macros. A failure prints one line
//
//   summa: rank R: CUDA call `cudaMalloc(&p, bytes)` failed at Pool.cpp:42:
//   cudaErrorMemoryAllocation: out of memory
//
// (the call as written, file, line, the library's error name and string),
// then aborts every NCCL communicator of this rank (ncclCommAbort) and all
// ranks (MPI_Abort), so that no rank is left waiting in a collective.
//
// This header needs no MPI, cuBLAS or NCCL header, so that .cu files can use
// it; the status is passed as an int.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_GPUCHECK_H
#define SUMMA_RUNTIME_GPU_GPUCHECK_H

#include "summa/Runtime/SummaRuntime.h"

#include <string>

namespace summa::gpu {

[[noreturn]] SUMMA_RT_EXPORT void
cudaCallFailed(const char *expr, const char *file, int line, int error);
[[noreturn]] SUMMA_RT_EXPORT void
cublasCallFailed(const char *expr, const char *file, int line, int status);
[[noreturn]] SUMMA_RT_EXPORT void
ncclCallFailed(const char *expr, const char *file, int line, int result);
/// summa::rt::fatal("%s", message) for code that cannot include Error.h.
[[noreturn]] SUMMA_RT_EXPORT void fatalMessage(const std::string &message);

/// Aborts (fatalMessage) unless `error` is empty: for the checks of
/// Validate.h.
inline void requireValid(const std::string &error) {
  if (!error.empty())
    fatalMessage(error);
}

} // namespace summa::gpu

/// Evaluates a CUDA, cuBLAS or NCCL call and, unless it returns 0 (success
/// in all three libraries), reports it through `failed` (one of the
/// *CallFailed above) with its text, `text`.
#define SUMMA_GPU_CALL_CHECK(expr, text, failed)                               \
  do {                                                                         \
    int summaGpuStatus = static_cast<int>(expr);                               \
    if (summaGpuStatus != 0)                                                   \
      ::summa::gpu::failed(text, __FILE__, __LINE__, summaGpuStatus);          \
  } while (false)

// The call's text is taken here, before its macros (cublas_v2.h renames
// cublasCreate to cublasCreate_v2, ...) are expanded.
#define SUMMA_CUDA_CHECK(expr) SUMMA_GPU_CALL_CHECK(expr, #expr, cudaCallFailed)
#define SUMMA_CUBLAS_CHECK(expr)                                               \
  SUMMA_GPU_CALL_CHECK(expr, #expr, cublasCallFailed)
#define SUMMA_NCCL_CHECK(expr) SUMMA_GPU_CALL_CHECK(expr, #expr, ncclCallFailed)

#endif // SUMMA_RUNTIME_GPU_GPUCHECK_H
