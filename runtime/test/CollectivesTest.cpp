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

struct KindCase {
  int32_t kind;
  const char *name;
};
const KindCase kKinds[] = {{SUMMA_RED_SUM, "sum"},
                           {SUMMA_RED_MAX, "max"},
                           {SUMMA_RED_MIN, "min"},
                           {SUMMA_RED_PROD, "prod"}};

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

/// Runs `check(mask, group, kind)` for every mask and reduction kind, under
/// traces naming them.
template <typename Check>
void forEachMaskAndKind(Check check) {
  forEachMask([&](int32_t mask, const GroupView &group) {
    for (const KindCase &kind : kKinds) {
      SCOPED_TRACE(kind.name);
      check(mask, group, kind.kind);
    }
  });
}

template <typename T>
class CollectivesTest : public ::testing::Test {};
using ElementTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(CollectivesTest, ElementTypes);

/// Runs `call` on the address of a guarded buffer of `count` elements
/// `mine(e)`; afterwards the payload must be `want(e)` and the sentinels
/// around it unchanged.
template <typename T, typename Mine, typename Want, typename Call>
void checkInPlace(int64_t count, Mine mine, Want want, Call call) {
  std::vector<T> buffer = guardedBuffer<T>(count, mine);
  call(address(buffer.data()));
  EXPECT_TRUE(sameElements(buffer, guardedBuffer<T>(count, want)));
}

/// Runs `call` on the addresses of a source of `srcCount` elements (this
/// rank's values after kOffset sentinels) and of a guarded destination of
/// `dstCount` elements; afterwards the destination's payload must be
/// `want(e)`, its sentinels and the whole source unchanged.
template <typename T, typename Want, typename Call>
void checkSourceToDestination(int64_t srcCount, int64_t dstCount, Want want,
                              Call call) {
  std::vector<T> src =
      guardedBuffer<T>(srcCount, valuesOf(summaRtWorldRank()), 0);
  std::vector<T> dst(kOffset + dstCount + kGuard, T(kSentinel));
  std::vector<T> srcCopy = src;
  call(address(src.data()), address(dst.data()));
  EXPECT_TRUE(sameElements(dst, guardedBuffer<T>(dstCount, want)));
  EXPECT_TRUE(sameElements(src, srcCopy)) << "the source was modified";
}

} // namespace

TYPED_TEST(CollectivesTest, Broadcast) {
  using T = TypeParam;
  const int64_t count = 37;
  int64_t me = summaRtWorldRank();
  forEachMask([&](int32_t mask, const GroupView &group) {
    forEachRoot(group, [&](int64_t root) {
      checkInPlace<T>(count, valuesOf(me), valuesOf(group.members[root]),
                      [&](intptr_t buffer) {
                        summaRtBroadcast(buffer, kOffset, count, dtypeOf<T>(),
                                         mask, root);
                      });
    });
  });
}

TYPED_TEST(CollectivesTest, Reduce) {
  using T = TypeParam;
  const int64_t count = 29;
  int64_t me = summaRtWorldRank();
  forEachMaskAndKind([&](int32_t mask, const GroupView &group, int32_t kind) {
    auto mine = [&](int64_t e) { return contribution(kind, me, e); };
    forEachRoot(group, [&](int64_t root) {
      // Non-roots keep their contribution.
      auto want = [&](int64_t e) {
        return group.index == root ? reduced(kind, group, e) : mine(e);
      };
      checkInPlace<T>(count, mine, want, [&](intptr_t buffer) {
        summaRtReduce(buffer, kOffset, count, dtypeOf<T>(), mask, root, kind);
      });
    });
  });
}

TYPED_TEST(CollectivesTest, AllReduce) {
  using T = TypeParam;
  const int64_t count = 41;
  int64_t me = summaRtWorldRank();
  forEachMaskAndKind([&](int32_t mask, const GroupView &group, int32_t kind) {
    checkInPlace<T>(
        count, [&](int64_t e) { return contribution(kind, me, e); },
        [&](int64_t e) { return reduced(kind, group, e); },
        [&](intptr_t buffer) {
          summaRtAllReduce(buffer, kOffset, count, dtypeOf<T>(), mask, kind);
        });
  });
}

TYPED_TEST(CollectivesTest, AllGather) {
  using T = TypeParam;
  const int64_t inner = 5;
  forEachMask([&](int32_t mask, const GroupView &group) {
    int64_t n = group.size();
    for (int64_t outer : {int64_t(1), int64_t(3)}) {
      SCOPED_TRACE("outer " + std::to_string(outer));
      // Element (o, r, c) of the destination is element (o, c) of member r.
      auto gathered = [&](int64_t e) {
        int64_t o = e / (n * inner), r = e / inner % n, c = e % inner;
        return valueOf(group.members[r], o * inner + c);
      };
      checkSourceToDestination<T>(outer * inner, outer * n * inner, gathered,
                                  [&](intptr_t src, intptr_t dst) {
                                    summaRtAllGather(src, kOffset, dst, kOffset,
                                                     outer, inner, dtypeOf<T>(),
                                                     mask);
                                  });
    }
  });
}

TYPED_TEST(CollectivesTest, AllGatherFromOwnSlotOfDestination) {
  // The source may alias this rank's block of the destination (the
  // MPI_IN_PLACE pattern); the runtime copies it before gathering.
  using T = TypeParam;
  const int64_t inner = 4;
  int64_t me = summaRtWorldRank();
  forEachMask([&](int32_t mask, const GroupView &group) {
    int64_t n = group.size();
    std::vector<T> dst(n * inner, T(kSentinel));
    std::vector<T> expected(n * inner);
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < inner; ++c)
        expected[r * inner + c] = T(valueOf(group.members[r], c));
    for (int64_t c = 0; c < inner; ++c)
      dst[group.index * inner + c] = T(valueOf(me, c));
    summaRtAllGather(address(dst.data()), group.index * inner,
                     address(dst.data()), 0, 1, inner, dtypeOf<T>(), mask);
    EXPECT_TRUE(sameElements(dst, expected));
  });
}

TYPED_TEST(CollectivesTest, ReduceScatter) {
  using T = TypeParam;
  const int64_t inner = 4;
  forEachMask([&](int32_t mask, const GroupView &group) {
    int64_t n = group.size();
    for (int32_t kind : {int32_t(SUMMA_RED_SUM), int32_t(SUMMA_RED_MAX)}) {
      for (int64_t outer : {int64_t(1), int64_t(3)}) {
        SCOPED_TRACE("kind " + std::to_string(kind) + ", outer " +
                     std::to_string(outer));
        // Element (o, c) of the destination reduces element (o, index, c) of
        // every member's source.
        auto scattered = [&](int64_t e) {
          int64_t o = e / inner, c = e % inner;
          return reduced(kind, group, o * n * inner + group.index * inner + c);
        };
        checkSourceToDestination<T>(outer * n * inner, outer * inner, scattered,
                                    [&](intptr_t src, intptr_t dst) {
                                      summaRtReduceScatter(
                                          src, kOffset, dst, kOffset, outer,
                                          inner, dtypeOf<T>(), mask, kind);
                                    });
      }
    }
  });
}

TYPED_TEST(CollectivesTest, ZeroElements) {
  using T = TypeParam;
  forEachMask([&](int32_t mask, const GroupView &) {
    T dummy = T(kSentinel);
    summaRtBroadcast(0, 0, 0, dtypeOf<T>(), mask, 0);
    summaRtAllReduce(0, 0, 0, dtypeOf<T>(), mask, SUMMA_RED_SUM);
    summaRtReduce(0, 0, 0, dtypeOf<T>(), mask, 0, SUMMA_RED_MAX);
    summaRtAllGather(0, 0, 0, 0, 0, 7, dtypeOf<T>(), mask);
    summaRtReduceScatter(0, 0, 0, 0, 3, 0, dtypeOf<T>(), mask, SUMMA_RED_SUM);
    summaRtAllGather(address(&dummy), 0, address(&dummy), 0, 1, 0, dtypeOf<T>(),
                     mask);
    EXPECT_EQ(dummy, T(kSentinel));
  });
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
  forEachMask([&](int32_t mask, const GroupView &group) {
    double me = static_cast<double>(summaRtWorldRank());
    double sums[3] = {1, me, me * me};
    summaRtAllReduce(address(sums), 0, 3, SUMMA_DT_F64, mask, SUMMA_RED_SUM);
    double expected[3] = {0, 0, 0};
    for (int64_t member : group.members) {
      expected[0] += 1;
      expected[1] += member;
      expected[2] += double(member) * member;
    }
    EXPECT_EQ(sums[0], expected[0]);
    EXPECT_EQ(sums[1], expected[1]);
    EXPECT_EQ(sums[2], expected[2]);
  });
}
