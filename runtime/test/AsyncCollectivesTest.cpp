//===- AsyncCollectivesTest.cpp - non-blocking collectives ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summaRtBroadcastStart / summaRtReduceStart / summaRtWait on every axes
// mask: the same results as the blocking calls, several requests in flight
// at once (on different groups and on the same group, waited for in reverse
// order), the chunked path, groups of one rank, and the profile counters.
// f16 / bf16 are refused by the CPU backend (FatalTest.cpp); the GPU
// backend's device tests cover them.
//
//===----------------------------------------------------------------------===//

#include "GridState.h"
#include "Profile.h"
#include "TestUtil.h"

#include <algorithm>

using namespace summa::test;
using summa::rt::CollectiveKind;

namespace {

const int32_t kKinds[] = {SUMMA_RED_SUM, SUMMA_RED_MAX, SUMMA_RED_MIN,
                          SUMMA_RED_PROD};

/// This rank's broadcast buffer: its own values, between sentinels.
template <typename T>
std::vector<T> broadcastInput(int64_t count, int64_t salt = 0) {
  int64_t me = summaRtWorldRank();
  return guardedBuffer<T>(count,
                          [&](int64_t e) { return valueOf(me, e + salt); });
}

template <typename T>
std::vector<T> reduceInput(int64_t count, int32_t kind) {
  int64_t me = summaRtWorldRank();
  return guardedBuffer<T>(count,
                          [&](int64_t e) { return contribution(kind, me, e); });
}

/// The expected broadcast result: the root's values.
template <typename T>
std::vector<T> broadcastExpected(const GroupView &group, int64_t root,
                                 int64_t count, int64_t salt = 0) {
  int64_t from = group.members[root];
  return guardedBuffer<T>(count,
                          [&](int64_t e) { return valueOf(from, e + salt); });
}

/// Starts a broadcast of the payload of `buffer` (`count` elements after
/// kOffset); returns its handle.
template <typename T>
int64_t startBroadcast(std::vector<T> &buffer, int64_t count, int32_t mask,
                       int64_t root) {
  return summaRtBroadcastStart(address(buffer.data()), kOffset, count,
                               dtypeOf<T>(), mask, root);
}

/// Starts a reduce of the payload of `buffer`; returns its handle.
template <typename T>
int64_t startReduce(std::vector<T> &buffer, int64_t count, int32_t mask,
                    int64_t root, int32_t kind) {
  return summaRtReduceStart(address(buffer.data()), kOffset, count,
                            dtypeOf<T>(), mask, root, kind);
}

/// This rank's reduceInput after the blocking reduce: what the non-blocking
/// one must leave.
template <typename T>
std::vector<T> blockingReduce(int64_t count, int32_t mask, int64_t root,
                              int32_t kind) {
  std::vector<T> buffer = reduceInput<T>(count, kind);
  summaRtReduce(address(buffer.data()), kOffset, count, dtypeOf<T>(), mask,
                root, kind);
  return buffer;
}

/// Whether a start over `mask` puts something in flight.
bool inFlight(int32_t mask) { return groupOf(mask).size() > 1; }

/// Checks the handle of a start over `mask`.
void expectHandle(int64_t handle, int32_t mask) {
  if (inFlight(mask))
    EXPECT_GT(handle, 0);
  else
    EXPECT_EQ(handle, 0);
}

template <typename T>
class AsyncCollectivesTest : public ::testing::Test {};
using ElementTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(AsyncCollectivesTest, ElementTypes);

/// Restores the chunk limit at the end of a test.
class ChunkLimit {
public:
  explicit ChunkLimit(int64_t elements)
      : previous(summa::rt::setMaxChunkForTesting(elements)) {}
  ~ChunkLimit() { summa::rt::setMaxChunkForTesting(previous); }

private:
  int64_t previous;
};

} // namespace

TYPED_TEST(AsyncCollectivesTest, BroadcastMatchesBlocking) {
  using T = TypeParam;
  const int64_t count = 37;
  forEachMask([&](int32_t mask, const GroupView &group) {
    forEachRoot(group, [&](int64_t root) {
      std::vector<T> blocking = broadcastInput<T>(count);
      summaRtBroadcast(address(blocking.data()), kOffset, count, dtypeOf<T>(),
                       mask, root);
      std::vector<T> async = broadcastInput<T>(count);
      int64_t handle = startBroadcast(async, count, mask, root);
      expectHandle(handle, mask);
      summaRtWait(handle);
      EXPECT_TRUE(sameElements(async, blocking));
      EXPECT_TRUE(
          sameElements(async, broadcastExpected<T>(group, root, count)));
    });
  });
}

TYPED_TEST(AsyncCollectivesTest, ReduceMatchesBlocking) {
  using T = TypeParam;
  const int64_t count = 29;
  forEachMask([&](int32_t mask, const GroupView &group) {
    for (int32_t kind : kKinds) {
      SCOPED_TRACE("kind " + std::to_string(kind));
      forEachRoot(group, [&](int64_t root) {
        std::vector<T> blocking = blockingReduce<T>(count, mask, root, kind);
        std::vector<T> async = reduceInput<T>(count, kind);
        int64_t handle = startReduce(async, count, mask, root, kind);
        expectHandle(handle, mask);
        summaRtWait(handle);
        EXPECT_TRUE(sameElements(async, blocking));
        // Non-roots keep their contribution.
        if (group.index != root) {
          EXPECT_TRUE(sameElements(async, reduceInput<T>(count, kind)));
        }
      });
    }
  });
}

TYPED_TEST(AsyncCollectivesTest, ChunkedMatchesBlocking) {
  // Several MPI requests under one handle: chunks of 7 elements (the last
  // one shorter), as counts over 2^30 elements are split.
  using T = TypeParam;
  ChunkLimit limit(7);
  const int64_t count = 52;
  forEachMask([&](int32_t mask, const GroupView &group) {
    int64_t root = group.size() - 1;
    std::vector<T> bcast = broadcastInput<T>(count);
    int64_t b = startBroadcast(bcast, count, mask, root);
    std::vector<T> red = reduceInput<T>(count, SUMMA_RED_SUM);
    int64_t r = startReduce(red, count, mask, root, SUMMA_RED_SUM);
    summaRtWait(r);
    summaRtWait(b);
    EXPECT_TRUE(sameElements(bcast, broadcastExpected<T>(group, root, count)));
    EXPECT_TRUE(
        sameElements(red, blockingReduce<T>(count, mask, root, SUMMA_RED_SUM)));
  });
}

TYPED_TEST(AsyncCollectivesTest, InFlightOnDifferentGroups) {
  // One broadcast per mask, all in flight at once, then one reduce per mask,
  // waited for in reverse order of their starts.
  using T = TypeParam;
  const int64_t count = 23;
  const std::vector<MaskCase> &masks = allMasks();
  std::vector<std::vector<T>> bcasts, reds;
  std::vector<int64_t> handles;
  for (size_t m = 0; m < masks.size(); ++m) {
    GroupView group = groupOf(masks[m].mask);
    bcasts.push_back(broadcastInput<T>(count, m));
    handles.push_back(
        startBroadcast(bcasts.back(), count, masks[m].mask, group.size() - 1));
  }
  for (size_t m = 0; m < masks.size(); ++m) {
    reds.push_back(reduceInput<T>(count, SUMMA_RED_MAX));
    handles.push_back(
        startReduce(reds.back(), count, masks[m].mask, 0, SUMMA_RED_MAX));
  }
  // Distinct, increasing handles for everything in flight.
  std::vector<int64_t> issued;
  for (int64_t h : handles)
    if (h != 0)
      issued.push_back(h);
  EXPECT_TRUE(std::is_sorted(issued.begin(), issued.end()));
  EXPECT_EQ(std::adjacent_find(issued.begin(), issued.end()), issued.end());
  for (auto h = handles.rbegin(); h != handles.rend(); ++h)
    summaRtWait(*h);

  for (size_t m = 0; m < masks.size(); ++m) {
    SCOPED_TRACE(std::string("mask ") + masks[m].name);
    GroupView group = groupOf(masks[m].mask);
    EXPECT_TRUE(sameElements(
        bcasts[m], broadcastExpected<T>(group, group.size() - 1, count, m)));
    EXPECT_TRUE(sameElements(
        reds[m], blockingReduce<T>(count, masks[m].mask, 0, SUMMA_RED_MAX)));
  }
}

TYPED_TEST(AsyncCollectivesTest, InFlightOnTheSameGroup) {
  // Three collectives on one group, started in the same order everywhere
  // (broadcast from the first member, reduce to the last, broadcast from the
  // last), waited for in reverse order.
  using T = TypeParam;
  const int64_t count = 31;
  forEachMask([&](int32_t mask, const GroupView &group) {
    int64_t last = group.size() - 1;
    std::vector<T> first = broadcastInput<T>(count, 1);
    std::vector<T> reduced = reduceInput<T>(count, SUMMA_RED_SUM);
    std::vector<T> second = broadcastInput<T>(count, 2);
    int64_t h1 = startBroadcast(first, count, mask, 0);
    int64_t h2 = startReduce(reduced, count, mask, last, SUMMA_RED_SUM);
    int64_t h3 = startBroadcast(second, count, mask, last);
    if (inFlight(mask)) {
      EXPECT_LT(h1, h2);
      EXPECT_LT(h2, h3);
    }
    summaRtWait(h3);
    summaRtWait(h2);
    summaRtWait(h1);
    EXPECT_TRUE(sameElements(first, broadcastExpected<T>(group, 0, count, 1)));
    EXPECT_TRUE(
        sameElements(second, broadcastExpected<T>(group, last, count, 2)));
    EXPECT_TRUE(sameElements(
        reduced, blockingReduce<T>(count, mask, last, SUMMA_RED_SUM)));
  });
}

TYPED_TEST(AsyncCollectivesTest, ZeroElements) {
  // count == 0 is still a collective over a larger group: a real handle.
  using T = TypeParam;
  forEachMask([&](int32_t mask, const GroupView &) {
    int64_t b = summaRtBroadcastStart(0, 0, 0, dtypeOf<T>(), mask, 0);
    int64_t r =
        summaRtReduceStart(0, 0, 0, dtypeOf<T>(), mask, 0, SUMMA_RED_MAX);
    expectHandle(b, mask);
    expectHandle(r, mask);
    summaRtWait(b);
    summaRtWait(r);
  });
}

TEST(AsyncCollectivesGroupTest, GroupOfOneReturnsZero) {
  // Masks whose group is this rank alone (e.g. depth on [q, q, 1]): nothing
  // starts, 0 comes back, nothing is counted. On grids without such a mask
  // ([2, 2, 2]) only the no-op waits of 0 are checked.
  summa::rt::resetProfile();
  float data[4] = {1, 2, 3, 4};
  forEachMask([&](int32_t mask, const GroupView &) {
    if (inFlight(mask))
      return;
    EXPECT_EQ(summaRtBroadcastStart(address(data), 0, 4, SUMMA_DT_F32, mask, 0),
              0);
    EXPECT_EQ(summaRtReduceStart(address(data), 0, 4, SUMMA_DT_F32, mask, 0,
                                 SUMMA_RED_SUM),
              0);
    // Nothing moved, nothing counted.
    EXPECT_EQ(data[0], 1);
    EXPECT_EQ(data[3], 4);
    EXPECT_EQ(
        summa::rt::profileSnapshot().get(CollectiveKind::Broadcast, mask).count,
        0);
    EXPECT_EQ(
        summa::rt::profileSnapshot().get(CollectiveKind::Reduce, mask).count,
        0);
  });
  summaRtWait(0);
  summaRtWait(0);
  summa::rt::resetProfile();
}

TEST(AsyncCollectivesGroupTest, ProfileCounts) {
  summa::rt::resetProfile();
  float f[64] = {0};
  double g[64] = {0};
  // Column mask: 2 broadcasts started non-blocking and 1 blocking; depth
  // mask: 1 reduce non-blocking; row mask: 1 reduce blocking only.
  int64_t h1 = summaRtBroadcastStart(address(f), 0, 10, SUMMA_DT_F32, kCol, 0);
  int64_t h2 =
      summaRtBroadcastStart(address(f + 16), 0, 10, SUMMA_DT_F32, kCol, 0);
  int64_t h3 = summaRtReduceStart(address(g), 0, 6, SUMMA_DT_F64, kDepth, 0,
                                  SUMMA_RED_SUM);
  summaRtWait(h3);
  summaRtWait(h2);
  summaRtWait(h1);
  summaRtBroadcast(address(f), 0, 10, SUMMA_DT_F32, kCol, 0);
  summaRtReduce(address(g), 0, 5, SUMMA_DT_F64, kRow, 0, SUMMA_RED_SUM);

  summa::rt::ProfileSnapshot profile = summa::rt::profileSnapshot();
  std::string json = summa::rt::profileToJson();
  struct Expected {
    CollectiveKind kind;
    int32_t mask;
    int64_t calls, asyncCalls, bytesPerCall;
  };
  const Expected expected[] = {
      {CollectiveKind::Broadcast, kCol, 3, 2, 40},
      {CollectiveKind::Reduce, kDepth, 1, 1, 48},
      {CollectiveKind::Reduce, kRow, 1, 0, 40},
  };
  for (const Expected &e : expected) {
    SCOPED_TRACE(std::string(summa::rt::collectiveName(e.kind)) + " on " +
                 summa::rt::groupName(e.mask));
    const summa::rt::CollectiveCounter &counter = profile.get(e.kind, e.mask);
    bool counted = inFlight(e.mask);
    int64_t count = counted ? e.calls : 0;
    int64_t async = counted ? e.asyncCalls : 0;
    EXPECT_EQ(counter.count, count);
    EXPECT_EQ(counter.bytes, count * e.bytesPerCall);
    EXPECT_EQ(counter.async, async);
    EXPECT_GE(counter.waitSeconds, 0.0);
    EXPECT_GE(counter.seconds, counter.waitSeconds);
    if (async == 0) {
      EXPECT_EQ(counter.waitSeconds, 0.0);
    }
    if (count == 0)
      continue;
    std::string entry = std::string("{\"op\":\"") +
                        summa::rt::collectiveName(e.kind) + "\",\"group\":\"" +
                        summa::rt::groupName(e.mask) +
                        "\",\"count\":" + std::to_string(count) +
                        ",\"bytes\":" + std::to_string(count * e.bytesPerCall) +
                        ",\"seconds\":";
    size_t at = json.find(entry);
    ASSERT_NE(at, std::string::npos) << json;
    std::string rest = json.substr(at, json.find('}', at) - at);
    if (async > 0) {
      EXPECT_NE(rest.find(",\"async\":" + std::to_string(async) +
                          ",\"wait_seconds\":"),
                std::string::npos)
          << rest;
    } else {
      EXPECT_EQ(rest.find("async"), std::string::npos) << rest;
      EXPECT_EQ(rest.find("wait_seconds"), std::string::npos) << rest;
    }
  }
  summa::rt::resetProfile();
}

TEST(AsyncCollectivesGroupTest, PausedStartIsNotCounted) {
  // Under a ProfilePause the start is not counted, nor is its wait later.
  summa::rt::resetProfile();
  double g[8] = {0};
  int64_t handle = 0;
  {
    summa::rt::ProfilePause pause;
    handle =
        summaRtReduceStart(address(g), 0, 8, SUMMA_DT_F64, 7, 0, SUMMA_RED_SUM);
  }
  summaRtWait(handle);
  summa::rt::ProfileSnapshot profile = summa::rt::profileSnapshot();
  const summa::rt::CollectiveCounter &counter =
      profile.get(CollectiveKind::Reduce, 7);
  EXPECT_EQ(counter.count, 0);
  EXPECT_EQ(counter.async, 0);
  EXPECT_EQ(counter.seconds, 0.0);
  EXPECT_EQ(counter.waitSeconds, 0.0);
  summa::rt::resetProfile();
}
