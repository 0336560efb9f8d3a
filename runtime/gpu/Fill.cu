//===- Fill.cu - input tiles filled on the device ---------------*- CUDA
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "DeviceFill.h"
#include "GpuCheck.h"
#include "LaunchGeometry.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

using namespace summa::gpu;

namespace {
template <typename T>
__device__ __forceinline__ T convert(double value);
template <>
__device__ __forceinline__ double convert<double>(double value) {
  return value;
}
template <>
__device__ __forceinline__ float convert<float>(double value) {
  return static_cast<float>(value);
}
// Through float, as the host twin: double -> float -> 16 bits.
template <>
__device__ __forceinline__ __half convert<__half>(double value) {
  return __float2half_rn(static_cast<float>(value));
}
template <>
__device__ __forceinline__ __nv_bfloat16 convert<__nv_bfloat16>(double value) {
  return __float2bfloat16_rn(static_cast<float>(value));
}

// Integers as the CPU backend stores them (Tensor::store): rounded down.
template <>
__device__ __forceinline__ int64_t convert<int64_t>(double value) {
  return static_cast<int64_t>(floor(value));
}
template <>
__device__ __forceinline__ int32_t convert<int32_t>(double value) {
  return static_cast<int32_t>(floor(value));
}

template <typename T>
__global__ void fillKernel(T *data, TileMap map, uint64_t seed, int32_t tensor,
                           double scale, bool nonnegative) {
  int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < map.count; i += stride) {
    int64_t global = globalIndexOf(map, i);
    data[i] = global < 0 ? T(0)
                         : convert<T>(scaledInputValue(seed, tensor, global,
                                                       scale, nonnegative));
  }
}

template <typename T>
void launchFill(void *data, const TileMap &map, uint64_t seed, int32_t tensor,
                double scale, bool nonnegative, cudaStream_t stream) {
  Launch1D launch = elementwiseLaunch(map.count, kernelMultiprocessors());
  if (launch.blocks == 0)
    return;
  fillKernel<T>
      <<<static_cast<unsigned>(launch.blocks), launch.threads, 0, stream>>>(
          static_cast<T *>(data), map, seed, tensor, scale, nonnegative);
  SUMMA_CUDA_CHECK(cudaGetLastError());
}

/// launchFill for the element type `dtype`.
using FillLauncher = void (*)(void *, const TileMap &, uint64_t, int32_t,
                              double, bool, cudaStream_t);
FillLauncher fillLauncher(int32_t dtype) {
  switch (dtype) {
  case SUMMA_DT_F64:
    return launchFill<double>;
  case SUMMA_DT_F16:
    return launchFill<__half>;
  case SUMMA_DT_BF16:
    return launchFill<__nv_bfloat16>;
  case SUMMA_DT_I64:
    return launchFill<int64_t>;
  case SUMMA_DT_I32:
    return launchFill<int32_t>;
  default:
    return launchFill<float>;
  }
}
} // namespace

void summa::gpu::fillInputOnDevice(void *data, int32_t dtype,
                                   const TileMap &map, uint64_t seed,
                                   int32_t tensor, double scale,
                                   bool nonnegative, cudaStream_t stream) {
  fillLauncher(dtype)(data, map, seed, tensor, scale, nonnegative, stream);
}
