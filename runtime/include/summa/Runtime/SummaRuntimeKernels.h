//===- SummaRuntimeKernels.h - GPU backend: memory and launches -*- C -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The part of the C ABI that only the GPU backend (libsumma_runtime_cuda.so)
// implements: device memory from the runtime's pool, the compute stream, and
// the host functions through which code compiled with
// `summa-compile --target=cuda` loads and launches its own kernels. The
// runtime has no hand-written kernels of its own: every local op of a
// compiled program is a kernel generated through MLIR's gpu dialect. Include
// SummaRuntime.h for the element types and the life cycle; call summaRtInit
// before anything here.
//
// Conventions (in addition to SummaRuntime.h's):
//  * Pointers are DEVICE pointers; sizes are in bytes.
//  * Kernels are launched on the runtime's compute stream, the stream
//    summaRtMatmul and the collectives are ordered with; nothing here waits
//    for it except summaRtSynchronize.
//  * Invalid arguments abort every rank with a message naming the function,
//    as in SummaRuntime.h.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_SUMMARUNTIMEKERNELS_H
#define SUMMA_RUNTIME_SUMMARUNTIMEKERNELS_H

#include "summa/Runtime/SummaRuntime.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Device memory
//===----------------------------------------------------------------------===//

/// `bytes` bytes of device memory from the runtime's caching pool (size-class
/// free lists; never a null pointer, also for 0 bytes; 256-byte aligned).
/// Contents are undefined. Aborts every rank when the device is out of
/// memory even after the pool released its cached blocks.
SUMMA_RT_EXPORT intptr_t summaRtAlloc(int64_t bytes);
/// Returns memory from summaRtAlloc to the pool once the work already queued
/// on the compute stream is done (no host synchronisation). 0 is ignored.
SUMMA_RT_EXPORT void summaRtFree(intptr_t pointer);
/// Blocks the host until all work queued on the runtime's streams is done,
/// checking NCCL for asynchronous errors meanwhile.
SUMMA_RT_EXPORT void summaRtSynchronize(void);
/// The compute stream (a cudaStream_t), for code that launches its own
/// kernels in order with the runtime's.
SUMMA_RT_EXPORT void *summaRtComputeStream(void);

//===----------------------------------------------------------------------===//
// What code compiled with `summa-compile --target=cuda` calls
//===----------------------------------------------------------------------===//

/// The host functions of MLIR's `gpu-to-llvm` lowering (kernel binaries and
/// launches) and of `finalize-memref-to-llvm{use-generic-functions}` (every
/// memref.alloc / dealloc), implemented on the runtime: binaries load
/// lazily, on the runtime's device at the first launch; every launch goes to
/// the compute stream (mgpuStreamCreate returns it; its synchronize and
/// destroy do nothing); buffers come from the pool; mgpuMemcpy copies a
/// model's constant from its host global into a device buffer (in order on
/// the stream). docs/GPU.md.
SUMMA_RT_EXPORT void *mgpuModuleLoad(void *data, size_t size);
SUMMA_RT_EXPORT void mgpuModuleUnload(void *module);
SUMMA_RT_EXPORT void *mgpuModuleGetFunction(void *module, const char *name);
SUMMA_RT_EXPORT void *mgpuStreamCreate(void);
SUMMA_RT_EXPORT void mgpuStreamSynchronize(void *stream);
SUMMA_RT_EXPORT void mgpuStreamDestroy(void *stream);
SUMMA_RT_EXPORT void mgpuLaunchKernel(void *kernel, intptr_t gridX,
                                      intptr_t gridY, intptr_t gridZ,
                                      intptr_t blockX, intptr_t blockY,
                                      intptr_t blockZ, int32_t sharedBytes,
                                      void *stream, void **params, void **extra,
                                      size_t paramsCount);
SUMMA_RT_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes,
                                void *stream);
SUMMA_RT_EXPORT void *_mlir_memref_to_llvm_alloc(size_t bytes);
SUMMA_RT_EXPORT void _mlir_memref_to_llvm_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif // SUMMA_RUNTIME_SUMMARUNTIMEKERNELS_H
