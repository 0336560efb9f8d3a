//===- Error.cpp - fatal errors of the GPU backend --------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa::rt::fatal and mpiCallFailed (declared in runtime/lib/Error.h, as in
// the CPU backend) and the CUDA / cuBLAS / NCCL failure reports of
// GpuCheck.h. A fatal error prints one line, aborts this rank's NCCL
// communicators (so that no NCCL kernel or proxy thread of this rank keeps
// its peers waiting) and then every rank with MPI_Abort.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "GpuCheck.h"
#include "GpuContext.h"
#include "Grid.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
bool mpiRunning() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
}

std::string formatMessage(const char *format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (length < 0)
    return format;
  std::string text(static_cast<size_t>(length) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), format, args);
  text.resize(static_cast<size_t>(length));
  return text;
}

void printError(const std::string &message) {
  int rank = summa::rt::currentRank();
  std::string line = rank >= 0 ? "summa: rank " + std::to_string(rank) + ": "
                               : std::string("summa: ");
  line += message;
  line += '\n';
  std::fflush(stdout);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

[[noreturn]] void abortAll() {
  static bool aborting = false;
  if (!aborting) {
    // A failure inside the abort itself goes straight to MPI_Abort.
    aborting = true;
    summa::gpu::abortCommunicators();
  }
  if (mpiRunning())
    MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

const char *baseName(const char *path) {
  const char *slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}
} // namespace

void summa::rt::fatal(const char *format, ...) {
  va_list args;
  va_start(args, format);
  std::string message = formatMessage(format, args);
  va_end(args);
  printError(message);
  abortAll();
}

void summa::rt::mpiCallFailed(const char *expr, const char *file, int line,
                              int errorCode) {
  char text[MPI_MAX_ERROR_STRING + 1] = {0};
  int length = 0;
  if (MPI_Error_string(errorCode, text, &length) != MPI_SUCCESS)
    std::snprintf(text, sizeof(text), "MPI error code %d", errorCode);
  fatal("MPI call `%s` failed at %s:%d: %s", expr, baseName(file), line, text);
}

void summa::gpu::cudaCallFailed(const char *expr, const char *file, int line,
                                int error) {
  auto status = static_cast<cudaError_t>(error);
  summa::rt::fatal("CUDA call `%s` failed at %s:%d: %s: %s", expr,
                   baseName(file), line, cudaGetErrorName(status),
                   cudaGetErrorString(status));
}

void summa::gpu::cublasCallFailed(const char *expr, const char *file, int line,
                                  int status) {
  auto value = static_cast<cublasStatus_t>(status);
  summa::rt::fatal("cuBLAS call `%s` failed at %s:%d: %s: %s", expr,
                   baseName(file), line, cublasGetStatusName(value),
                   cublasGetStatusString(value));
}

void summa::gpu::ncclCallFailed(const char *expr, const char *file, int line,
                                int result) {
  auto value = static_cast<ncclResult_t>(result);
  const char *detail = ncclGetLastError(nullptr);
  summa::rt::fatal("NCCL call `%s` failed at %s:%d: %s%s%s", expr,
                   baseName(file), line, ncclGetErrorString(value),
                   detail && *detail ? "; " : "", detail ? detail : "");
}

void summa::gpu::fatalMessage(const std::string &message) {
  summa::rt::fatal("%s", message.c_str());
}
