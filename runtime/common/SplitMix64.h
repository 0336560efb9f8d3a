//===- SplitMix64.h - the splitmix64 finaliser ------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The one hash of the runtime, for the host and the device: the input values
// of both backends (inputValue below: summaRtInputValue, the host fill and
// the GPU's device fill) and the batches of the --data loader
// (DataLoader.cpp) are drawn from it.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_SPLITMIX64_H
#define SUMMA_RUNTIME_COMMON_SPLITMIX64_H

#include "HostDevice.h"

#include <cstdint>

namespace summa::rt {

/// The splitmix64 finaliser: a bijective 64-bit mix with good avalanche.
SUMMA_HOST_DEVICE inline uint64_t splitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// The input value of element `globalIndex` of input `tensor` (the formula
/// of summaRtInputValue, SummaRuntime.h): uniform in [-1, 1), a multiple of
/// 2^-23, the same on the host and the device.
SUMMA_HOST_DEVICE inline float inputValue(uint64_t seed, int32_t tensor,
                                          int64_t globalIndex) {
  uint64_t hash = splitMix64(seed);
  hash = splitMix64(hash ^ static_cast<uint32_t>(tensor));
  hash = splitMix64(hash ^ static_cast<uint64_t>(globalIndex));
  // The top 24 bits give a multiple of 2^-23 in [-1, 1), exact in a float.
  int64_t bits = static_cast<int64_t>(hash >> 40) - (int64_t(1) << 23);
  return static_cast<float>(bits) * 0x1p-23f;
}

} // namespace summa::rt

#endif // SUMMA_RUNTIME_COMMON_SPLITMIX64_H
