//===- GpuRuntime.h - C++ API of the GPU backend ----------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// What libsumma_runtime_cuda.so offers C++ callers beyond the C ABI: its
// streams, asynchronous collectives and the memory pool. Compiled code uses
// the C ABI (SummaRuntime.h, SummaRuntimeKernels.h); this header is for the
// runtime's own tests and benchmarks, and for overlapping SUMMA steps:
//
//   // Double-buffered SUMMA: the broadcasts of step t+1 run on the
//   // communication stream while the compute stream multiplies step t.
//   auto a = startBroadcast(aPanel[0], ..., rowMask, 0);
//   auto b = startBroadcast(bPanel[0], ..., colMask, 0);
//   for (int t = 0; t < q; ++t) {
//     wait(a); wait(b);                      // compute waits, host does not
//     if (t + 1 < q) {                       // panel copies for t+1 first...
//       a = startBroadcast(aPanel[(t+1)%2], ..., rowMask, t + 1);
//       b = startBroadcast(bPanel[(t+1)%2], ..., colMask, t + 1);
//     }
//     summaRtMatmul(..., aPanel[t%2], bPanel[t%2], ..., t > 0);
//   }
//
// Streams and ordering. The runtime owns a compute stream and a
// communication stream. A collective started here waits (through an event)
// for everything already queued on the compute stream, runs on the
// communication stream, and is ordered before later compute work only once
// its handle is waited for. Between start and wait, compute work must not
// touch its buffers. The C ABI's collectives are start + wait: synchronous
// with respect to the compute stream, never to the host. The C ABI's
// summaRtBroadcastStart / summaRtReduceStart + summaRtWait are the same
// start and wait() behind an integer handle.
//
// In the one-GPU test mode (SUMMA_GPU_COLLECTIVES=mpi) a start blocks the
// host until the collective is complete and returns a finished handle.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_GPURUNTIME_H
#define SUMMA_RUNTIME_GPU_GPURUNTIME_H

#include "CachingPool.h"

#include "summa/Runtime/SummaRuntime.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace summa::gpu {

/// How the collectives travel.
enum class CollectiveMode {
  /// NCCL communicators, one GPU per rank (the default).
  Nccl,
  /// MPI through host staging buffers (SUMMA_GPU_COLLECTIVES=mpi): several
  /// ranks may share a GPU. For testing only: every collective synchronises
  /// the host and copies the data twice.
  Mpi,
};

/// Which library computes summaRtMatmul.
enum class GemmEngine {
  /// cuBLASLt with a cached heuristic choice per shape (the default).
  CublasLt,
  /// cublasGemmEx (SUMMA_GEMM=cublas); also the fallback when cuBLASLt finds
  /// no algorithm.
  Cublas,
};

struct DeviceInfo {
  int ordinal = -1;
  int multiprocessors = 0;
  int computeCapability = 0; // major * 10 + minor
  const char *name = "";
  int localRank = 0;
  int localSize = 1;
  /// The versions loaded at run time (cudaDriverGetVersion,
  /// cudaRuntimeGetVersion, cublasGetVersion, cublasLtGetVersion,
  /// ncclGetVersion), as their codes; Validate.h formats them.
  int cudaDriver = 0, cudaRuntime = 0, cublas = 0, nccl = 0;
  size_t cublasLt = 0;
};

SUMMA_RT_EXPORT CollectiveMode collectiveMode();
SUMMA_RT_EXPORT const DeviceInfo &deviceInfo();
SUMMA_RT_EXPORT cudaStream_t computeStream();
SUMMA_RT_EXPORT cudaStream_t commStream();

/// Blocks the host until both streams are idle; meanwhile polls every NCCL
/// communicator for asynchronous errors and honours SUMMA_GPU_TIMEOUT_S
/// (either aborts every rank with a message).
SUMMA_RT_EXPORT void synchronize();

//===----------------------------------------------------------------------===//
// Asynchronous collectives
//===----------------------------------------------------------------------===//

/// A started collective. Move-only; waits (compute stream) when destroyed
/// unwaited, so that ordering is never lost silently.
class SUMMA_RT_EXPORT CollectiveHandle {
public:
  CollectiveHandle() = default;
  explicit CollectiveHandle(cudaEvent_t done) : done(done) {}
  CollectiveHandle(CollectiveHandle &&other) noexcept : done(other.done) {
    other.done = nullptr;
  }
  CollectiveHandle &operator=(CollectiveHandle &&other) noexcept;
  CollectiveHandle(const CollectiveHandle &) = delete;
  CollectiveHandle &operator=(const CollectiveHandle &) = delete;
  ~CollectiveHandle();

  /// Whether a wait is still due.
  bool pending() const { return done != nullptr; }

private:
  friend void wait(CollectiveHandle &handle);
  friend void waitHost(CollectiveHandle &handle);
  cudaEvent_t done = nullptr;
};

/// The collectives of SummaRuntime.h on device pointers (already offset),
/// started after the work queued on the compute stream. Arguments are
/// checked as by the C ABI. Groups of one rank return a finished handle.
SUMMA_RT_EXPORT CollectiveHandle startBroadcast(void *data, int64_t count,
                                                int32_t dtype, int32_t axesMask,
                                                int64_t root);
SUMMA_RT_EXPORT CollectiveHandle startReduce(void *data, int64_t count,
                                             int32_t dtype, int32_t axesMask,
                                             int64_t root, int32_t kind);
SUMMA_RT_EXPORT CollectiveHandle startAllReduce(void *data, int64_t count,
                                                int32_t dtype, int32_t axesMask,
                                                int32_t kind);
SUMMA_RT_EXPORT CollectiveHandle startAllGather(const void *src, void *dst,
                                                int64_t outer, int64_t inner,
                                                int32_t dtype,
                                                int32_t axesMask);
SUMMA_RT_EXPORT CollectiveHandle
startReduceScatter(const void *src, void *dst, int64_t outer, int64_t inner,
                   int32_t dtype, int32_t axesMask, int32_t kind);

/// Orders the collective before later work on the compute stream (no host
/// synchronisation). A finished or already waited handle is a no-op.
SUMMA_RT_EXPORT void wait(CollectiveHandle &handle);
/// Blocks the host until the collective is done (then as wait()).
SUMMA_RT_EXPORT void waitHost(CollectiveHandle &handle);

//===----------------------------------------------------------------------===//
// Memory pool and GEMM engine
//===----------------------------------------------------------------------===//

/// Device memory for use on `stream` (see CachingPool.h); aborts when out of
/// memory. summaRtAlloc is allocate(bytes, computeStream()).
SUMMA_RT_EXPORT void *allocate(size_t bytes, cudaStream_t stream);
/// Returns memory to the pool once the work queued on `stream` is done.
SUMMA_RT_EXPORT void release(void *pointer, cudaStream_t stream);
SUMMA_RT_EXPORT PoolStats poolStats();
/// Waits for the device and returns every cached block to CUDA.
SUMMA_RT_EXPORT void trimPool();

SUMMA_RT_EXPORT GemmEngine gemmEngine();
SUMMA_RT_EXPORT void setGemmEngine(GemmEngine engine);
/// Whether f32 GEMMs may use TF32 (SUMMA_ALLOW_TF32=1 at summaRtInit).
SUMMA_RT_EXPORT bool tf32Allowed();
SUMMA_RT_EXPORT void setTf32Allowed(bool allowed);

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_GPURUNTIME_H
