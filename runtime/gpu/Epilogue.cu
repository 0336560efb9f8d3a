//===- Epilogue.cu - bias and GeLU over a GEMM's output --------*- CUDA -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "DeviceEpilogue.h"
#include "GeluTanh.h"
#include "GpuCheck.h"
#include "LaunchGeometry.h"

#include "summa/Runtime/SummaRuntime.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

using namespace summa::gpu;

namespace {
/// The type an element is computed in: double for f64, float otherwise.
template <typename T>
struct ComputeType {
  using type = float;
};
template <>
struct ComputeType<double> {
  using type = double;
};

__device__ __forceinline__ float load(float value) { return value; }
__device__ __forceinline__ double load(double value) { return value; }
__device__ __forceinline__ float load(__half value) {
  return __half2float(value);
}
__device__ __forceinline__ float load(__nv_bfloat16 value) {
  return __bfloat162float(value);
}

template <typename T>
__device__ __forceinline__ T store(typename ComputeType<T>::type value);
template <>
__device__ __forceinline__ float store<float>(float value) {
  return value;
}
template <>
__device__ __forceinline__ double store<double>(double value) {
  return value;
}
template <>
__device__ __forceinline__ __half store<__half>(float value) {
  return __float2half_rn(value);
}
template <>
__device__ __forceinline__ __nv_bfloat16 store<__nv_bfloat16>(float value) {
  return __float2bfloat16_rn(value);
}

template <typename T>
__global__ void epilogueKernel(T *d, int64_t ldd, const T *bias, int64_t m,
                               int64_t n, bool gelu) {
  using C = typename ComputeType<T>::type;
  int64_t count = m * n;
  int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < count; i += stride) {
    int64_t row = i / n, col = i - row * n;
    T *element = d + row * ldd + col;
    C value = load(*element);
    if (bias)
      value += load(bias[col]);
    if (gelu)
      value = summa::rt::geluTanh(value);
    *element = store<T>(value);
  }
}

template <typename T>
void launchEpilogue(void *d, int64_t ldd, const void *bias, int64_t m,
                    int64_t n, bool gelu, cudaStream_t stream) {
  Launch1D launch = elementwiseLaunch(m * n, kernelMultiprocessors());
  if (launch.blocks == 0)
    return;
  epilogueKernel<T>
      <<<static_cast<unsigned>(launch.blocks), launch.threads, 0, stream>>>(
          static_cast<T *>(d), ldd, static_cast<const T *>(bias), m, n, gelu);
  SUMMA_CUDA_CHECK(cudaGetLastError());
}
} // namespace

void summa::gpu::applyEpilogueOnDevice(void *d, int64_t ldd, const void *bias,
                                       int64_t m, int64_t n, int32_t dtype,
                                       bool gelu, cudaStream_t stream) {
  switch (dtype) {
  case SUMMA_DT_F64:
    launchEpilogue<double>(d, ldd, bias, m, n, gelu, stream);
    break;
  case SUMMA_DT_F16:
    launchEpilogue<__half>(d, ldd, bias, m, n, gelu, stream);
    break;
  case SUMMA_DT_BF16:
    launchEpilogue<__nv_bfloat16>(d, ldd, bias, m, n, gelu, stream);
    break;
  default:
    launchEpilogue<float>(d, ldd, bias, m, n, gelu, stream);
    break;
  }
}
