//===- LaunchGeometry.h - launch shapes of the GPU kernels ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// How the kernels of Kernels.cu are launched, as plain host functions so that
// their invariants are unit-tested without a GPU:
//  * element-wise kernels: 256 threads, a grid-stride loop over vectors of
//    up to 16 bytes when every pointer (and, for bias kernels, the row
//    length) allows it, at most 32 blocks per multiprocessor;
//  * row kernels (softmax, LayerNorm): one block per row, a warp multiple of
//    threads sized to the row, at most kMaxRowBlocks blocks with a
//    grid-stride loop over rows;
//  * the column sums of the LayerNorm backward: row chunks of 32 columns,
//    partial sums in f32, then one pass over the chunks.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_LAUNCHGEOMETRY_H
#define SUMMA_RUNTIME_GPU_LAUNCHGEOMETRY_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace summa::gpu {

constexpr int kElementwiseThreads = 256;
constexpr int64_t kBlocksPerSM = 32;
constexpr int kMaxRowThreads = 1024;
constexpr int64_t kMaxRowBlocks = int64_t(1) << 20;
constexpr int kColumnTile = 32;
constexpr int kColumnRowsPerThreadRow = 8;
constexpr int64_t kMaxColumnChunks = 1024;

struct Launch1D {
  int64_t blocks = 0;
  int threads = kElementwiseThreads;
};

/// The widest vector (in elements, at most 16 bytes) that every pointer is
/// aligned to and that divides `multipleOf` (the row length for kernels that
/// index a bias per column; 0 = no constraint). Null pointers are ignored.
inline int vectorWidth(std::initializer_list<uintptr_t> pointers,
                       size_t elementSize, int64_t multipleOf) {
  int width = static_cast<int>(16 / elementSize);
  while (width > 1) {
    size_t bytes = static_cast<size_t>(width) * elementSize;
    bool ok = multipleOf == 0 || multipleOf % width == 0;
    for (uintptr_t pointer : pointers)
      ok = ok && pointer % bytes == 0;
    if (ok)
      break;
    width /= 2;
  }
  return std::max(width, 1);
}

/// Blocks for `count` elements processed `width` at a time.
inline Launch1D elementwiseLaunch(int64_t count, int width, int smCount) {
  Launch1D launch;
  if (count <= 0)
    return launch;
  int64_t vectors = (count + width - 1) / width;
  int64_t blocks = (vectors + launch.threads - 1) / launch.threads;
  launch.blocks = std::max<int64_t>(
      1, std::min<int64_t>(blocks, kBlocksPerSM * std::max(smCount, 1)));
  return launch;
}

/// Threads per row block: about 4 elements (of `width`-vectors) per thread,
/// a multiple of 32 in [32, 1024].
inline int rowThreads(int64_t cols, int width) {
  int64_t vectors = (cols + width - 1) / width;
  int64_t threads = (vectors + 3) / 4;
  threads = (threads + 31) / 32 * 32;
  return static_cast<int>(std::clamp<int64_t>(threads, 32, kMaxRowThreads));
}

inline int64_t rowBlocks(int64_t rows) { return std::min(rows, kMaxRowBlocks); }

/// Row chunks of the LayerNorm backward's column sums.
struct ColumnSumLaunch {
  int64_t columnTiles = 0;
  int64_t chunks = 0;
  int64_t rowsPerChunk = 0;
};

inline ColumnSumLaunch columnSumLaunch(int64_t rows, int64_t cols) {
  ColumnSumLaunch launch;
  if (rows <= 0 || cols <= 0)
    return launch;
  launch.columnTiles = (cols + kColumnTile - 1) / kColumnTile;
  // Enough chunks to fill the device, but at least 64 rows per chunk (no
  // point in partial sums of a few rows).
  int64_t chunks = std::min<int64_t>((rows + 63) / 64, kMaxColumnChunks);
  launch.rowsPerChunk = (rows + chunks - 1) / chunks;
  launch.chunks = (rows + launch.rowsPerChunk - 1) / launch.rowsPerChunk;
  return launch;
}

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_LAUNCHGEOMETRY_H
