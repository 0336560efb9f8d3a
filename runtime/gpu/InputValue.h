//===- InputValue.h - input values and tile maps ----------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The deterministic input values of SummaRuntime.h (summaRtInputValue) as
// the GPU's device fill uses them: the formula (runtime/common/SplitMix64.h,
// inputValue) is the one the host uses, compiled for the device too; the
// device test DeviceFillMatchesHost checks the device side.
//
// A TileMap describes where the elements of one rank's tile (or of a whole
// tensor) lie in the global row-major tensor.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_INPUTVALUE_H
#define SUMMA_RUNTIME_GPU_INPUTVALUE_H

#include "SplitMix64.h"

#include <cstdint>

namespace summa::gpu {

using summa::rt::inputValue;

/// The value the drivers store for element `globalIndex` of input `tensor`
/// before rounding to the element type: computed in double as the CPU driver
/// does (value, then [-1, 1) -> [0, 1) for non-negative inputs, times scale).
SUMMA_HOST_DEVICE inline double scaledInputValue(uint64_t seed, int32_t tensor,
                                                 int64_t globalIndex,
                                                 double scale,
                                                 bool nonnegative) {
  double value = inputValue(seed, tensor, globalIndex);
  if (nonnegative)
    value = 0.5 * (value + 1.0);
  return value * scale;
}

constexpr int kTileMaxRank = 4;

/// Element `linear` (row-major over `shape`) of a tile lies at global index
/// sum_d (origin[d] + index[d]) * globalStrides[d].
struct TileMap {
  int32_t rank = 0;
  int64_t count = 1;
  int64_t shape[kTileMaxRank] = {1, 1, 1, 1};
  int64_t origin[kTileMaxRank] = {0, 0, 0, 0};
  int64_t globalStrides[kTileMaxRank] = {0, 0, 0, 0};
  /// A factored dimension (SummaTensorDesc::groups): the tile holds `chunk`
  /// elements of each group of `span`, from `origin` within the group. The
  /// defaults hold one group.
  int64_t chunk[kTileMaxRank] = {INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX};
  int64_t span[kTileMaxRank] = {0, 0, 0, 0};
  /// The tensor's global shape: a dimension split unevenly ends its last
  /// blocks in padding past it.
  int64_t globalShape[kTileMaxRank] = {INT64_MAX, INT64_MAX, INT64_MAX,
                                       INT64_MAX};
};

/// The global linear index of local element `linear`, or -1 where it is
/// padding.
SUMMA_HOST_DEVICE inline int64_t globalIndexOf(const TileMap &map,
                                               int64_t linear) {
  int64_t global = 0;
  for (int dim = map.rank - 1; dim >= 0; --dim) {
    int64_t index = linear % map.shape[dim];
    linear /= map.shape[dim];
    int64_t at = index / map.chunk[dim] * map.span[dim] + map.origin[dim] +
                 index % map.chunk[dim];
    if (at >= map.globalShape[dim])
      return -1;
    global += at * map.globalStrides[dim];
  }
  return global;
}

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_INPUTVALUE_H
