//===- LaunchGeometry.h - launch shapes of the GPU kernels ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// How the runtime's own element-wise kernels (the input fill of Fill.cu,
// the GEMM epilogue of Epilogue.cu) are launched, as a plain host function
// so that its invariants are unit-tested without a GPU: 256 threads, one
// element per thread and a grid-stride loop over the rest, at most 32 blocks
// per multiprocessor. Compiled programs bring their own kernels and launch
// shapes (docs/GPU.md).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_LAUNCHGEOMETRY_H
#define SUMMA_RUNTIME_GPU_LAUNCHGEOMETRY_H

#include <algorithm>
#include <cstdint>

namespace summa::gpu {

constexpr int kElementwiseThreads = 256;
constexpr int64_t kBlocksPerSM = 32;

struct Launch1D {
  int64_t blocks = 0;
  int threads = kElementwiseThreads;
};

/// Blocks for `count` elements on a device with `smCount` multiprocessors.
inline Launch1D elementwiseLaunch(int64_t count, int smCount) {
  Launch1D launch;
  if (count <= 0)
    return launch;
  int64_t blocks = (count + launch.threads - 1) / launch.threads;
  launch.blocks = std::max<int64_t>(
      1, std::min<int64_t>(blocks, kBlocksPerSM * std::max(smCount, 1)));
  return launch;
}

/// The current device's multiprocessor count (Context.cpp), for the
/// kernels' launches.
int kernelMultiprocessors();

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_LAUNCHGEOMETRY_H
