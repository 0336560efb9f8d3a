//===- ProfileTest.cpp - collective and matmul counters ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "Profile.h"
#include "TestUtil.h"

using namespace summa::rt;
using namespace summa::test;

namespace {
/// Calls over a group of one rank are not counted (Profile.h).
int64_t expectedCount(int32_t mask, int64_t calls) {
  return groupOf(mask).size() > 1 ? calls : 0;
}

std::string entry(const char *op, int32_t mask, int64_t count, int64_t bytes) {
  return std::string("{\"op\":\"") + op + "\",\"group\":\"" + groupName(mask) +
         "\",\"count\":" + std::to_string(count) +
         ",\"bytes\":" + std::to_string(bytes) + ",";
}

/// The calls whose counts CountsCallsAndBytes checks.
void callEveryCollectiveAndMatmul() {
  float f[64] = {0};
  double g[64] = {0};
  summaRtBroadcast(address(f), 0, 10, SUMMA_DT_F32, kCol, 0);
  summaRtBroadcast(address(f), 2, 10, SUMMA_DT_F32, kCol, 0);
  summaRtAllReduce(address(g), 0, 3, SUMMA_DT_F64, kDepth, SUMMA_RED_SUM);
  summaRtReduce(address(f), 0, 5, SUMMA_DT_F32, 7, 0, SUMMA_RED_MAX);
  // All-gather: the bytes are the source's, [2, 3] floats = 24 bytes.
  int64_t nRow = groupOf(kRow).size();
  std::vector<float> gathered(2 * 3 * nRow);
  summaRtAllGather(address(f), 0, address(gathered.data()), 0, 2, 3,
                   SUMMA_DT_F32, kRow);
  // Reduce-scatter: the bytes are the destination's, [2, 3] doubles = 48.
  int64_t nPlane = groupOf(kRow | kCol).size();
  std::vector<double> scattered(2 * 3 * nPlane);
  summaRtReduceScatter(address(scattered.data()), 0, address(g), 0, 2, 3,
                       SUMMA_DT_F64, kRow | kCol, SUMMA_RED_SUM);
  summaRtReduceScatter(address(scattered.data()), 0, address(g), 0, 2, 3,
                       SUMMA_DT_F64, kRow | kCol, SUMMA_RED_SUM);
  double a[4 * 6] = {0}, b[6 * 5] = {0}, c[4 * 5] = {0};
  for (int call = 0; call < 3; ++call)
    summaRtMatmul(SUMMA_DT_F64, address(a), 0, 6, address(b), 0, 5, address(c),
                  0, 5, 4, 5, 6, 0, 0, call > 0);
}

/// The collective counters and JSON entries after
/// callEveryCollectiveAndMatmul, and nothing else counted.
void expectCollectiveCounts(const ProfileSnapshot &profile,
                            const std::string &json) {
  struct Expected {
    CollectiveKind kind;
    int32_t mask;
    int64_t calls;
    int64_t bytesPerCall;
  };
  const Expected expected[] = {
      {CollectiveKind::Broadcast, kCol, 2, 40},
      {CollectiveKind::AllReduce, kDepth, 1, 24},
      {CollectiveKind::Reduce, 7, 1, 20},
      {CollectiveKind::AllGather, kRow, 1, 24},
      {CollectiveKind::ReduceScatter, kRow | kCol, 2, 48},
  };
  int64_t counted = 0;
  for (const Expected &e : expected) {
    SCOPED_TRACE(std::string(collectiveName(e.kind)) + " on " +
                 groupName(e.mask));
    int64_t count = expectedCount(e.mask, e.calls);
    counted += count;
    const CollectiveCounter &counter = profile.get(e.kind, e.mask);
    EXPECT_EQ(counter.count, count);
    EXPECT_EQ(counter.bytes, count * e.bytesPerCall);
    EXPECT_GE(counter.seconds, 0.0);
    if (count > 0)
      EXPECT_NE(json.find(entry(collectiveName(e.kind), e.mask, count,
                                count * e.bytesPerCall)),
                std::string::npos)
          << json;
  }
  // Nothing else was counted.
  int64_t total = 0;
  for (int kind = 0; kind < kNumCollectiveKinds; ++kind)
    for (int mask = 1; mask < 8; ++mask)
      total += profile.collectives[kind][mask].count;
  EXPECT_EQ(total, counted);
}

/// The start of this rank's profile JSON: its rank, grid and coordinates.
std::string profileHeader() {
  int64_t q = summaRtGridSize(SUMMA_AXIS_ROW);
  int64_t d = summaRtGridSize(SUMMA_AXIS_DEPTH);
  return "{\"rank\":" + std::to_string(summaRtWorldRank()) + ",\"grid\":[" +
         std::to_string(q) + "," + std::to_string(q) + "," + std::to_string(d) +
         "],\"coords\":[" + std::to_string(summaRtGridCoord(SUMMA_AXIS_ROW)) +
         "," + std::to_string(summaRtGridCoord(SUMMA_AXIS_COL)) + "," +
         std::to_string(summaRtGridCoord(SUMMA_AXIS_DEPTH)) + "]";
}
} // namespace

TEST(ProfileTest, Names) {
  EXPECT_EQ(groupName(kRow), "row");
  EXPECT_EQ(groupName(kCol), "col");
  EXPECT_EQ(groupName(kDepth), "depth");
  EXPECT_EQ(groupName(kRow | kCol), "row+col");
  EXPECT_EQ(groupName(kRow | kDepth), "row+depth");
  EXPECT_EQ(groupName(kCol | kDepth), "col+depth");
  EXPECT_EQ(groupName(7), "row+col+depth");
  EXPECT_STREQ(collectiveName(CollectiveKind::Broadcast), "broadcast");
  EXPECT_STREQ(collectiveName(CollectiveKind::Reduce), "reduce");
  EXPECT_STREQ(collectiveName(CollectiveKind::AllReduce), "all_reduce");
  EXPECT_STREQ(collectiveName(CollectiveKind::AllGather), "all_gather");
  EXPECT_STREQ(collectiveName(CollectiveKind::ReduceScatter), "reduce_scatter");
}

TEST(ProfileTest, CountsCallsAndBytes) {
  resetProfile();
  callEveryCollectiveAndMatmul();
  ProfileSnapshot profile = profileSnapshot();
  std::string json = profileToJson();
  expectCollectiveCounts(profile, json);

  EXPECT_EQ(profile.matmul.count, 3);
  EXPECT_EQ(profile.matmul.flops, 3 * 2 * 4 * 5 * 6);
  EXPECT_NE(json.find("\"matmul\":{\"count\":3,\"flops\":720,"),
            std::string::npos)
      << json;
  EXPECT_EQ(json.rfind(profileHeader(), 0), 0u) << json;

  resetProfile();
  EXPECT_EQ(profileSnapshot().matmul.count, 0);
  EXPECT_EQ(profileSnapshot().get(CollectiveKind::Broadcast, kCol).count, 0);
}

TEST(ProfileTest, PauseSuspendsRecording) {
  resetProfile();
  double g[8] = {0};
  {
    ProfilePause pause;
    summaRtAllReduce(address(g), 0, 8, SUMMA_DT_F64, 7, SUMMA_RED_SUM);
    summaRtMatmul(SUMMA_DT_F64, address(g), 0, 2, address(g), 0, 2,
                  address(g + 4), 0, 2, 2, 2, 2, 0, 0, 0);
  }
  EXPECT_EQ(profileSnapshot().get(CollectiveKind::AllReduce, 7).count, 0);
  EXPECT_EQ(profileSnapshot().matmul.count, 0);
  summaRtAllReduce(address(g), 0, 8, SUMMA_DT_F64, 7, SUMMA_RED_SUM);
  EXPECT_EQ(profileSnapshot().get(CollectiveKind::AllReduce, 7).count,
            expectedCount(7, 1));
  resetProfile();
}
