//===- SplitMix64.h - the splitmix64 finaliser ------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The one hash of the runtime, for the host and the device: the input values
// of both backends (summaRtInputValue, runtime/gpu/InputValue.h) and the
// batches of the --data loader (DataLoader.cpp) are drawn from it.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_LIB_SPLITMIX64_H
#define SUMMA_RUNTIME_LIB_SPLITMIX64_H

#include <cstdint>

#if defined(__CUDACC__)
#define SUMMA_HOST_DEVICE __host__ __device__
#else
#define SUMMA_HOST_DEVICE
#endif

namespace summa::rt {

/// The splitmix64 finaliser: a bijective 64-bit mix with good avalanche.
SUMMA_HOST_DEVICE inline uint64_t splitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

} // namespace summa::rt

#endif // SUMMA_RUNTIME_LIB_SPLITMIX64_H
