//===- Pool.cpp - the device memory pool ------------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// CachingPool (CachingPool.h) over cudaMalloc / cudaFree with CUDA events as
// fences, summaRtAlloc / summaRtFree of SummaRuntimeKernels.h, and
// summaRtLoadScalar's read of one integer of a device buffer.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "GpuCheck.h"
#include "GpuContext.h"
#include "GpuRuntime.h"

#include "summa/Runtime/SummaRuntimeKernels.h"

#include <memory>

using namespace summa::gpu;

namespace {
struct CudaPoolBackend {
  using Stream = cudaStream_t;
  using Fence = cudaEvent_t;

  void *allocate(size_t bytes) {
    void *pointer = nullptr;
    cudaError_t status = cudaMalloc(&pointer, bytes);
    if (status == cudaErrorMemoryAllocation) {
      // Not sticky: clear it and let the pool trim and retry.
      (void)cudaGetLastError();
      return nullptr;
    }
    if (status != cudaSuccess)
      cudaCallFailed("cudaMalloc(&pointer, bytes)", __FILE__, __LINE__, status);
    return pointer;
  }

  void free(void *pointer) { SUMMA_CUDA_CHECK(cudaFree(pointer)); }

  Fence record(Stream stream) {
    cudaEvent_t event = acquireEvent();
    SUMMA_CUDA_CHECK(cudaEventRecord(event, stream));
    return event;
  }

  bool passed(Fence fence) {
    cudaError_t status = cudaEventQuery(fence);
    if (status == cudaErrorNotReady) {
      clearNotReady();
      return false;
    }
    if (status != cudaSuccess)
      cudaCallFailed("cudaEventQuery(fence)", __FILE__, __LINE__, status);
    return true;
  }

  void destroy(Fence fence) { releaseEvent(fence); }

  void synchronize() {
    Context &ctx = contextState();
    waitStream(ctx.comm, "the communication stream");
    waitStream(ctx.compute, "the compute stream");
  }
};

CudaPoolBackend backend;
std::unique_ptr<CachingPool<CudaPoolBackend>> pool;

CachingPool<CudaPoolBackend> &thePool(const char *caller) {
  context(caller);
  return *pool;
}
} // namespace

void summa::gpu::poolCreate() {
  pool = std::make_unique<CachingPool<CudaPoolBackend>>(backend);
}

void summa::gpu::poolDestroy() {
  if (pool)
    pool->releaseAll();
  pool.reset();
}

void *summa::gpu::poolAllocate(size_t bytes, cudaStream_t stream,
                               const char *caller) {
  void *pointer = pool->allocate(bytes, stream);
  if (!pointer) {
    const PoolStats &stats = pool->stats();
    summa::rt::fatal("%s: out of device memory for %zu bytes (size class "
                     "%zu; %zu bytes in use, %zu held from CUDA after the pool "
                     "released its cached blocks)",
                     caller, bytes, poolSizeClass(bytes), stats.bytesInUse,
                     stats.bytesReserved);
  }
  return pointer;
}

void summa::gpu::poolRelease(void *pointer, cudaStream_t stream,
                             const char *caller) {
  if (!pool->release(pointer, stream))
    summa::rt::fatal("%s: %p was not allocated by the runtime's pool (or was "
                     "freed already)",
                     caller, pointer);
}

void *summa::gpu::allocate(size_t bytes, cudaStream_t stream) {
  thePool("allocate");
  return poolAllocate(bytes, stream, "allocate");
}

void summa::gpu::release(void *pointer, cudaStream_t stream) {
  thePool("release");
  if (pointer)
    poolRelease(pointer, stream, "release");
}

PoolStats summa::gpu::poolStats() { return thePool("poolStats").stats(); }

void summa::gpu::trimPool() { thePool("trimPool").trim(); }

intptr_t summaRtAlloc(int64_t bytes) {
  Context &ctx = context("summaRtAlloc");
  if (bytes < 0)
    summa::rt::fatal("summaRtAlloc: negative size %lld", (long long)bytes);
  return reinterpret_cast<intptr_t>(
      poolAllocate(static_cast<size_t>(bytes), ctx.compute, "summaRtAlloc"));
}

void summaRtFree(intptr_t pointer) {
  Context &ctx = context("summaRtFree");
  if (pointer == 0)
    return;
  poolRelease(reinterpret_cast<void *>(pointer), ctx.compute, "summaRtFree");
}

int64_t summaRtLoadScalar(intptr_t base, int64_t offset, int32_t dtype) {
  context("summaRtLoadScalar");
  if (dtype != SUMMA_DT_I64 && dtype != SUMMA_DT_I32)
    summa::rt::fatal("summaRtLoadScalar: element type %d is not i64 or i32",
                     dtype);
  size_t size = dtype == SUMMA_DT_I64 ? 8 : 4;
  const char *at = reinterpret_cast<const char *>(base) + offset * size;
  int64_t wide = 0;
  int32_t narrow = 0;
  void *host = dtype == SUMMA_DT_I64 ? static_cast<void *>(&wide)
                                     : static_cast<void *>(&narrow);
  // After the work queued before it: the element may be a kernel's result.
  SUMMA_CUDA_CHECK(
      cudaMemcpyAsync(host, at, size, cudaMemcpyDeviceToHost, computeStream()));
  synchronize();
  return dtype == SUMMA_DT_I64 ? wide : narrow;
}
