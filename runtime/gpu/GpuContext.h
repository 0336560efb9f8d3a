//===- GpuContext.h - process-wide state of the GPU backend -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The GPU backend keeps the grid in the CPU backend's summa::rt::GridState
// (runtime/common/GridState.h: world rank, grid, coordinates, and in the MPI
// test mode the MPI sub-communicators), so that the CPU backend's Profile.cpp
// compiles unchanged into this library; everything CUDA lives here.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_GPUCONTEXT_H
#define SUMMA_RUNTIME_GPU_GPUCONTEXT_H

#include "GpuRuntime.h"
#include "GroupLayout.h"

#include "Profile.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <functional>
#include <string>
#include <vector>

namespace summa::gpu {

struct Context {
  bool ready = false;
  CollectiveMode mode = CollectiveMode::Nccl;
  DeviceInfo info;
  std::string deviceName;

  cudaStream_t compute = nullptr;
  cudaStream_t comm = nullptr;
  /// Recorded on the compute stream before each collective.
  cudaEvent_t computeReady = nullptr;
  /// Reusable events (timing disabled / enabled).
  std::vector<cudaEvent_t> freeEvents;
  std::vector<cudaEvent_t> freeTimingEvents;

  cublasHandle_t cublas = nullptr;
  cublasLtHandle_t lt = nullptr;
  void *gemmWorkspace = nullptr;
  size_t gemmWorkspaceBytes = 0;
  bool allowTf32 = false;
  GemmEngine engine = GemmEngine::CublasLt;

  /// NCCL mode: the world communicator and one per axes mask whose group has
  /// more than one rank (comms[7] is the world itself).
  ncclComm_t world = nullptr;
  ncclComm_t comms[kNumMasks] = {};

  /// MPI mode: pinned host memory the collectives stage through.
  void *staging = nullptr;
  size_t stagingBytes = 0;

  /// SUMMA_GPU_TIMEOUT_S (0: wait as long as it takes).
  double timeoutSeconds = 0;
};

/// The state; context() aborts with `caller` unless summaRtInit has run.
/// contextState is exported for the device tests.
SUMMA_RT_EXPORT Context &contextState();
Context &context(const char *caller);

/// An event from the free list (created on demand), and back.
cudaEvent_t acquireEvent(bool timing = false);
void releaseEvent(cudaEvent_t event, bool timing = false);

/// Clears the "last error" that a query answered with cudaErrorNotReady
/// leaves behind, so that the next cudaGetLastError (after a kernel launch)
/// reports only real failures.
inline void clearNotReady() {
  cudaError_t last = cudaGetLastError();
  (void)last;
}

/// Blocks the host until `query()` (a cudaStreamQuery or cudaEventQuery,
/// named `call` in the message if it fails) reports the work done, polling
/// NCCL for asynchronous errors and honouring SUMMA_GPU_TIMEOUT_S; `what`
/// names the wait in a timeout message.
void pollUntilDone(const std::function<cudaError_t()> &query, const char *call,
                   const char *what);
/// Blocks the host until `stream` is idle (pollUntilDone).
void waitStream(cudaStream_t stream, const char *what);
/// Aborts every rank if an NCCL communicator reports an asynchronous error.
void checkAsyncErrors();
/// ncclCommAbort on every communicator (the fatal path; never throws).
void abortCommunicators();

/// The pinned staging buffer of the MPI mode, at least `bytes` bytes.
void *stagingBuffer(size_t bytes);

/// Pool entry points with a caller for the out-of-memory message.
void *poolAllocate(size_t bytes, cudaStream_t stream, const char *caller);
void poolRelease(void *pointer, cudaStream_t stream, const char *caller);
/// Creates and destroys the pool (summaRtInit / summaRtFinalize).
void poolCreate();
void poolDestroy();

/// Frees the cuBLASLt plans of Matmul.cpp (summaRtFinalize).
void releaseGemmPlans();

//===----------------------------------------------------------------------===//
// Profile
//===----------------------------------------------------------------------===//

/// The profile counters of Profile.h, timed on the GPU: with SUMMA_PROFILE
/// set, an operation's seconds come from CUDA events around it, resolved
/// lazily (no host synchronisation); without it only counts and bytes are
/// recorded, at once.
class ProfileSpan {
public:
  /// Starts timing an operation about to be queued on `stream`.
  explicit ProfileSpan(cudaStream_t stream);
  /// Ends it as a collective (`async`: started by summaRt*Start) or as a
  /// matmul.
  void endCollective(summa::rt::CollectiveKind kind, int32_t mask,
                     int64_t bytes, bool async = false);
  void endMatmul(int64_t flops);

private:
  cudaStream_t stream;
  cudaEvent_t start = nullptr;
  double hostStart = 0;
};

/// Whether SUMMA_PROFILE asks for timings.
bool profileTimed();
/// Waits for every timed operation and adds it to the counters (before a
/// ProfilePause changes whether they count, and before the profile is
/// written). Exported for the tests.
SUMMA_RT_EXPORT void flushProfile();

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_GPUCONTEXT_H
