//===- TestUtil.h - helpers shared by the runtime tests ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Expected values of the tests are computed from the grid coordinates alone,
// independently of the runtime's communicators.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TEST_TESTUTIL_H
#define SUMMA_RUNTIME_TEST_TESTUTIL_H

#include "summa/Runtime/SummaRuntime.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace summa::test {

/// The members of this rank's group spanning `mask`, by group index.
struct GroupView {
  std::vector<int64_t> members;
  int64_t index = -1;
  int64_t size() const { return static_cast<int64_t>(members.size()); }
};

inline GroupView groupOf(int32_t mask) {
  int64_t q = summaRtGridSize(SUMMA_AXIS_ROW);
  int64_t d = summaRtGridSize(SUMMA_AXIS_DEPTH);
  int64_t i = summaRtGridCoord(SUMMA_AXIS_ROW);
  int64_t j = summaRtGridCoord(SUMMA_AXIS_COL);
  int64_t k = summaRtGridCoord(SUMMA_AXIS_DEPTH);
  bool spansRow = mask & (1 << SUMMA_AXIS_ROW);
  bool spansCol = mask & (1 << SUMMA_AXIS_COL);
  bool spansDepth = mask & (1 << SUMMA_AXIS_DEPTH);
  GroupView group;
  // Nested depth, row, col: increasing world rank k*q*q + i*q + j.
  for (int64_t kk = spansDepth ? 0 : k; kk <= (spansDepth ? d - 1 : k); ++kk)
    for (int64_t ii = spansRow ? 0 : i; ii <= (spansRow ? q - 1 : i); ++ii)
      for (int64_t jj = spansCol ? 0 : j; jj <= (spansCol ? q - 1 : j); ++jj) {
        if (kk == k && ii == i && jj == j)
          group.index = group.size();
        group.members.push_back(kk * q * q + ii * q + jj);
      }
  return group;
}

template <typename T>
constexpr int32_t dtypeOf();
template <>
constexpr int32_t dtypeOf<float>() {
  return SUMMA_DT_F32;
}
template <>
constexpr int32_t dtypeOf<double>() {
  return SUMMA_DT_F64;
}

inline intptr_t address(const void *pointer) {
  return reinterpret_cast<intptr_t>(pointer);
}

/// Compares element by element and reports the first few differences in one
/// failure (instead of one failure per element).
template <typename T>
::testing::AssertionResult sameElements(const std::vector<T> &actual,
                                        const std::vector<T> &expected) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure()
           << "size " << actual.size() << " != " << expected.size();
  std::ostringstream diffs;
  int mismatches = 0;
  for (size_t e = 0; e < actual.size(); ++e) {
    if (actual[e] == expected[e])
      continue;
    if (mismatches++ < 5)
      diffs << " [" << e << "] " << actual[e] << " != " << expected[e] << ";";
  }
  if (mismatches == 0)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << mismatches << " mismatches on rank " << summaRtWorldRank() << ":"
         << diffs.str();
}

/// The 2.5D-relevant masks and the other two, named for traces.
struct MaskCase {
  int32_t mask;
  const char *name;
};
inline const std::vector<MaskCase> &allMasks() {
  static const std::vector<MaskCase> masks = {
      {1 << SUMMA_AXIS_COL, "col"},
      {1 << SUMMA_AXIS_ROW, "row"},
      {1 << SUMMA_AXIS_DEPTH, "depth"},
      {(1 << SUMMA_AXIS_ROW) | (1 << SUMMA_AXIS_COL), "row+col"},
      {7, "all"},
      {(1 << SUMMA_AXIS_ROW) | (1 << SUMMA_AXIS_DEPTH), "row+depth"},
      {(1 << SUMMA_AXIS_COL) | (1 << SUMMA_AXIS_DEPTH), "col+depth"},
  };
  return masks;
}

} // namespace summa::test

#endif // SUMMA_RUNTIME_TEST_TESTUTIL_H
