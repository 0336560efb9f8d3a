//===- LaunchGeometryTest.cpp - kernel launch shapes ------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "LaunchGeometry.h"
#include "HostTestUtil.h"

using namespace summa::gpu;

TEST(LaunchGeometryTest, VectorWidth) {
  // 16-byte vectors: 4 floats, 8 halves.
  EXPECT_EQ(vectorWidth({256, 512}, 4, 0), 4);
  EXPECT_EQ(vectorWidth({256, 512}, 2, 0), 8);
  // A pointer offset by one element: scalar.
  EXPECT_EQ(vectorWidth({256, 260}, 4, 0), 1);
  EXPECT_EQ(vectorWidth({256, 264}, 4, 0), 2);
  EXPECT_EQ(vectorWidth({256, 258}, 2, 0), 1);
  // Null pointers (absent bias) do not constrain.
  EXPECT_EQ(vectorWidth({256, 0, 512}, 4, 0), 4);
  // The row length must be a multiple (bias indexing).
  EXPECT_EQ(vectorWidth({256, 512}, 4, 6), 2);
  EXPECT_EQ(vectorWidth({256, 512}, 4, 7), 1);
  EXPECT_EQ(vectorWidth({256, 512}, 2, 1536), 8);
  EXPECT_EQ(vectorWidth({256}, 8, 0), 2);
}

TEST(LaunchGeometryTest, Elementwise) {
  EXPECT_EQ(elementwiseLaunch(0, 4, 132).blocks, 0);
  EXPECT_EQ(elementwiseLaunch(1, 4, 132).blocks, 1);
  EXPECT_EQ(elementwiseLaunch(1024, 4, 132).blocks, 1);
  EXPECT_EQ(elementwiseLaunch(1025, 4, 132).blocks, 2);
  // Capped at 32 blocks per SM; the grid-stride loop covers the rest.
  Launch1D big = elementwiseLaunch(int64_t(1) << 34, 8, 132);
  EXPECT_EQ(big.blocks, 32 * 132);
  EXPECT_EQ(big.threads, 256);
  for (int64_t count : {1, 7, 255, 256, 257, 100000, 12582912})
    for (int width : {1, 2, 4, 8}) {
      Launch1D launch = elementwiseLaunch(count, width, 132);
      EXPECT_GE(launch.blocks, 1);
      // Every vector has a thread or is reached by the grid stride.
      EXPECT_TRUE(launch.blocks * launch.threads * width >= count ||
                  launch.blocks == 32 * 132);
    }
}

TEST(LaunchGeometryTest, Rows) {
  EXPECT_EQ(rowThreads(1, 1), 32);
  EXPECT_EQ(rowThreads(128, 1), 32);
  EXPECT_EQ(rowThreads(1024, 1), 256);
  EXPECT_EQ(rowThreads(1536, 1), 384);
  EXPECT_EQ(rowThreads(1 << 20, 1), 1024);
  for (int64_t cols = 1; cols < 10000; cols += 37) {
    int threads = rowThreads(cols, 1);
    EXPECT_EQ(threads % 32, 0);
    EXPECT_GE(threads, 32);
    EXPECT_LE(threads, 1024);
  }
  EXPECT_EQ(rowBlocks(7), 7);
  EXPECT_EQ(rowBlocks(int64_t(1) << 40), kMaxRowBlocks);
}

TEST(LaunchGeometryTest, ColumnSums) {
  ColumnSumLaunch empty = columnSumLaunch(0, 10);
  EXPECT_EQ(empty.chunks, 0);
  for (int64_t rows : {1, 63, 64, 65, 1000, 8192, 1 << 20})
    for (int64_t cols : {1, 31, 32, 33, 1536}) {
      ColumnSumLaunch launch = columnSumLaunch(rows, cols);
      EXPECT_EQ(launch.columnTiles, (cols + 31) / 32);
      EXPECT_GE(launch.chunks, 1);
      EXPECT_LE(launch.chunks, kMaxColumnChunks);
      // The chunks cover the rows, and none is empty.
      EXPECT_GE(launch.chunks * launch.rowsPerChunk, rows);
      EXPECT_LT((launch.chunks - 1) * launch.rowsPerChunk, rows);
    }
  EXPECT_EQ(columnSumLaunch(8192, 1536).chunks, 128);
}
