//===- PoolDeviceTest.cpp - summaRtAlloc / summaRtFree ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "DeviceTestUtil.h"
#include "GpuRuntime.h"

using namespace summa::gputest;

TEST(PoolDeviceTest, AllocateReuseAndStats) {
  SUMMA_REQUIRE_DEVICE();
  summa::gpu::PoolStats start = summa::gpu::poolStats();
  intptr_t zero = summaRtAlloc(0);
  EXPECT_NE(zero, 0);
  EXPECT_EQ(zero % 256, 0);
  intptr_t a = summaRtAlloc(1000);
  EXPECT_EQ(a % 256, 0);
  EXPECT_EQ(summa::gpu::poolStats().bytesInUse, start.bytesInUse + 512 + 1024);
  // The memory is usable.
  SUMMA_TEST_CUDA(
      cudaMemsetAsync(reinterpret_cast<void *>(a), 1, 1000, testStream()));
  summaRtFree(a);
  // Freed on the compute stream and asked for on it: the same block, at
  // once, without a new cudaMalloc.
  int64_t allocations = summa::gpu::poolStats().backendAllocations;
  intptr_t b = summaRtAlloc(900);
  EXPECT_EQ(b, a);
  EXPECT_EQ(summa::gpu::poolStats().backendAllocations, allocations);
  summaRtFree(b);
  summaRtFree(zero);
  summaRtFree(0);
  EXPECT_EQ(summa::gpu::poolStats().bytesInUse, start.bytesInUse);
  summa::gpu::trimPool();
  EXPECT_LE(summa::gpu::poolStats().bytesReserved, start.bytesReserved + 0);
}

TEST(PoolDeviceTest, OtherStreamWaits) {
  SUMMA_REQUIRE_DEVICE();
  cudaStream_t comm = summa::gpu::commStream();
  // An unusual size class, so that no block of an earlier test competes.
  const size_t bytes = (size_t(5) << 20) + 777;
  void *a = summa::gpu::allocate(bytes, comm);
  summa::gpu::release(a, comm);
  summaRtSynchronize();
  // The fence has passed: the compute stream may take the block.
  void *b = summa::gpu::allocate(bytes, testStream());
  EXPECT_EQ(a, b);
  summa::gpu::release(b, testStream());
}

TEST(PoolDeviceTest, LargeAllocation) {
  SUMMA_REQUIRE_DEVICE();
  // 1 GiB + 1: a 2 MiB-granular large class.
  int64_t bytes = (int64_t(1) << 30) + 1;
  intptr_t p = summaRtAlloc(bytes);
  EXPECT_NE(p, 0);
  SUMMA_TEST_CUDA(
      cudaMemsetAsync(reinterpret_cast<void *>(p), 0, bytes, testStream()));
  summaRtFree(p);
  summa::gpu::trimPool();
}
