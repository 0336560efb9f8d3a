//===- HostCollectivesTest.cpp - MPI test mode collectives ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The collectives that SUMMA_GPU_COLLECTIVES=mpi runs on host staging
// buffers, checked on this run's grid for every axes mask and element type
// (f16 and bf16 through user-defined MPI operations). Values are small
// integers, exact in every type, and the expectations come from the grid
// coordinates alone (groupMembers), not from the communicators.
//
//===----------------------------------------------------------------------===//

#include "HostCollectives.h"
#include "GroupLayout.h"
#include "HalfFloat.h"
#include "HostTestUtil.h"

#include <mpi.h>

#include <algorithm>
#include <functional>

using namespace summa::gpu;
using namespace summa::gputest;

namespace {
struct GroupFixture {
  int worldRank = 0;
  int32_t mask = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  int index = 0;
  std::vector<int64_t> members;

  explicit GroupFixture(int32_t mask) : mask(mask) {
    MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
    int64_t coords[3];
    coordsOfWorldRank(gridQ, worldRank, coords);
    MPI_Comm_split(MPI_COMM_WORLD,
                   static_cast<int>(groupColour(gridQ, coords, mask)),
                   worldRank, &comm);
    MPI_Comm_rank(comm, &index);
    members = groupMembers(gridQ, gridD, worldRank, mask);
  }
  ~GroupFixture() { MPI_Comm_free(&comm); }
  int size() const { return static_cast<int>(members.size()); }
};

} // namespace

TEST(HostCollectivesTest, Broadcast) {
  forEachMaskAndType([](int32_t mask, int32_t dtype) {
    GroupFixture group(mask);
    for (int root = 0; root < group.size(); ++root) {
      std::vector<char> data = encode(valuesOf(group.worldRank, 7), dtype);
      host::broadcast(data.data(), 7, dtype, root, group.comm);
      EXPECT_TRUE(
          sameValues(decode(data, dtype), valuesOf(group.members[root], 7)));
    }
  });
}

TEST(HostCollectivesTest, ReduceLeavesOthersUnchanged) {
  forEachMaskAndType([](int32_t mask, int32_t dtype) {
    GroupFixture group(mask);
    int root = group.size() - 1;
    std::vector<double> mine = valuesOf(group.worldRank, 5);
    std::vector<char> data = encode(mine, dtype);
    host::reduce(data.data(), 5, dtype, SUMMA_RED_SUM, root, group.index,
                 group.comm);
    EXPECT_TRUE(sameValues(decode(data, dtype),
                           group.index == root ? summedValues(group.members, 5)
                                               : mine));
  });
}

TEST(HostCollectivesTest, AllReduceKinds) {
  auto small = [](int64_t rank, int64_t e) {
    return double(1 + (rank + e) % 2);
  };
  forEachMaskAndType([&](int32_t mask, int32_t dtype) {
    for (int32_t kind = SUMMA_RED_SUM; kind <= SUMMA_RED_PROD; ++kind) {
      SCOPED_TRACE("kind " + std::to_string(kind));
      GroupFixture group(mask);
      auto f = kind == SUMMA_RED_PROD
                   ? std::function<double(int64_t, int64_t)>(small)
                   : std::function<double(int64_t, int64_t)>(collectiveValue);
      std::vector<char> data = encode(valuesOf(group.worldRank, 9, f), dtype);
      host::allReduce(data.data(), 9, dtype, kind, group.comm);
      std::vector<double> expected = valuesOf(group.members[0], 9, f);
      for (size_t m = 1; m < group.members.size(); ++m)
        for (int64_t e = 0; e < 9; ++e) {
          double v = f(group.members[m], e);
          double &x = expected[e];
          x = kind == SUMMA_RED_SUM   ? x + v
              : kind == SUMMA_RED_MAX ? std::max(x, v)
              : kind == SUMMA_RED_MIN ? std::min(x, v)
                                      : x * v;
        }
      EXPECT_TRUE(sameValues(decode(data, dtype), expected));
    }
  });
}

TEST(HostCollectivesTest, AllGatherAndReduceScatter) {
  forEachMaskTypeAndOuter({1, 3}, [](int32_t mask, int32_t dtype,
                                     int64_t outer) {
    GroupFixture group(mask);
    int64_t inner = 2, n = group.size(), block = outer * inner;
    std::vector<char> src = encode(valuesOf(group.worldRank, block), dtype);
    std::vector<char> dst(n * block * dtypeSize(dtype));
    host::allGather(src.data(), dst.data(), outer, inner, dtype,
                    static_cast<int>(n), group.comm);
    std::vector<double> gathered = gatheredValues(group.members, outer, inner);
    EXPECT_TRUE(sameValues(decode(dst, dtype), gathered));
    if (outer == 1) {
      // In place: the source is this rank's block of the destination.
      std::vector<char> both(n * block * dtypeSize(dtype));
      std::copy(src.begin(), src.end(),
                both.begin() + group.index * src.size());
      host::allGather(both.data() + group.index * src.size(), both.data(),
                      outer, inner, dtype, static_cast<int>(n), group.comm);
      EXPECT_TRUE(sameValues(decode(both, dtype), gathered));
    }

    std::vector<char> big = encode(valuesOf(group.worldRank, n * block), dtype);
    std::vector<char> part(block * dtypeSize(dtype));
    host::reduceScatter(big.data(), part.data(), outer, inner, dtype,
                        SUMMA_RED_SUM, static_cast<int>(n), group.comm);
    std::vector<double> expected =
        scatteredSums(group.members, group.index, outer, inner);
    EXPECT_TRUE(sameValues(decode(part, dtype), expected));
    // The destination inside the source (overlap): same result.
    host::reduceScatter(big.data(), big.data(), outer, inner, dtype,
                        SUMMA_RED_SUM, static_cast<int>(n), group.comm);
    big.resize(part.size());
    EXPECT_TRUE(sameValues(decode(big, dtype), expected));
  });
}

TEST(HostCollectivesTest, SixteenBitReductionsRoundOnce) {
  // 1 + 2^-10 is a half; the sum 2 + 2^-9 is one too (exact), while in
  // bf16 1 + 2^-10 is not representable (rounds to 1 on encode).
  std::vector<uint16_t> in = {floatToHalf(1.0f + 0x1p-10f), floatToHalf(3.0f),
                              floatToHalf(-1.0f)};
  std::vector<uint16_t> inout = {floatToHalf(1.0f + 0x1p-10f),
                                 floatToHalf(-5.0f), floatToHalf(65504.0f)};
  std::vector<uint16_t> sum = inout;
  host::reduce16(SUMMA_DT_F16, SUMMA_RED_SUM, in.data(), sum.data(), 3);
  EXPECT_EQ(halfToFloat(sum[0]), 2.0f + 0x1p-9f);
  EXPECT_EQ(halfToFloat(sum[1]), -2.0f);
  EXPECT_EQ(halfToFloat(sum[2]), 65504.0f); // 65503 rounds to 65504
  std::vector<uint16_t> maxima = inout;
  host::reduce16(SUMMA_DT_F16, SUMMA_RED_MAX, in.data(), maxima.data(), 3);
  EXPECT_EQ(halfToFloat(maxima[1]), 3.0f);
  std::vector<uint16_t> b = {floatToBFloat16(256.0f)};
  std::vector<uint16_t> one = {floatToBFloat16(1.0f)};
  host::reduce16(SUMMA_DT_BF16, SUMMA_RED_SUM, one.data(), b.data(), 1);
  EXPECT_EQ(bfloat16ToFloat(b[0]), 256.0f); // 257 is not a bf16: ties to even
  EXPECT_EQ(host::mpiType(SUMMA_DT_BF16), MPI_UINT16_T);
  EXPECT_EQ(host::mpiOp(SUMMA_DT_F32, SUMMA_RED_MAX), MPI_MAX);
  EXPECT_NE(host::mpiOp(SUMMA_DT_F16, SUMMA_RED_SUM), MPI_SUM);
}
