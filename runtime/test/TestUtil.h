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

/// The masks of a single grid axis.
constexpr int32_t kRow = 1 << SUMMA_AXIS_ROW;
constexpr int32_t kCol = 1 << SUMMA_AXIS_COL;
constexpr int32_t kDepth = 1 << SUMMA_AXIS_DEPTH;

/// The value that world rank `rank` contributes at element `e`.
inline double valueOf(int64_t rank, int64_t e) {
  return (rank + 1) * 100 + e % 97;
}

/// Values in {1, 2}, so that products over 9 ranks stay exact.
inline double prodValueOf(int64_t rank, int64_t e) {
  return 1 + (rank + e) % 2;
}

/// What world rank `rank` contributes at element `e` to a reduction of
/// `kind`.
inline double contribution(int32_t kind, int64_t rank, int64_t e) {
  return kind == SUMMA_RED_PROD ? prodValueOf(rank, e) : valueOf(rank, e);
}

/// The values of world rank `rank`, by element.
inline auto valuesOf(int64_t rank) {
  return [rank](int64_t e) { return valueOf(rank, e); };
}

/// The roots a rooted collective is checked from: the first and the last
/// member of the group.
inline std::vector<int64_t> rootsOf(const GroupView &group) {
  if (group.size() == 1)
    return {0};
  return {0, group.size() - 1};
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

/// Elements before and after the payload of a test buffer: every call must
/// leave them as they are.
constexpr int64_t kOffset = 3;
constexpr int64_t kGuard = 2;
constexpr double kSentinel = -7;

/// `count` payload elements `value(e)` after kOffset sentinels, followed by
/// `guard` more.
template <typename T, typename Value>
std::vector<T> guardedBuffer(int64_t count, Value value,
                             int64_t guard = kGuard) {
  std::vector<T> buffer(kOffset + count + guard, T(kSentinel));
  for (int64_t e = 0; e < count; ++e)
    buffer[kOffset + e] = T(value(e));
  return buffer;
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

/// Runs `check(mask, group)` for every mask of allMasks() and this rank's
/// group over it, under a trace naming the mask.
template <typename Check>
void forEachMask(Check check) {
  for (const MaskCase &mask : allMasks()) {
    SCOPED_TRACE(std::string("mask ") + mask.name);
    check(mask.mask, groupOf(mask.mask));
  }
}

/// Runs `check(root)` for every root of rootsOf(group), under a trace naming
/// the root.
template <typename Check>
void forEachRoot(const GroupView &group, Check check) {
  for (int64_t root : rootsOf(group)) {
    SCOPED_TRACE("root " + std::to_string(root));
    check(root);
  }
}

} // namespace summa::test

#endif // SUMMA_RUNTIME_TEST_TESTUTIL_H
