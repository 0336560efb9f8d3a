//===- SummaRuntimeKernels.h - GPU backend: memory and kernels --*- C -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The part of the C ABI that only the GPU backend (libsumma_runtime_cuda.so)
// implements: device memory from the runtime's pool and the CUDA kernels a
// transformer needs between its GEMMs. Include SummaRuntime.h for the element
// types and the life cycle; call summaRtInit before anything here.
//
// Conventions (in addition to SummaRuntime.h's):
//  * Pointers are DEVICE pointers as integers (intptr_t, MLIR's `index`),
//    already offset to the first element (no separate offset argument);
//    sizes and counts are int64_t elements.
//  * Element types: SUMMA_DT_F32, SUMMA_DT_F16 or SUMMA_DT_BF16 (f64 is
//    refused); every kernel computes in f32 and rounds once on store.
//  * Every kernel is enqueued on the runtime's compute stream, the stream
//    summaRtMatmul and the collectives are ordered with, and returns without
//    waiting for it. Outputs may alias inputs exactly (in place) where a
//    kernel says so; partial overlaps are undefined.
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

/// Activation functions. Values are part of the ABI.
enum SummaActivation {
  SUMMA_ACT_NONE = 0,
  /// GeLU, tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
  SUMMA_ACT_GELU_TANH = 1,
  SUMMA_ACT_RELU = 2,
};

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
// Kernels
//===----------------------------------------------------------------------===//

/// y[r, c] = act(x[r, c] + bias[c]) over a row-major [rows, cols] array;
/// bias may be 0 (no bias). y may be x.
SUMMA_RT_EXPORT void summaRtKernelBiasActivation(int32_t dtype, intptr_t x,
                                                 intptr_t bias, intptr_t y,
                                                 int64_t rows, int64_t cols,
                                                 int32_t activation);

/// dx[e] = dy[e] * act'(pre[e]) for GeLU (tanh) or ReLU, where `pre` is the
/// activation's input (x + bias of the forward). dx may be dy.
SUMMA_RT_EXPORT void
summaRtKernelActivationBackward(int32_t dtype, int32_t activation, intptr_t dy,
                                intptr_t pre, intptr_t dx, int64_t count);

/// y[e] = x[e] + residual[e]. y may be x or residual.
SUMMA_RT_EXPORT void summaRtKernelResidualAdd(int32_t dtype, intptr_t x,
                                              intptr_t residual, intptr_t y,
                                              int64_t count);

/// y[e] = alpha * x[e]. y may be x.
SUMMA_RT_EXPORT void summaRtKernelScale(int32_t dtype, intptr_t x, intptr_t y,
                                        int64_t count, double alpha);

/// Row softmax of scale * x over a row-major [rows, cols] array, computed
/// stably (the row maximum is subtracted first). With causal != 0, element
/// (r, c) is masked (probability 0) when c > rowOffset + (r mod rowPeriod),
/// i.e. key c comes after query rowOffset + (r mod rowPeriod); rowPeriod is
/// the number of query rows per (batch, head) block (0: no period, r itself).
/// A row whose every element is masked becomes all zeros. y may be x.
SUMMA_RT_EXPORT void summaRtKernelSoftmax(int32_t dtype, intptr_t x, intptr_t y,
                                          int64_t rows, int64_t cols,
                                          double scale, int32_t causal,
                                          int64_t rowPeriod, int64_t rowOffset);

/// The backward of summaRtKernelSoftmax given its output y:
/// dx[r, c] = scale * y[r, c] * (dy[r, c] - sum_c' dy[r, c'] y[r, c']).
/// Masked elements (y = 0) get dx = 0. dx may be dy.
SUMMA_RT_EXPORT void summaRtKernelSoftmaxBackward(int32_t dtype, intptr_t y,
                                                  intptr_t dy, intptr_t dx,
                                                  int64_t rows, int64_t cols,
                                                  double scale);

/// LayerNorm over the last dimension of a row-major [rows, cols] array:
/// y = (x - mean) * rstd * gamma + beta with rstd = 1 / sqrt(var + eps)
/// (population variance). gamma and beta ([cols], dtype) may be 0 (1 and 0);
/// mean and rstd ([rows], always f32, for the backward) may be 0 (not
/// stored). y may be x.
SUMMA_RT_EXPORT void summaRtKernelLayerNorm(int32_t dtype, intptr_t x,
                                            intptr_t gamma, intptr_t beta,
                                            intptr_t y, intptr_t mean,
                                            intptr_t rstd, int64_t rows,
                                            int64_t cols, double eps);

/// The backward of summaRtKernelLayerNorm, given x, gamma (may be 0) and the
/// forward's f32 mean and rstd:
///   dx = rstd * (g - mean_c(g) - xhat * mean_c(g * xhat)), g = dy * gamma,
///   dgamma[c] = sum_r dy * xhat, dbeta[c] = sum_r dy (both overwritten, in
///   dtype, summed in f32; either may be 0 to skip it).
/// dx may be dy or x.
SUMMA_RT_EXPORT void
summaRtKernelLayerNormBackward(int32_t dtype, intptr_t dy, intptr_t x,
                               intptr_t gamma, intptr_t mean, intptr_t rstd,
                               intptr_t dx, intptr_t dgamma, intptr_t dbeta,
                               int64_t rows, int64_t cols);

//===----------------------------------------------------------------------===//
// What code compiled with `summa-compile --target=cuda` calls
//===----------------------------------------------------------------------===//

/// The host functions of MLIR's `gpu-to-llvm` lowering (kernel binaries and
/// launches) and of `finalize-memref-to-llvm{use-generic-functions}` (every
/// memref.alloc / dealloc), implemented on the runtime: binaries load
/// lazily, on the runtime's device at the first launch; every launch goes to
/// the compute stream (mgpuStreamCreate returns it; its synchronize and
/// destroy do nothing); buffers come from the pool. docs/GPU.md.
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
SUMMA_RT_EXPORT void *_mlir_memref_to_llvm_alloc(size_t bytes);
SUMMA_RT_EXPORT void _mlir_memref_to_llvm_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif // SUMMA_RUNTIME_SUMMARUNTIMEKERNELS_H
