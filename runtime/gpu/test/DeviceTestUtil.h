//===- DeviceTestUtil.h - helpers of the GPU device tests -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The device tests skip, visibly, on a machine without a CUDA device: the
// main sets haveDevice, and every test starts with SUMMA_REQUIRE_DEVICE().
// DeviceArray moves typed data between the host (as doubles) and device
// memory from the runtime's pool, in order with the compute stream.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_TEST_DEVICETESTUTIL_H
#define SUMMA_RUNTIME_GPU_TEST_DEVICETESTUTIL_H

#include "HostTestUtil.h"

#include "summa/Runtime/SummaRuntimeKernels.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <random>

namespace summa::gputest {

extern bool haveDevice;

#define SUMMA_REQUIRE_DEVICE()                                                 \
  do {                                                                         \
    if (!::summa::gputest::haveDevice)                                         \
      GTEST_SKIP() << "no CUDA device";                                        \
  } while (false)

#define SUMMA_TEST_CUDA(expr) ASSERT_EQ((expr), cudaSuccess) << #expr

inline cudaStream_t testStream() {
  return static_cast<cudaStream_t>(summaRtComputeStream());
}

/// `count` elements of `dtype` (plus `slack` more, for offsets and padding)
/// in device memory from summaRtAlloc.
class DeviceArray {
public:
  DeviceArray(int64_t count, int32_t dtype, int64_t slack = 0)
      : count(count + slack), dtype(dtype) {
    base = summaRtAlloc(this->count * static_cast<int64_t>(dtypeSize(dtype)));
    cudaMemsetAsync(reinterpret_cast<void *>(base), 0, bytes(), testStream());
  }
  /// `values` after `offset` zeros.
  DeviceArray(const std::vector<double> &values, int32_t dtype,
              int64_t offset = 0)
      : DeviceArray(static_cast<int64_t>(values.size()), dtype, offset) {
    upload(values, offset);
  }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  ~DeviceArray() { summaRtFree(base); }

  /// The device address of element `offset`.
  intptr_t at(int64_t offset = 0) const {
    return base + offset * static_cast<int64_t>(dtypeSize(dtype));
  }

  void upload(const std::vector<double> &values, int64_t offset = 0) {
    std::vector<char> host = encode(values, dtype);
    cudaMemcpyAsync(reinterpret_cast<void *>(at(offset)), host.data(),
                    host.size(), cudaMemcpyHostToDevice, testStream());
    cudaStreamSynchronize(testStream());
  }

  /// All elements, after the work queued on the runtime's streams.
  std::vector<double> download() const {
    summaRtSynchronize();
    std::vector<char> host(bytes());
    cudaMemcpyAsync(host.data(), reinterpret_cast<void *>(base), host.size(),
                    cudaMemcpyDeviceToHost, testStream());
    cudaStreamSynchronize(testStream());
    return decode(host, dtype);
  }

  std::vector<double> download(int64_t offset, int64_t length) const {
    std::vector<double> all = download();
    return std::vector<double>(all.begin() + offset,
                               all.begin() + offset + length);
  }

  size_t bytes() const { return count * dtypeSize(dtype); }

private:
  intptr_t base = 0;
  int64_t count;
  int32_t dtype;
};

/// Uniform values in [low, high), rounded to `dtype`.
inline std::vector<double> randomValues(int64_t count, int32_t dtype,
                                        unsigned seed, double low = -1,
                                        double high = 1) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(low, high);
  std::vector<double> values(count);
  for (double &v : values)
    v = roundTo(uniform(random), dtype);
  return values;
}

} // namespace summa::gputest

#endif // SUMMA_RUNTIME_GPU_TEST_DEVICETESTUTIL_H
