//===- HalfFloatDeviceTest.cu - host f16/bf16 against CUDA's ----*- CUDA
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// HalfFloat.h (used by the MPI test mode's reductions, the driver's
// comparison and the tests) must agree with CUDA's conversions bit for bit:
// every 16-bit pattern widened, and a sweep of floats (normal, subnormal,
// ties, overflow) narrowed.
//
//===----------------------------------------------------------------------===//

#include "DeviceTestUtil.h"
#include "HalfFloat.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <limits>

using namespace summa::gputest;

namespace {
/// CUDA's conversions of a 16-bit pattern to float, as f16 and as bf16.
struct Widen {
  __device__ void operator()(uint16_t bits, float &half, float &bf16) const {
    half = __half2float(__ushort_as_half(bits));
    bf16 = __bfloat162float(__ushort_as_bfloat16(bits));
  }
};

/// CUDA's round-to-nearest conversions of a float to f16 and bf16 patterns.
struct Narrow {
  __device__ void operator()(float value, uint16_t &half,
                             uint16_t &bf16) const {
    half = __half_as_ushort(__float2half_rn(value));
    bf16 = __bfloat16_as_ushort(__float2bfloat16_rn(value));
  }
};

template <typename In, typename Out, typename Convert>
__global__ void convertBoth(const In *in, Out *half, Out *bf16, int count,
                            Convert convert) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    convert(in[i], half[i], bf16[i]);
}

template <typename T>
T *deviceCopy(const std::vector<T> &host) {
  T *device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(T) + 1);
  cudaMemcpy(device, host.data(), host.size() * sizeof(T),
             cudaMemcpyHostToDevice);
  return device;
}

template <typename T>
std::vector<T> hostCopy(const T *device, size_t count) {
  std::vector<T> host(count);
  cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

bool sameFloat(float a, float b) {
  return summa::gpu::floatBits(a) == summa::gpu::floatBits(b) ||
         (std::isnan(a) && std::isnan(b));
}

/// `convert` (Widen or Narrow) on the device for every element of `in`,
/// into `half` and `bf16`.
template <typename In, typename Out, typename Convert>
void convertOnDevice(const std::vector<In> &in, Convert convert,
                     std::vector<Out> &half, std::vector<Out> &bf16) {
  int count = static_cast<int>(in.size());
  In *dIn = deviceCopy(in);
  Out *dHalf = nullptr, *dBf16 = nullptr;
  SUMMA_TEST_CUDA(cudaMalloc(&dHalf, count * sizeof(Out)));
  SUMMA_TEST_CUDA(cudaMalloc(&dBf16, count * sizeof(Out)));
  convertBoth<<<(count + 255) / 256, 256>>>(dIn, dHalf, dBf16, count, convert);
  SUMMA_TEST_CUDA(cudaDeviceSynchronize());
  half = hostCopy(dHalf, count);
  bf16 = hostCopy(dBf16, count);
  cudaFree(dIn);
  cudaFree(dHalf);
  cudaFree(dBf16);
}
} // namespace

TEST(HalfFloatDeviceTest, WidenEveryPattern) {
  SUMMA_REQUIRE_DEVICE();
  std::vector<uint16_t> bits(1 << 16);
  for (uint32_t b = 0; b < bits.size(); ++b)
    bits[b] = static_cast<uint16_t>(b);
  std::vector<float> half, bf16;
  ASSERT_NO_FATAL_FAILURE(convertOnDevice(bits, Widen(), half, bf16));
  for (uint32_t b = 0; b < bits.size(); ++b) {
    ASSERT_TRUE(sameFloat(summa::gpu::halfToFloat(bits[b]), half[b]))
        << std::hex << b;
    ASSERT_TRUE(sameFloat(summa::gpu::bfloat16ToFloat(bits[b]), bf16[b]))
        << std::hex << b;
  }
}

TEST(HalfFloatDeviceTest, NarrowFloats) {
  SUMMA_REQUIRE_DEVICE();
  std::vector<float> values;
  // Every float whose top bits step through all exponents, with mantissas
  // that hit the rounding cases (ties, just below and above).
  for (uint32_t top = 0; top < (1u << 9); ++top)
    for (uint32_t low : {0u, 1u, 0xfffu, 0x1000u, 0x1001u, 0x1fffu, 0x7fffu,
                         0x8000u, 0x8001u, 0xffffu, 0x12345u, 0x7fffffu})
      for (uint32_t mid : {0u, 0x2000u, 0x10000u, 0x400000u})
        values.push_back(summa::gpu::floatFromBits((top << 23) | mid | low));
  values.push_back(std::numeric_limits<float>::infinity());
  values.push_back(std::numeric_limits<float>::quiet_NaN());
  int count = static_cast<int>(values.size());
  std::vector<uint16_t> half, bf16;
  ASSERT_NO_FATAL_FAILURE(convertOnDevice(values, Narrow(), half, bf16));
  for (int e = 0; e < count; ++e) {
    float v = values[e];
    if (std::isnan(v)) {
      EXPECT_TRUE(std::isnan(summa::gpu::halfToFloat(half[e])));
      continue;
    }
    ASSERT_EQ(summa::gpu::floatToHalf(v), half[e])
        << std::hexfloat << v << " bits " << std::hex
        << summa::gpu::floatBits(v);
    ASSERT_EQ(summa::gpu::floatToBFloat16(v), bf16[e])
        << std::hexfloat << v << " bits " << std::hex
        << summa::gpu::floatBits(v);
  }
}
