//===- FillDeviceTest.cpp - inputs filled on the device ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// fillInputOnDevice must produce, bit for bit, what fillInputOnHost (and so
// the CPU backend, see InputValueTest) computes.
//
//===----------------------------------------------------------------------===//

#include "DeviceFill.h"
#include "DeviceTestUtil.h"

using namespace summa::gputest;

TEST(FillDeviceTest, MatchesTheHostBitForBit) {
  SUMMA_REQUIRE_DEVICE();
  summa::gpu::TileMap map = tileMapOf({12, 40, 1000}, {3, 20, 250}, {2, 1, 3});
  for (int32_t dtype :
       {SUMMA_DT_F32, SUMMA_DT_F64, SUMMA_DT_F16, SUMMA_DT_BF16})
    for (bool nonnegative : {false, true})
      for (double scale : {1.0, 0.02, 70000.0}) {
        SCOPED_TRACE(std::string(dtypeName(dtype)) + " scale " +
                     std::to_string(scale) +
                     (nonnegative ? " non-negative" : ""));
        size_t bytes = map.count * dtypeSize(dtype);
        std::vector<char> expected(bytes), actual(bytes);
        summa::gpu::fillInputOnHost(expected.data(), dtype, map, 42, 3, scale,
                                    nonnegative);
        intptr_t device = summaRtAlloc(bytes);
        summa::gpu::fillInputOnDevice(reinterpret_cast<void *>(device), dtype,
                                      map, 42, 3, scale, nonnegative,
                                      testStream());
        SUMMA_TEST_CUDA(cudaMemcpyAsync(actual.data(),
                                        reinterpret_cast<void *>(device), bytes,
                                        cudaMemcpyDeviceToHost, testStream()));
        SUMMA_TEST_CUDA(cudaStreamSynchronize(testStream()));
        summaRtFree(device);
        EXPECT_TRUE(expected == actual) << "device fill differs from the host";
      }
}
