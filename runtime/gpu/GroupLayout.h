//===- GroupLayout.h - grid sub-groups, computed on the host ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The sub-group of an axes mask (SummaRuntime.h): the ranks that agree on
// every coordinate whose axis is not in the mask, ordered by world rank. Both
// backends split the world with colour = this rank's world rank with the
// spanned coordinates zeroed and key = world rank (MPI_Comm_split on the CPU,
// ncclCommSplit or MPI_Comm_split on the GPU), so a member's group index is
// its order by world rank. These functions compute the same thing without a
// communicator, so that the GPU backend can check what NCCL built and the
// tests can check the rule without a GPU.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_GROUPLAYOUT_H
#define SUMMA_RUNTIME_GPU_GROUPLAYOUT_H

#include <cstdint>
#include <string>
#include <vector>

namespace summa::gpu {

/// Axes masks are 1..7; index 0 is unused.
constexpr int kNumMasks = 8;

/// World rank = k*q*q + i*q + j; coords indexed by SummaAxis (i, j, k).
void coordsOfWorldRank(int64_t q, int64_t worldRank, int64_t coords[3]);
int64_t worldRankOfCoords(int64_t q, const int64_t coords[3]);

/// The extent of `axis` (q, q or d).
int64_t axisExtentOf(int64_t q, int64_t d, int axis);

/// The number of ranks in the group of `mask`: the product of the spanned
/// extents. The same on every rank.
int64_t groupSizeOf(int64_t q, int64_t d, int32_t mask);

/// The split colour of the rank at `coords` for `mask`.
int64_t groupColour(int64_t q, const int64_t coords[3], int32_t mask);

/// The split key: the world rank.
inline int64_t groupKey(int64_t q, const int64_t coords[3]) {
  return worldRankOfCoords(q, coords);
}

/// The rank's index in its group of `mask` (its order by world rank).
int64_t groupIndexOf(int64_t q, int64_t d, const int64_t coords[3],
                     int32_t mask);

/// The world ranks of the group of `mask` that holds `worldRank`, by index.
std::vector<int64_t> groupMembers(int64_t q, int64_t d, int64_t worldRank,
                                  int32_t mask);

/// "" if `mask` is a valid axes mask, else the message the runtime prints.
std::string checkAxesMask(const char *caller, int32_t mask);

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_GROUPLAYOUT_H
