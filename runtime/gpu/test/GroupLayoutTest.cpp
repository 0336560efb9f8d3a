//===- GroupLayoutTest.cpp - sub-group colours and keys ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The rule both backends split by (colour = world rank with the spanned
// coordinates zeroed, key = world rank), checked against the definition of
// SummaRuntime.h on many grids, and against MPI_Comm_split on this run's
// grid.
//
//===----------------------------------------------------------------------===//

#include "GroupLayout.h"
#include "HostTestUtil.h"

#include <mpi.h>

#include <algorithm>
#include <map>
#include <set>

using namespace summa::gpu;

namespace {
struct Grid {
  int64_t q, d;
};
const Grid kGrids[] = {{1, 1}, {2, 1}, {1, 2}, {2, 2}, {1, 4},
                       {3, 1}, {3, 2}, {4, 2}, {2, 3}};

/// The definition: the members agree on every coordinate not in the mask.
bool sameGroup(int64_t q, int64_t a, int64_t b, int32_t mask) {
  int64_t ca[3], cb[3];
  coordsOfWorldRank(q, a, ca);
  coordsOfWorldRank(q, b, cb);
  for (int axis = 0; axis < 3; ++axis)
    if (!(mask & (1 << axis)) && ca[axis] != cb[axis])
      return false;
  return true;
}
} // namespace

TEST(GroupLayoutTest, CoordinatesRoundTrip) {
  for (const Grid &g : kGrids)
    for (int64_t rank = 0; rank < g.q * g.q * g.d; ++rank) {
      int64_t coords[3];
      coordsOfWorldRank(g.q, rank, coords);
      EXPECT_EQ(worldRankOfCoords(g.q, coords), rank);
      EXPECT_EQ(coords[SUMMA_AXIS_COL], rank % g.q);
      EXPECT_EQ(coords[SUMMA_AXIS_ROW], (rank / g.q) % g.q);
      EXPECT_EQ(coords[SUMMA_AXIS_DEPTH], rank / (g.q * g.q));
    }
}

TEST(GroupLayoutTest, MembersFollowTheDefinition) {
  for (const Grid &g : kGrids) {
    int64_t world = g.q * g.q * g.d;
    for (int32_t mask = 1; mask < kNumMasks; ++mask)
      for (int64_t rank = 0; rank < world; ++rank) {
        std::vector<int64_t> expected;
        for (int64_t other = 0; other < world; ++other)
          if (sameGroup(g.q, rank, other, mask))
            expected.push_back(other);
        std::vector<int64_t> members = groupMembers(g.q, g.d, rank, mask);
        SCOPED_TRACE("grid [" + std::to_string(g.q) + "," +
                     std::to_string(g.q) + "," + std::to_string(g.d) +
                     "] mask " + std::to_string(mask) + " rank " +
                     std::to_string(rank));
        EXPECT_EQ(members, expected);
        EXPECT_EQ(static_cast<int64_t>(members.size()),
                  groupSizeOf(g.q, g.d, mask));
        int64_t coords[3];
        coordsOfWorldRank(g.q, rank, coords);
        // Index = order by world rank (the key).
        auto position = std::find(members.begin(), members.end(), rank);
        ASSERT_NE(position, members.end());
        EXPECT_EQ(groupIndexOf(g.q, g.d, coords, mask),
                  position - members.begin());
        EXPECT_EQ(groupKey(g.q, coords), rank);
      }
  }
}

TEST(GroupLayoutTest, ColoursSeparateGroups) {
  for (const Grid &g : kGrids) {
    int64_t world = g.q * g.q * g.d;
    for (int32_t mask = 1; mask < kNumMasks; ++mask) {
      std::map<int64_t, int64_t> firstOfColour;
      for (int64_t rank = 0; rank < world; ++rank) {
        int64_t coords[3];
        coordsOfWorldRank(g.q, rank, coords);
        int64_t colour = groupColour(g.q, coords, mask);
        // Non-negative (NCCL_SPLIT_NOCOLOR is negative) and an int.
        EXPECT_GE(colour, 0);
        EXPECT_LT(colour, world);
        auto inserted = firstOfColour.emplace(colour, rank);
        EXPECT_EQ(sameGroup(g.q, inserted.first->second, rank, mask), true)
            << "ranks " << inserted.first->second << " and " << rank
            << " share colour " << colour << " for mask " << mask;
      }
      EXPECT_EQ(static_cast<int64_t>(firstOfColour.size()),
                world / groupSizeOf(g.q, g.d, mask));
    }
  }
}

TEST(GroupLayoutTest, ExamplesFromTheHeader) {
  // Grid [2, 2, 2]: the group of mask col (1 << 1) is one row of the grid.
  int64_t coords[3] = {1, 0, 1}; // i = 1, j = 0, k = 1: world rank 6
  EXPECT_EQ(groupMembers(2, 2, 6, 1 << SUMMA_AXIS_COL),
            (std::vector<int64_t>{6, 7}));
  EXPECT_EQ(groupMembers(2, 2, 6, 1 << SUMMA_AXIS_ROW),
            (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(groupMembers(2, 2, 6, 1 << SUMMA_AXIS_DEPTH),
            (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(groupIndexOf(2, 2, coords, 1 << SUMMA_AXIS_DEPTH), 1);
  EXPECT_EQ(groupIndexOf(2, 2, coords, 7), 6);
  EXPECT_EQ(groupColour(2, coords, 1 << SUMMA_AXIS_COL), 6);
  EXPECT_EQ(groupColour(2, coords, 1 << SUMMA_AXIS_ROW), 4);
  EXPECT_EQ(groupColour(2, coords, 7), 0);
  EXPECT_EQ(groupSizeOf(3, 2, 1 | 4), 6);
}

TEST(GroupLayoutTest, MaskAndGridChecks) {
  EXPECT_EQ(checkAxesMask("summaRtAllReduce", 3), "");
  EXPECT_EQ(checkAxesMask("summaRtAllReduce", 0),
            "summaRtAllReduce: invalid axes mask 0 (expected 1..7, a "
            "non-empty set of row = 1, col = 2, depth = 4)");
  EXPECT_NE(checkAxesMask("f", 8), "");
  EXPECT_NE(checkAxesMask("f", -1), "");
}

// The rule gives MPI_Comm_split exactly the groups and indices it computes
// (ncclCommSplit has the same colour/key semantics).
TEST(GroupLayoutTest, MatchesMpiCommSplit) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int64_t q = summa::gputest::gridQ, d = summa::gputest::gridD;
  int64_t coords[3];
  coordsOfWorldRank(q, rank, coords);
  for (int32_t mask = 1; mask < kNumMasks; ++mask) {
    MPI_Comm comm;
    ASSERT_EQ(MPI_Comm_split(MPI_COMM_WORLD,
                             static_cast<int>(groupColour(q, coords, mask)),
                             static_cast<int>(groupKey(q, coords)), &comm),
              MPI_SUCCESS);
    int size = 0, index = 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &index);
    EXPECT_EQ(size, groupSizeOf(q, d, mask)) << "mask " << mask;
    EXPECT_EQ(index, groupIndexOf(q, d, coords, mask)) << "mask " << mask;
    // The members, by index, are the computed ones.
    std::vector<int> members(size);
    MPI_Allgather(&rank, 1, MPI_INT, members.data(), 1, MPI_INT, comm);
    std::vector<int64_t> expected = groupMembers(q, d, rank, mask);
    EXPECT_EQ(std::vector<int64_t>(members.begin(), members.end()), expected)
        << "mask " << mask;
    MPI_Comm_free(&comm);
  }
}
