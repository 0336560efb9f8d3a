//===- LaunchGeometryTest.cpp - the input fill's launch shape --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "LaunchGeometry.h"
#include "HostTestUtil.h"

using namespace summa::gpu;

TEST(LaunchGeometryTest, Elementwise) {
  EXPECT_EQ(elementwiseLaunch(0, 132).blocks, 0);
  EXPECT_EQ(elementwiseLaunch(-5, 132).blocks, 0);
  EXPECT_EQ(elementwiseLaunch(1, 132).blocks, 1);
  EXPECT_EQ(elementwiseLaunch(256, 132).blocks, 1);
  EXPECT_EQ(elementwiseLaunch(257, 132).blocks, 2);
  // Capped at 32 blocks per SM; the grid-stride loop covers the rest.
  Launch1D big = elementwiseLaunch(int64_t(1) << 34, 132);
  EXPECT_EQ(big.blocks, 32 * 132);
  EXPECT_EQ(big.threads, 256);
  // No multiprocessor count (0): as if there were one.
  EXPECT_EQ(elementwiseLaunch(int64_t(1) << 20, 0).blocks, 32);
  for (int64_t count : {1, 7, 255, 256, 257, 100000, 12582912}) {
    Launch1D launch = elementwiseLaunch(count, 132);
    EXPECT_GE(launch.blocks, 1);
    // Every element has a thread or is reached by the grid stride.
    EXPECT_TRUE(launch.blocks * launch.threads >= count ||
                launch.blocks == 32 * 132);
  }
}
