//===- CollectivesDeviceTest.cpp - collectives on device memory -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The C ABI's collectives on device buffers, for every axes mask and element
// type, on this run's grid: NCCL on [1,1,1] (one GPU: groups of one rank,
// plus one NCCL all-reduce on the world communicator), the MPI test mode on
// [2,2,1] and [1,1,2] (ranks sharing the GPU). Values are small integers,
// exact in every type; expectations come from the grid coordinates. Also the
// asynchronous API (a double-buffered SUMMA loop), the C ABI's
// summaRt*Start / summaRtWait, and the profile counters.
//
//===----------------------------------------------------------------------===//

#include "DeviceTestUtil.h"
#include "GpuContext.h"
#include "GpuRuntime.h"
#include "GroupLayout.h"
#include "Profile.h"

#include <nccl.h>

#include <memory>

using namespace summa::gputest;
using summa::gpu::groupMembers;
using summa::gpu::kNumMasks;

namespace {

/// Copies `count` elements of `dtype` between device addresses, in order
/// with the runtime's work on the compute stream.
void copyOnStream(intptr_t from, intptr_t to, int64_t count, int32_t dtype) {
  SUMMA_TEST_CUDA(cudaMemcpyAsync(
      reinterpret_cast<void *>(to), reinterpret_cast<const void *>(from),
      count * dtypeSize(dtype), cudaMemcpyDeviceToDevice, testStream()));
}

struct GroupView {
  int64_t rank, index;
  std::vector<int64_t> members;
  explicit GroupView(int32_t mask) {
    rank = summaRtWorldRank();
    members = groupMembers(summaRtGridSize(SUMMA_AXIS_ROW),
                           summaRtGridSize(SUMMA_AXIS_DEPTH), rank, mask);
    index = std::find(members.begin(), members.end(), rank) - members.begin();
  }
  int64_t size() const { return static_cast<int64_t>(members.size()); }
};

/// The profile once the work queued so far has run and been counted.
summa::rt::ProfileSnapshot settledProfile() {
  summaRtSynchronize();
  summa::gpu::flushProfile();
  return summa::rt::profileSnapshot();
}

} // namespace

TEST(CollectivesDeviceTest, BroadcastReduceAllReduce) {
  SUMMA_REQUIRE_DEVICE();
  forEachMaskAndType([](int32_t mask, int32_t dtype) {
    GroupView group(mask);
    const int64_t count = 1000, offset = 3;
    for (int64_t root = 0; root < group.size(); ++root) {
      DeviceArray data(valuesOf(group.rank, count), dtype, offset);
      summaRtBroadcast(data.at(), offset, count, dtype, mask, root);
      EXPECT_TRUE(sameValues(data.download(offset, count),
                             valuesOf(group.members[root], count)));
    }
    std::vector<double> sum = summedValues(group.members, count);
    int64_t root = group.size() - 1;
    DeviceArray reduced(valuesOf(group.rank, count), dtype);
    summaRtReduce(reduced.at(), 0, count, dtype, mask, root, SUMMA_RED_SUM);
    EXPECT_TRUE(
        sameValues(reduced.download(),
                   group.index == root ? sum : valuesOf(group.rank, count)));
    DeviceArray all(valuesOf(group.rank, count), dtype);
    summaRtAllReduce(all.at(), 0, count, dtype, mask, SUMMA_RED_SUM);
    EXPECT_TRUE(sameValues(all.download(), sum));
    DeviceArray top(valuesOf(group.rank, count), dtype);
    summaRtAllReduce(top.at(), 0, count, dtype, mask, SUMMA_RED_MAX);
    EXPECT_TRUE(
        sameValues(top.download(), valuesOf(group.members.back(), count)));
  });
}

TEST(CollectivesDeviceTest, AllGatherAndReduceScatter) {
  SUMMA_REQUIRE_DEVICE();
  forEachMaskTypeAndOuter({1, 5}, [](int32_t mask, int32_t dtype,
                                     int64_t outer) {
    GroupView group(mask);
    int64_t inner = 6, n = group.size(), block = outer * inner;
    DeviceArray src(valuesOf(group.rank, block), dtype), dst(n * block, dtype);
    summaRtAllGather(src.at(), 0, dst.at(), 0, outer, inner, dtype, mask);
    std::vector<double> gathered = gatheredValues(group.members, outer, inner);
    EXPECT_TRUE(sameValues(dst.download(), gathered));
    if (outer == 1) {
      // NCCL's in-place form: the source is this rank's block of dst.
      DeviceArray both(n * block, dtype);
      both.upload(valuesOf(group.rank, block), group.index * block);
      summaRtAllGather(both.at(), group.index * block, both.at(), 0, outer,
                       inner, dtype, mask);
      EXPECT_TRUE(sameValues(both.download(), gathered));
    }

    DeviceArray big(valuesOf(group.rank, n * block), dtype), part(block, dtype);
    summaRtReduceScatter(big.at(), 0, part.at(), 0, outer, inner, dtype, mask,
                         SUMMA_RED_SUM);
    std::vector<double> expected =
        scatteredSums(group.members, group.index, outer, inner);
    EXPECT_TRUE(sameValues(part.download(), expected));
    // The destination overlapping the start of the source.
    summaRtReduceScatter(big.at(), 0, big.at(), 0, outer, inner, dtype, mask,
                         SUMMA_RED_SUM);
    EXPECT_TRUE(sameValues(big.download(0, block), expected));
  });
}

TEST(CollectivesDeviceTest, AsyncDoubleBufferedSumma) {
  SUMMA_REQUIRE_DEVICE();
  // Y[i, j] = sum_t X[i, t] W[t, j] on the [q, q] face, computed with the
  // asynchronous broadcasts of step t+1 in flight during GEMM t, and with
  // the synchronous C ABI: the results agree bit for bit.
  int64_t q = summaRtGridSize(SUMMA_AXIS_ROW);
  int64_t i = summaRtGridCoord(SUMMA_AXIS_ROW);
  int64_t j = summaRtGridCoord(SUMMA_AXIS_COL);
  int64_t rank = summaRtWorldRank();
  const int64_t m = 96, k = 64, n = 80;
  const int32_t dtype = SUMMA_DT_BF16;
  const int32_t rowMask = 1 << SUMMA_AXIS_COL, colMask = 1 << SUMMA_AXIS_ROW;
  DeviceArray x(randomValues(m * k, dtype, 100 + rank), dtype);
  DeviceArray w(randomValues(k * n, dtype, 200 + rank), dtype);
  DeviceArray ySync(m * n, dtype), yAsync(m * n, dtype);

  // Synchronous.
  DeviceArray xPanel(m * k, dtype), wPanel(k * n, dtype);
  for (int64_t t = 0; t < q; ++t) {
    if (j == t)
      copyOnStream(x.at(), xPanel.at(), m * k, dtype);
    if (i == t)
      copyOnStream(w.at(), wPanel.at(), k * n, dtype);
    summaRtBroadcast(xPanel.at(), 0, m * k, dtype, rowMask, t);
    summaRtBroadcast(wPanel.at(), 0, k * n, dtype, colMask, t);
    summaRtMatmul(dtype, xPanel.at(), 0, k, wPanel.at(), 0, n, ySync.at(), 0, n,
                  m, n, k, 0, 0, t > 0);
  }

  // Double-buffered.
  DeviceArray xPanels(2 * m * k, dtype), wPanels(2 * k * n, dtype);
  auto xp = [&](int64_t t) { return xPanels.at((t % 2) * m * k); };
  auto wp = [&](int64_t t) { return wPanels.at((t % 2) * k * n); };
  auto start = [&](int64_t t, summa::gpu::CollectiveHandle &a,
                   summa::gpu::CollectiveHandle &b) {
    if (j == t)
      copyOnStream(x.at(), xp(t), m * k, dtype);
    if (i == t)
      copyOnStream(w.at(), wp(t), k * n, dtype);
    a = summa::gpu::startBroadcast(reinterpret_cast<void *>(xp(t)), m * k,
                                   dtype, rowMask, t);
    b = summa::gpu::startBroadcast(reinterpret_cast<void *>(wp(t)), k * n,
                                   dtype, colMask, t);
  };
  summa::gpu::CollectiveHandle a, b;
  start(0, a, b);
  for (int64_t t = 0; t < q; ++t) {
    summa::gpu::wait(a);
    summa::gpu::wait(b);
    EXPECT_FALSE(a.pending());
    if (t + 1 < q)
      start(t + 1, a, b);
    summaRtMatmul(dtype, xp(t), 0, k, wp(t), 0, n, yAsync.at(), 0, n, m, n, k,
                  0, 0, t > 0);
  }
  summa::gpu::wait(a);
  summa::gpu::wait(b);
  EXPECT_TRUE(sameValues(yAsync.download(), ySync.download()));

  // waitHost: the host sees the result.
  DeviceArray ones(std::vector<double>(64, 1.0), dtype);
  summa::gpu::CollectiveHandle h = summa::gpu::startAllReduce(
      reinterpret_cast<void *>(ones.at()), 64, dtype, 7, SUMMA_RED_SUM);
  summa::gpu::waitHost(h);
  EXPECT_FALSE(h.pending());
  EXPECT_TRUE(sameValues(ones.download(),
                         std::vector<double>(64, double(summaRtWorldSize()))));
}

TEST(CollectivesDeviceTest, StartAndWaitMatchBlocking) {
  SUMMA_REQUIRE_DEVICE();
  // summaRtBroadcastStart / summaRtReduceStart + summaRtWait, every mask and
  // element type: the results of the blocking calls; a group of one rank
  // returns 0.
  forEachMaskAndType([](int32_t mask, int32_t dtype) {
    GroupView group(mask);
    const int64_t count = 777, offset = 5;
    int64_t root = group.size() - 1;
    DeviceArray data(valuesOf(group.rank, count), dtype, offset);
    int64_t handle =
        summaRtBroadcastStart(data.at(), offset, count, dtype, mask, root);
    if (group.size() == 1)
      EXPECT_EQ(handle, 0);
    else
      EXPECT_GT(handle, 0);
    summaRtWait(handle);
    EXPECT_TRUE(sameValues(data.download(offset, count),
                           valuesOf(group.members[root], count)));

    DeviceArray blocking(valuesOf(group.rank, count), dtype);
    summaRtReduce(blocking.at(), 0, count, dtype, mask, 0, SUMMA_RED_SUM);
    DeviceArray async(valuesOf(group.rank, count), dtype);
    handle =
        summaRtReduceStart(async.at(), 0, count, dtype, mask, 0, SUMMA_RED_SUM);
    EXPECT_EQ(handle > 0, group.size() > 1);
    summaRtWait(handle);
    EXPECT_TRUE(sameValues(async.download(), blocking.download()));
  });
  summaRtWait(0);
}

TEST(CollectivesDeviceTest, StartsInFlightWaitedInReverse) {
  SUMMA_REQUIRE_DEVICE();
  // Broadcasts on every mask and a reduce on the world, all in flight, then
  // two broadcasts on the same group; waited for in reverse order.
  const int64_t count = 300;
  const int32_t dtype = SUMMA_DT_F16;
  std::vector<std::unique_ptr<DeviceArray>> arrays;
  std::vector<int64_t> handles;
  for (int32_t mask = 1; mask < kNumMasks; ++mask) {
    GroupView group(mask);
    arrays.push_back(
        std::make_unique<DeviceArray>(valuesOf(group.rank, count), dtype));
    handles.push_back(summaRtBroadcastStart(arrays.back()->at(), 0, count,
                                            dtype, mask, group.size() - 1));
  }
  DeviceArray reduced(valuesOf(summaRtWorldRank(), count), SUMMA_DT_F32);
  handles.push_back(summaRtReduceStart(reduced.at(), 0, count, SUMMA_DT_F32, 7,
                                       0, SUMMA_RED_MAX));
  const int32_t rowMask = 1 << SUMMA_AXIS_COL;
  GroupView row(rowMask);
  DeviceArray first(valuesOf(row.rank, count), SUMMA_DT_BF16);
  DeviceArray second(valuesOf(row.rank + 1, count), SUMMA_DT_BF16);
  handles.push_back(
      summaRtBroadcastStart(first.at(), 0, count, SUMMA_DT_BF16, rowMask, 0));
  handles.push_back(summaRtBroadcastStart(second.at(), 0, count, SUMMA_DT_BF16,
                                          rowMask, row.size() - 1));
  for (auto h = handles.rbegin(); h != handles.rend(); ++h)
    summaRtWait(*h);

  for (int32_t mask = 1; mask < kNumMasks; ++mask) {
    SCOPED_TRACE("mask " + std::to_string(mask));
    GroupView group(mask);
    EXPECT_TRUE(sameValues(arrays[mask - 1]->download(),
                           valuesOf(group.members.back(), count)));
  }
  GroupView world(7);
  if (world.index == 0) {
    EXPECT_TRUE(
        sameValues(reduced.download(), valuesOf(world.members.back(), count)));
  }
  EXPECT_TRUE(sameValues(first.download(), valuesOf(row.members[0], count)));
  EXPECT_TRUE(
      sameValues(second.download(), valuesOf(row.members.back() + 1, count)));
}

TEST(CollectivesDeviceTest, StartProfileCounts) {
  SUMMA_REQUIRE_DEVICE();
  summa::rt::ProfileSnapshot before = settledProfile();
  DeviceArray data(100, SUMMA_DT_F32);
  int64_t a = summaRtBroadcastStart(data.at(), 0, 100, SUMMA_DT_F32, 7, 0);
  int64_t b =
      summaRtReduceStart(data.at(), 0, 50, SUMMA_DT_F32, 7, 0, SUMMA_RED_SUM);
  summaRtWait(b);
  summaRtWait(a);
  summa::rt::ProfileSnapshot after = settledProfile();
  int64_t expected = summaRtWorldSize() > 1 ? 1 : 0;
  const auto &b0 = before.get(summa::rt::CollectiveKind::Broadcast, 7);
  const auto &b1 = after.get(summa::rt::CollectiveKind::Broadcast, 7);
  EXPECT_EQ(b1.count, b0.count + expected);
  EXPECT_EQ(b1.async, b0.async + expected);
  EXPECT_EQ(b1.bytes, b0.bytes + expected * 400);
  const auto &r0 = before.get(summa::rt::CollectiveKind::Reduce, 7);
  const auto &r1 = after.get(summa::rt::CollectiveKind::Reduce, 7);
  EXPECT_EQ(r1.count, r0.count + expected);
  EXPECT_EQ(r1.async, r0.async + expected);
  EXPECT_EQ(r1.bytes, r0.bytes + expected * 200);
  EXPECT_GE(r1.waitSeconds, r0.waitSeconds);
}

TEST(CollectivesDeviceTest, ProfileCounts) {
  SUMMA_REQUIRE_DEVICE();
  summa::rt::ProfileSnapshot before = settledProfile();
  DeviceArray data(100, SUMMA_DT_F32);
  summaRtAllReduce(data.at(), 0, 100, SUMMA_DT_F32, 7, SUMMA_RED_SUM);
  summa::rt::ProfileSnapshot after = settledProfile();
  const auto &b = before.get(summa::rt::CollectiveKind::AllReduce, 7);
  const auto &c = after.get(summa::rt::CollectiveKind::AllReduce, 7);
  // Groups of one rank are not counted (as in the CPU backend).
  int64_t expected = summaRtWorldSize() > 1 ? 1 : 0;
  EXPECT_EQ(c.count, b.count + expected);
  EXPECT_EQ(c.bytes, b.bytes + expected * 400);
}

TEST(CollectivesDeviceTest, NcclRunsOnThisGpu) {
  SUMMA_REQUIRE_DEVICE();
  summa::gpu::Context &ctx = summa::gpu::contextState();
  if (ctx.mode != summa::gpu::CollectiveMode::Nccl)
    GTEST_SKIP() << "collectives over MPI (SUMMA_GPU_COLLECTIVES=mpi)";
  ASSERT_NE(ctx.world, nullptr);
  // One NCCL all-reduce on the world communicator, whatever its size: on
  // one GPU the only NCCL kernel the runtime would otherwise never launch.
  DeviceArray data(std::vector<double>(256, 2.0), SUMMA_DT_F32);
  summaRtSynchronize();
  ASSERT_EQ(ncclAllReduce(reinterpret_cast<void *>(data.at()),
                          reinterpret_cast<void *>(data.at()), 256, ncclFloat32,
                          ncclSum, ctx.world, ctx.comm),
            ncclSuccess);
  summaRtSynchronize();
  EXPECT_TRUE(sameValues(data.download(),
                         std::vector<double>(256, 2.0 * summaRtWorldSize())));
}
