//===- DeviceEpilogue.h - bias and GeLU over a GEMM's output ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The epilogue of summaRtMatmulEpilogue where cuBLASLt does not fuse it
// (no cuBLASLt algorithm, SUMMA_GEMM=cublas, k = 0): one element-wise pass
// over D after the GEMM.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_DEVICEEPILOGUE_H
#define SUMMA_RUNTIME_GPU_DEVICEEPILOGUE_H

#include <cuda_runtime_api.h>

#include <cstdint>

namespace summa::gpu {

/// D[i, j] = act(D[i, j] + bias[j]) on `stream` for the row-major [m, n] D
/// with leading dimension ldd (device memory, element type `dtype`: f32,
/// f64, f16 or bf16, the 16-bit types computed in float). `bias` (n
/// elements) may be null; act is GeLU in the tanh form of SummaRuntime.h
/// when `gelu` is set, the identity otherwise.
void applyEpilogueOnDevice(void *d, int64_t ldd, const void *bias, int64_t m,
                           int64_t n, int32_t dtype, bool gelu,
                           cudaStream_t stream);

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_DEVICEEPILOGUE_H
