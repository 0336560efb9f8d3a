//===- InputValueTest.cpp - input values as on the CPU ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The input formula as the device fill includes it (InputValue.h, the
// inline function of SplitMix64.h) is compared with the exported
// summaRtInputValue (runtime/tooling/Backend.cpp, compiled into both
// libraries; this executable links libsumma_runtime_cuda.so, not the CPU
// backend, so that it runs where OpenBLAS is not installed), and the tile
// maps with the CPU driver's element order.
//
//===----------------------------------------------------------------------===//

#include "InputValue.h"
#include "DeviceFill.h"
#include "HostTestUtil.h"

#include <random>

using namespace summa::gpu;

TEST(InputValueTest, MatchesCpuBackend) {
  std::mt19937_64 random(3);
  for (int i = 0; i < 200000; ++i) {
    uint64_t seed = i % 7 == 0 ? random() : i % 50;
    auto tensor = static_cast<int32_t>(i % 13) - 2;
    int64_t index = i % 3 == 0 ? static_cast<int64_t>(random() >> 1) : i;
    ASSERT_EQ(inputValue(seed, tensor, index),
              summaRtInputValue(seed, tensor, index))
        << seed << " " << tensor << " " << index;
  }
}

TEST(InputValueTest, KnownValues) {
  // The golden values of runtime/test/InputValueTest.cpp.
  EXPECT_EQ(inputValue(42, 0, 0), -0x1.cef41p-3f);
  EXPECT_EQ(inputValue(42, 0, 1), 0x1.b4177p-2f);
  EXPECT_EQ(inputValue(42, 1, 0), 0x1.3be84p-3f);
  EXPECT_EQ(inputValue(43, 0, 0), 0x1.bb6c9p-3f);
  EXPECT_EQ(inputValue(0, 3, 123456789), 0x1.490cp-5f);
  EXPECT_EQ(inputValue(42, 2, int64_t(1) << 40), -0x1.453c24p-1f);
}

TEST(InputValueTest, ScaledLikeTheCpuDriver) {
  // The CPU driver: double value = summaRtInputValue(...); for non-negative
  // inputs 0.5 * (value + 1); times scale; stored as float.
  for (int64_t e = 0; e < 1000; ++e) {
    double value = summaRtInputValue(9, 1, e);
    EXPECT_EQ(scaledInputValue(9, 1, e, 0.25, false), value * 0.25);
    EXPECT_EQ(scaledInputValue(9, 1, e, 3.0, true), 0.5 * (value + 1.0) * 3.0);
  }
}

TEST(InputValueTest, TileMapsVisitTheCpuDriverOrder) {
  // A rank-3 tensor [6, 4, 10] split 3 x 2 x 5; tile at block (1, 1, 3).
  TileMap map = summa::gputest::tileMapOf({6, 4, 10}, {2, 2, 2}, {1, 1, 3});
  // The CPU driver's forEachElement: nested loops, last dimension fastest.
  int64_t linear = 0;
  for (int64_t a = 0; a < 2; ++a)
    for (int64_t b = 0; b < 2; ++b)
      for (int64_t c = 0; c < 2; ++c) {
        int64_t expected = (2 + a) * 40 + (2 + b) * 10 + (6 + c);
        EXPECT_EQ(globalIndexOf(map, linear), expected) << linear;
        ++linear;
      }
  // A rank-0 tensor has one element at index 0.
  TileMap scalar;
  scalar.rank = 0;
  scalar.count = 1;
  EXPECT_EQ(globalIndexOf(scalar, 0), 0);
}

TEST(InputValueTest, HostFillRoundsOnce) {
  TileMap map;
  map.rank = 1;
  map.shape[0] = 64;
  map.globalStrides[0] = 1;
  map.count = 64;
  std::vector<float> f32(64);
  std::vector<uint16_t> f16(64), bf16(64);
  std::vector<double> f64(64);
  fillInputOnHost(f32.data(), SUMMA_DT_F32, map, 5, 2, 0.75, false);
  fillInputOnHost(f16.data(), SUMMA_DT_F16, map, 5, 2, 0.75, false);
  fillInputOnHost(bf16.data(), SUMMA_DT_BF16, map, 5, 2, 0.75, false);
  fillInputOnHost(f64.data(), SUMMA_DT_F64, map, 5, 2, 0.75, false);
  for (int64_t e = 0; e < 64; ++e) {
    double value = summaRtInputValue(5, 2, e) * 0.75;
    EXPECT_EQ(f64[e], value);
    EXPECT_EQ(f32[e], static_cast<float>(value));
    EXPECT_EQ(f16[e], floatToHalf(static_cast<float>(value)));
    EXPECT_EQ(bf16[e], floatToBFloat16(static_cast<float>(value)));
  }
}
