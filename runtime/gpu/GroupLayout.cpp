//===- GroupLayout.cpp - grid sub-groups, computed on the host --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "GroupLayout.h"
#include "Validate.h"

#include "summa/Runtime/SummaRuntime.h"

using namespace summa::gpu;

void summa::gpu::coordsOfWorldRank(int64_t q, int64_t worldRank,
                                   int64_t coords[3]) {
  coords[SUMMA_AXIS_COL] = worldRank % q;
  coords[SUMMA_AXIS_ROW] = (worldRank / q) % q;
  coords[SUMMA_AXIS_DEPTH] = worldRank / (q * q);
}

int64_t summa::gpu::worldRankOfCoords(int64_t q, const int64_t coords[3]) {
  return coords[SUMMA_AXIS_DEPTH] * q * q + coords[SUMMA_AXIS_ROW] * q +
         coords[SUMMA_AXIS_COL];
}

int64_t summa::gpu::axisExtentOf(int64_t q, int64_t d, int axis) {
  return axis == SUMMA_AXIS_DEPTH ? d : q;
}

int64_t summa::gpu::groupSizeOf(int64_t q, int64_t d, int32_t mask) {
  int64_t size = 1;
  for (int axis = 0; axis < 3; ++axis)
    if (mask & (1 << axis))
      size *= axisExtentOf(q, d, axis);
  return size;
}

int64_t summa::gpu::groupColour(int64_t q, const int64_t coords[3],
                                int32_t mask) {
  int64_t fixed[3];
  for (int axis = 0; axis < 3; ++axis)
    fixed[axis] = (mask & (1 << axis)) ? 0 : coords[axis];
  return worldRankOfCoords(q, fixed);
}

int64_t summa::gpu::groupIndexOf(int64_t q, int64_t d, const int64_t coords[3],
                                 int32_t mask) {
  // World rank order is (k, i, j) lexicographic, so the index is the
  // mixed-radix number of the spanned coordinates in that order.
  int64_t index = 0;
  for (int axis : {SUMMA_AXIS_DEPTH, SUMMA_AXIS_ROW, SUMMA_AXIS_COL})
    if (mask & (1 << axis))
      index = index * axisExtentOf(q, d, axis) + coords[axis];
  return index;
}

std::vector<int64_t> summa::gpu::groupMembers(int64_t q, int64_t d,
                                              int64_t worldRank, int32_t mask) {
  int64_t coords[3];
  coordsOfWorldRank(q, worldRank, coords);
  int64_t colour = groupColour(q, coords, mask);
  std::vector<int64_t> members;
  for (int64_t rank = 0; rank < q * q * d; ++rank) {
    int64_t other[3];
    coordsOfWorldRank(q, rank, other);
    if (groupColour(q, other, mask) == colour)
      members.push_back(rank);
  }
  return members;
}

std::string summa::gpu::checkAxesMask(const char *caller, int32_t mask) {
  if (mask < 1 || mask >= kNumMasks)
    return formatString("%s: invalid axes mask %d (expected 1..7, a non-empty "
                        "set of row = 1, col = 2, depth = 4)",
                        caller, mask);
  return "";
}
