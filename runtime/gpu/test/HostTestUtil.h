//===- HostTestUtil.h - helpers of the GPU backend's tests ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_TEST_HOSTTESTUTIL_H
#define SUMMA_RUNTIME_GPU_TEST_HOSTTESTUTIL_H

#include "ElementType.h"
#include "GroupLayout.h"
#include "HalfFloat.h"
#include "InputValue.h"

#include "summa/Runtime/SummaRuntime.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

namespace summa::gputest {

/// The grid of this run (from the test main).
extern int64_t gridQ;
extern int64_t gridD;

using summa::rt::dtypeName;
using summa::rt::dtypeSize;

/// Values as raw element bytes of `dtype`, and back (exact for values the
/// type represents; integers truncate toward zero).
inline std::vector<char> encode(const std::vector<double> &values,
                                int32_t dtype) {
  std::vector<char> bytes(values.size() * dtypeSize(dtype));
  for (size_t e = 0; e < values.size(); ++e) {
    switch (dtype) {
    case SUMMA_DT_F64:
      std::memcpy(&bytes[e * 8], &values[e], 8);
      break;
    case SUMMA_DT_F32: {
      float value = static_cast<float>(values[e]);
      std::memcpy(&bytes[e * 4], &value, 4);
      break;
    }
    case SUMMA_DT_F16: {
      uint16_t bits = gpu::floatToHalf(static_cast<float>(values[e]));
      std::memcpy(&bytes[e * 2], &bits, 2);
      break;
    }
    case SUMMA_DT_I64: {
      int64_t value = static_cast<int64_t>(values[e]);
      std::memcpy(&bytes[e * 8], &value, 8);
      break;
    }
    case SUMMA_DT_I32: {
      int32_t value = static_cast<int32_t>(values[e]);
      std::memcpy(&bytes[e * 4], &value, 4);
      break;
    }
    default: {
      uint16_t bits = gpu::floatToBFloat16(static_cast<float>(values[e]));
      std::memcpy(&bytes[e * 2], &bits, 2);
      break;
    }
    }
  }
  return bytes;
}

inline std::vector<double> decode(const std::vector<char> &bytes,
                                  int32_t dtype) {
  size_t size = dtypeSize(dtype);
  std::vector<double> values(bytes.size() / size);
  for (size_t e = 0; e < values.size(); ++e) {
    switch (dtype) {
    case SUMMA_DT_F64:
      std::memcpy(&values[e], &bytes[e * 8], 8);
      break;
    case SUMMA_DT_F32: {
      float value;
      std::memcpy(&value, &bytes[e * 4], 4);
      values[e] = value;
      break;
    }
    case SUMMA_DT_F16: {
      uint16_t bits;
      std::memcpy(&bits, &bytes[e * 2], 2);
      values[e] = gpu::halfToFloat(bits);
      break;
    }
    case SUMMA_DT_I64: {
      int64_t value;
      std::memcpy(&value, &bytes[e * 8], 8);
      values[e] = static_cast<double>(value);
      break;
    }
    case SUMMA_DT_I32: {
      int32_t value;
      std::memcpy(&value, &bytes[e * 4], 4);
      values[e] = static_cast<double>(value);
      break;
    }
    default: {
      uint16_t bits;
      std::memcpy(&bits, &bytes[e * 2], 2);
      values[e] = gpu::bfloat16ToFloat(bits);
      break;
    }
    }
  }
  return values;
}

/// A value rounded to `dtype` and widened again.
inline double roundTo(double value, int32_t dtype) {
  return decode(encode({value}, dtype), dtype)[0];
}

/// Element-wise equality with the first few differences in one failure.
inline ::testing::AssertionResult
sameValues(const std::vector<double> &actual,
           const std::vector<double> &expected) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure()
           << "size " << actual.size() << " != " << expected.size();
  int mismatches = 0;
  ::testing::AssertionResult result = ::testing::AssertionFailure();
  for (size_t e = 0; e < actual.size(); ++e) {
    if (actual[e] == expected[e] ||
        (std::isnan(actual[e]) && std::isnan(expected[e])))
      continue;
    if (mismatches++ < 5)
      result << " [" << e << "] " << actual[e] << " != " << expected[e] << ";";
  }
  if (mismatches == 0)
    return ::testing::AssertionSuccess();
  return result << " (" << mismatches << " mismatches)";
}

/// ||actual - expected||_2 / ||expected||_2 <= tol.
inline ::testing::AssertionResult closeNorm(const std::vector<double> &actual,
                                            const std::vector<double> &expected,
                                            double tol) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure()
           << "size " << actual.size() << " != " << expected.size();
  double diff = 0, norm = 0;
  size_t worst = 0;
  double worstDiff = -1;
  for (size_t e = 0; e < actual.size(); ++e) {
    double d = actual[e] - expected[e];
    if (!std::isfinite(actual[e]))
      return ::testing::AssertionFailure()
             << "non-finite value " << actual[e] << " at " << e;
    diff += d * d;
    norm += expected[e] * expected[e];
    if (std::fabs(d) > worstDiff) {
      worstDiff = std::fabs(d);
      worst = e;
    }
  }
  double rel = std::sqrt(diff) / std::max(std::sqrt(norm), 1e-300);
  if (rel <= tol)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "relative error " << rel << " > " << tol << "; worst at " << worst
         << ": " << actual[worst] << " vs " << expected[worst];
}

/// The element types the collective tests run over: the floats, and the
/// integers of token ids and labels (8 and 4 bytes: a wrong element size
/// shows in every gathered block).
constexpr int32_t kCollectiveTypes[] = {SUMMA_DT_F32, SUMMA_DT_F64,
                                        SUMMA_DT_F16, SUMMA_DT_BF16,
                                        SUMMA_DT_I64, SUMMA_DT_I32};

/// Element e of rank `rank`'s contribution: small integers, exact in every
/// element type and in sums over a few ranks.
inline double collectiveValue(int64_t rank, int64_t e) {
  return double(rank + 1 + e % 3);
}

/// `count` values f(rank, e).
inline std::vector<double>
valuesOf(int64_t rank, int64_t count,
         const std::function<double(int64_t, int64_t)> &f = collectiveValue) {
  std::vector<double> values(count);
  for (int64_t e = 0; e < count; ++e)
    values[e] = f(rank, e);
  return values;
}

/// The SCOPED_TRACE of a group and element type.
inline std::string traceOf(int32_t mask, int32_t dtype) {
  return "mask " + std::to_string(mask) + ", " + dtypeName(dtype);
}

/// Runs `check(mask, dtype)` for every axes mask and every element type of
/// kCollectiveTypes, under a trace naming them.
template <typename Check>
void forEachMaskAndType(Check check) {
  for (int32_t mask = 1; mask < gpu::kNumMasks; ++mask)
    for (int32_t dtype : kCollectiveTypes) {
      SCOPED_TRACE(traceOf(mask, dtype));
      check(mask, dtype);
    }
}

/// forEachMaskAndType, and for each of `outers` (the number of blocks of an
/// all-gather or reduce-scatter) `check(mask, dtype, outer)`.
template <typename Check>
void forEachMaskTypeAndOuter(std::initializer_list<int64_t> outers,
                             Check check) {
  forEachMaskAndType([&](int32_t mask, int32_t dtype) {
    for (int64_t outer : outers) {
      SCOPED_TRACE("outer " + std::to_string(outer));
      check(mask, dtype, outer);
    }
  });
}

/// The sum of the `count` values of every member of a group.
inline std::vector<double> summedValues(const std::vector<int64_t> &members,
                                        int64_t count) {
  std::vector<double> sum(count, 0.0);
  for (int64_t member : members)
    for (int64_t e = 0; e < count; ++e)
      sum[e] += collectiveValue(member, e);
  return sum;
}

/// What an all-gather gives every member of a group that contributes
/// `outer` x `inner` values each: [outer, members, inner].
inline std::vector<double> gatheredValues(const std::vector<int64_t> &members,
                                          int64_t outer, int64_t inner) {
  int64_t n = static_cast<int64_t>(members.size());
  std::vector<double> gathered(outer * n * inner);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t r = 0; r < n; ++r)
      for (int64_t i = 0; i < inner; ++i)
        gathered[o * n * inner + r * inner + i] =
            collectiveValue(members[r], o * inner + i);
  return gathered;
}

/// What a summing reduce-scatter of [outer, members, inner] values from
/// every member of a group gives the member at `index`: [outer, inner].
inline std::vector<double> scatteredSums(const std::vector<int64_t> &members,
                                         int64_t index, int64_t outer,
                                         int64_t inner) {
  int64_t n = static_cast<int64_t>(members.size());
  std::vector<double> sums(outer * inner, 0.0);
  for (int64_t member : members)
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i)
        sums[o * inner + i] +=
            collectiveValue(member, o * n * inner + index * inner + i);
  return sums;
}

/// The tile map of the rank-3 tile at block `block` of a tensor of shape
/// `global`, split into tiles of shape `local`.
inline gpu::TileMap tileMapOf(const int64_t (&global)[3],
                              const int64_t (&local)[3],
                              const int64_t (&block)[3]) {
  gpu::TileMap map;
  map.rank = 3;
  int64_t stride = 1;
  for (int dim = 2; dim >= 0; --dim) {
    map.globalStrides[dim] = stride;
    stride *= global[dim];
    map.shape[dim] = local[dim];
    map.origin[dim] = block[dim] * local[dim];
  }
  map.count = local[0] * local[1] * local[2];
  return map;
}

} // namespace summa::gputest

#endif // SUMMA_RUNTIME_GPU_TEST_HOSTTESTUTIL_H
