//===- TestKernels.cu - device kernels of the GPU tests ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "TestKernels.h"

#include "summa/Runtime/SummaRuntimeKernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr int kThreads = 256;
// Enough blocks to fill a GPU; a grid-stride loop covers larger arrays.
constexpr int64_t kMaxBlocks = 4096;

// Loads widen to f32; stores round to nearest even.
__device__ __forceinline__ float load(const float *p) { return *p; }
__device__ __forceinline__ float load(const __half *p) {
  return __half2float(*p);
}
__device__ __forceinline__ float load(const __nv_bfloat16 *p) {
  return __bfloat162float(*p);
}
__device__ __forceinline__ void store(float *p, float value) { *p = value; }
__device__ __forceinline__ void store(__half *p, float value) {
  *p = __float2half_rn(value);
}
__device__ __forceinline__ void store(__nv_bfloat16 *p, float value) {
  *p = __float2bfloat16_rn(value);
}

template <typename T>
__global__ void scaleKernel(const T *x, T *y, int64_t count, float alpha) {
  int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < count; i += stride)
    store(y + i, alpha * load(x + i));
}

[[noreturn]] void fail(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

void fail(const char *format, ...) {
  std::fprintf(stderr, "summa gpu test: scaleOnStream: ");
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fprintf(stderr, "\n");
  std::fflush(stderr);
  std::abort();
}

template <typename T>
void launch(intptr_t x, intptr_t y, int64_t count, double alpha) {
  int64_t blocks =
      std::min<int64_t>((count + kThreads - 1) / kThreads, kMaxBlocks);
  auto stream = static_cast<cudaStream_t>(summaRtComputeStream());
  scaleKernel<T><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      reinterpret_cast<const T *>(x), reinterpret_cast<T *>(y), count,
      static_cast<float>(alpha));
  cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess)
    fail("kernel launch failed: %s: %s", cudaGetErrorName(error),
         cudaGetErrorString(error));
}

} // namespace

void summa::gputest::scaleOnStream(int32_t dtype, intptr_t x, intptr_t y,
                                   int64_t count, double alpha) {
  if (count <= 0)
    return;
  switch (dtype) {
  case SUMMA_DT_F32:
    launch<float>(x, y, count, alpha);
    break;
  case SUMMA_DT_F16:
    launch<__half>(x, y, count, alpha);
    break;
  case SUMMA_DT_BF16:
    launch<__nv_bfloat16>(x, y, count, alpha);
    break;
  default:
    fail("element type %d is not f32 (%d), f16 (%d) or bf16 (%d)", dtype,
         SUMMA_DT_F32, SUMMA_DT_F16, SUMMA_DT_BF16);
  }
}
