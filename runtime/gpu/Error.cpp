//===- Error.cpp - fatal errors of the GPU backend --------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The CUDA / cuBLAS / NCCL failure reports of GpuCheck.h, through
// summa::rt::fatal (runtime/common/Error.cpp, shared with the CPU backend): one
// line naming the call, then this rank's NCCL communicators are aborted (the
// hook summaRtInit sets, so that no NCCL kernel or proxy thread of this rank
// keeps its peers waiting) and every rank with MPI_Abort.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "GpuCheck.h"
#include "GpuContext.h"
#include "GridState.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <string>

using summa::rt::baseName;

namespace {
/// "<library> call `<expr>` failed at <file>:<line>: <error><separator>
/// <detail>".
[[noreturn]] void callFailed(const char *library, const char *expr,
                             const char *file, int line, const char *error,
                             const char *separator, const char *detail) {
  summa::rt::fatal("%s call `%s` failed at %s:%d: %s%s%s", library, expr,
                   baseName(file), line, error, separator, detail);
}
} // namespace

void summa::gpu::cudaCallFailed(const char *expr, const char *file, int line,
                                int error) {
  auto status = static_cast<cudaError_t>(error);
  callFailed("CUDA", expr, file, line, cudaGetErrorName(status), ": ",
             cudaGetErrorString(status));
}

void summa::gpu::cublasCallFailed(const char *expr, const char *file, int line,
                                  int status) {
  auto value = static_cast<cublasStatus_t>(status);
  callFailed("cuBLAS", expr, file, line, cublasGetStatusName(value), ": ",
             cublasGetStatusString(value));
}

void summa::gpu::ncclCallFailed(const char *expr, const char *file, int line,
                                int result) {
  auto value = static_cast<ncclResult_t>(result);
  const char *detail = ncclGetLastError(nullptr);
  callFailed("NCCL", expr, file, line, ncclGetErrorString(value),
             detail && *detail ? "; " : "", detail ? detail : "");
}

void summa::gpu::fatalMessage(const std::string &message) {
  summa::rt::fatal("%s", message.c_str());
}
