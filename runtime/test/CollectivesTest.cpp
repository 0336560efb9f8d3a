//===- CollectivesTest.cpp - collectives on every axes mask -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Every collective, on every axes mask, in f32 and f64, against values
// computed from the coordinates. All values are small integers, so every
// expected result is exact in both types.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <algorithm>

using namespace summa::test;

namespace {

/// The value that world rank `rank` contributes at element `e`.
double valueOf(int64_t rank, int64_t e) { return (rank + 1) * 100 + e % 97; }

/// Values in {1, 2}, so that products over 9 ranks stay exact.
double prodValueOf(int64_t rank, int64_t e) { return 1 + (rank + e) % 2; }

struct KindCase {
  int32_t kind;
  const char *name;
};
const KindCase kKinds[] = {{SUMMA_RED_SUM, "sum"},
                           {SUMMA_RED_MAX, "max"},
                           {SUMMA_RED_MIN, "min"},
                           {SUMMA_RED_PROD, "prod"}};

double contribution(int32_t kind, int64_t rank, int64_t e) {
  return kind == SUMMA_RED_PROD ? prodValueOf(rank, e) : valueOf(rank, e);
}

/// The reduction of every member's contribution at element `e`.
double reduced(int32_t kind, const GroupView &group, int64_t e) {
  double result = contribution(kind, group.members[0], e);
  for (int64_t r = 1; r < group.size(); ++r) {
    double value = contribution(kind, group.members[r], e);
    switch (kind) {
    case SUMMA_RED_SUM:
      result += value;
      break;
    case SUMMA_RED_MAX:
      result = std::max(result, value);
      break;
    case SUMMA_RED_MIN:
      result = std::min(result, value);
      break;
    default:
      result *= value;
    }
  }
  return result;
}

std::vector<int64_t> rootsOf(const GroupView &group) {
  if (group.size() == 1)
    return {0};
  return {0, group.size() - 1};
}

template <typename T>
class CollectivesTest : public ::testing::Test {};
using ElementTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(CollectivesTest, ElementTypes);

/// Elements before and after the payload must survive every call.
constexpr int64_t kOffset = 3;
constexpr int64_t kGuard = 2;
constexpr double kSentinel = -7;

} // namespace

TYPED_TEST(CollectivesTest, Broadcast) {
  using T = TypeParam;
  const int64_t count = 37;
  int64_t me = summaRtWorldRank();
  for (const MaskCase &mask : allMasks()) {
    GroupView group = groupOf(mask.mask);
    for (int64_t root : rootsOf(group)) {
      SCOPED_TRACE(std::string("mask ") + mask.name + ", root " +
                   std::to_string(root));
      std::vector<T> buffer(kOffset + count + kGuard, T(kSentinel));
      std::vector<T> expected = buffer;
      for (int64_t e = 0; e < count; ++e) {
        buffer[kOffset + e] = T(valueOf(me, e));
        expected[kOffset + e] = T(valueOf(group.members[root], e));
      }
      summaRtBroadcast(address(buffer.data()), kOffset, count, dtypeOf<T>(),
                       mask.mask, root);
      EXPECT_TRUE(sameElements(buffer, expected));
    }
  }
}

TYPED_TEST(CollectivesTest, Reduce) {
  using T = TypeParam;
  const int64_t count = 29;
  int64_t me = summaRtWorldRank();
  for (const MaskCase &mask : allMasks()) {
    GroupView group = groupOf(mask.mask);
    for (const KindCase &kind : kKinds) {
      for (int64_t root : rootsOf(group)) {
        SCOPED_TRACE(std::string("mask ") + mask.name + ", " + kind.name +
                     ", root " + std::to_string(root));
        std::vector<T> buffer(kOffset + count + kGuard, T(kSentinel));
        for (int64_t e = 0; e < count; ++e)
          buffer[kOffset + e] = T(contribution(kind.kind, me, e));
        // Non-roots keep their contribution.
        std::vector<T> expected = buffer;
        if (group.index == root)
          for (int64_t e = 0; e < count; ++e)
            expected[kOffset + e] = T(reduced(kind.kind, group, e));
        summaRtReduce(address(buffer.data()), kOffset, count, dtypeOf<T>(),
                      mask.mask, root, kind.kind);
        EXPECT_TRUE(sameElements(buffer, expected));
      }
    }
  }
}

TYPED_TEST(CollectivesTest, AllReduce) {
  using T = TypeParam;
  const int64_t count = 41;
  int64_t me = summaRtWorldRank();
  for (const MaskCase &mask : allMasks()) {
    GroupView group = groupOf(mask.mask);
    for (const KindCase &kind : kKinds) {
      SCOPED_TRACE(std::string("mask ") + mask.name + ", " + kind.name);
      std::vector<T> buffer(kOffset + count + kGuard, T(kSentinel));
      std::vector<T> expected = buffer;
      for (int64_t e = 0; e < count; ++e) {
        buffer[kOffset + e] = T(contribution(kind.kind, me, e));
        expected[kOffset + e] = T(reduced(kind.kind, group, e));
      }
      summaRtAllReduce(address(buffer.data()), kOffset, count, dtypeOf<T>(),
                       mask.mask, kind.kind);
      EXPECT_TRUE(sameElements(buffer, expected));
    }
  }
}

TYPED_TEST(CollectivesTest, AllGather) {
  using T = TypeParam;
  const int64_t inner = 5;
  int64_t me = summaRtWorldRank();
  for (const MaskCase &mask : allMasks()) {
    GroupView group = groupOf(mask.mask);
    int64_t n = group.size();
    for (int64_t outer : {int64_t(1), int64_t(3)}) {
      SCOPED_TRACE(std::string("mask ") + mask.name + ", outer " +
                   std::to_string(outer));
      std::vector<T> src(kOffset + outer * inner, T(kSentinel));
      for (int64_t e = 0; e < outer * inner; ++e)
        src[kOffset + e] = T(valueOf(me, e));
      std::vector<T> dst(kOffset + outer * n * inner + kGuard, T(kSentinel));
      std::vector<T> expected = dst;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t r = 0; r < n; ++r)
          for (int64_t c = 0; c < inner; ++c)
            expected[kOffset + o * n * inner + r * inner + c] =
                T(valueOf(group.members[r], o * inner + c));
      std::vector<T> srcCopy = src;
      summaRtAllGather(address(src.data()), kOffset, address(dst.data()),
                       kOffset, outer, inner, dtypeOf<T>(), mask.mask);
      EXPECT_TRUE(sameElements(dst, expected));
      EXPECT_TRUE(sameElements(src, srcCopy)) << "the source was modified";
    }
  }
}

TYPED_TEST(CollectivesTest, AllGatherFromOwnSlotOfDestination) {
  // The source may alias this rank's block of the destination (the
  // MPI_IN_PLACE pattern); the runtime copies it before gathering.
  using T = TypeParam;
  const int64_t inner = 4;
  int64_t me = summaRtWorldRank();
  for (const MaskCase &mask : allMasks()) {
    SCOPED_TRACE(std::string("mask ") + mask.name);
    GroupView group = groupOf(mask.mask);
    int64_t n = group.size();
    std::vector<T> dst(n * inner, T(kSentinel));
    std::vector<T> expected(n * inner);
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < inner; ++c)
        expected[r * inner + c] = T(valueOf(group.members[r], c));
    for (int64_t c = 0; c < inner; ++c)
      dst[group.index * inner + c] = T(valueOf(me, c));
    summaRtAllGather(address(dst.data()), group.index * inner,
                     address(dst.data()), 0, 1, inner, dtypeOf<T>(), mask.mask);
    EXPECT_TRUE(sameElements(dst, expected));
  }
}

TYPED_TEST(CollectivesTest, ReduceScatter) {
  using T = TypeParam;
  const int64_t inner = 4;
  int64_t me = summaRtWorldRank();
  for (const MaskCase &mask : allMasks()) {
    GroupView group = groupOf(mask.mask);
    int64_t n = group.size();
    for (int32_t kind : {int32_t(SUMMA_RED_SUM), int32_t(SUMMA_RED_MAX)}) {
      for (int64_t outer : {int64_t(1), int64_t(3)}) {
        SCOPED_TRACE(std::string("mask ") + mask.name + ", kind " +
                     std::to_string(kind) + ", outer " + std::to_string(outer));
        std::vector<T> src(kOffset + outer * n * inner, T(kSentinel));
        for (int64_t e = 0; e < outer * n * inner; ++e)
          src[kOffset + e] = T(valueOf(me, e));
        std::vector<T> dst(kOffset + outer * inner + kGuard, T(kSentinel));
        std::vector<T> expected = dst;
        for (int64_t o = 0; o < outer; ++o)
          for (int64_t c = 0; c < inner; ++c)
            expected[kOffset + o * inner + c] = T(
                reduced(kind, group, o * n * inner + group.index * inner + c));
        std::vector<T> srcCopy = src;
        summaRtReduceScatter(address(src.data()), kOffset, address(dst.data()),
                             kOffset, outer, inner, dtypeOf<T>(), mask.mask,
                             kind);
        EXPECT_TRUE(sameElements(dst, expected));
        EXPECT_TRUE(sameElements(src, srcCopy)) << "the source was modified";
      }
    }
  }
}

TYPED_TEST(CollectivesTest, ZeroElements) {
  using T = TypeParam;
  for (const MaskCase &mask : allMasks()) {
    SCOPED_TRACE(std::string("mask ") + mask.name);
    T dummy = T(kSentinel);
    summaRtBroadcast(0, 0, 0, dtypeOf<T>(), mask.mask, 0);
    summaRtAllReduce(0, 0, 0, dtypeOf<T>(), mask.mask, SUMMA_RED_SUM);
    summaRtReduce(0, 0, 0, dtypeOf<T>(), mask.mask, 0, SUMMA_RED_MAX);
    summaRtAllGather(0, 0, 0, 0, 0, 7, dtypeOf<T>(), mask.mask);
    summaRtReduceScatter(0, 0, 0, 0, 3, 0, dtypeOf<T>(), mask.mask,
                         SUMMA_RED_SUM);
    summaRtAllGather(address(&dummy), 0, address(&dummy), 0, 1, 0, dtypeOf<T>(),
                     mask.mask);
    EXPECT_EQ(dummy, T(kSentinel));
  }
}

TEST(GridTest, Queries) {
  EXPECT_EQ(summaRtGetAPIVersion(), SUMMA_RT_API_VERSION);
  int64_t q = summaRtGridSize(SUMMA_AXIS_ROW);
  int64_t d = summaRtGridSize(SUMMA_AXIS_DEPTH);
  EXPECT_EQ(summaRtGridSize(SUMMA_AXIS_COL), q);
  EXPECT_EQ(summaRtWorldSize(), q * q * d);
  int64_t rank = summaRtWorldRank();
  EXPECT_EQ(summaRtGridCoord(SUMMA_AXIS_COL), rank % q);
  EXPECT_EQ(summaRtGridCoord(SUMMA_AXIS_ROW), (rank / q) % q);
  EXPECT_EQ(summaRtGridCoord(SUMMA_AXIS_DEPTH), rank / (q * q));
}

TEST(GridTest, GroupsHaveTheExpectedMembers) {
  // Sum of the members' world ranks and of their squares over each group,
  // through the runtime, against the coordinates.
  for (const MaskCase &mask : allMasks()) {
    SCOPED_TRACE(std::string("mask ") + mask.name);
    GroupView group = groupOf(mask.mask);
    double me = static_cast<double>(summaRtWorldRank());
    double sums[3] = {1, me, me * me};
    summaRtAllReduce(address(sums), 0, 3, SUMMA_DT_F64, mask.mask,
                     SUMMA_RED_SUM);
    double expected[3] = {0, 0, 0};
    for (int64_t member : group.members) {
      expected[0] += 1;
      expected[1] += member;
      expected[2] += double(member) * member;
    }
    EXPECT_EQ(sums[0], expected[0]);
    EXPECT_EQ(sums[1], expected[1]);
    EXPECT_EQ(sums[2], expected[2]);
  }
}
