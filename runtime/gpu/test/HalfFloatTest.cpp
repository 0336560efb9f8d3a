//===- HalfFloatTest.cpp - f16 and bf16 conversions on the host -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Known values and properties here; HalfFloatDeviceTest.cu compares every
// conversion with CUDA's own on a GPU.
//
//===----------------------------------------------------------------------===//

#include "HalfFloat.h"
#include "HostTestUtil.h"

#include <cmath>
#include <limits>

using namespace summa::gpu;

TEST(HalfFloatTest, HalfKnownValues) {
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(0.5f), 0x3800);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  // 65520 is halfway to 65536 (not representable): rounds to infinity.
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);
  EXPECT_EQ(floatToHalf(1e10f), 0x7c00);
  EXPECT_EQ(floatToHalf(-std::numeric_limits<float>::infinity()), 0xfc00);
  // Subnormals: 2^-24 is the smallest; 2^-25 is a tie and rounds to 0 (even).
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);
  EXPECT_EQ(floatToHalf(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(3.0f, -25)), 0x0002); // tie to even
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400); // smallest normal
  // Round to nearest even between 1 and 1 + 2^-10.
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(3.0f, -11)), 0x3c02);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)),
            0x3c01);
  uint16_t nan = floatToHalf(std::numeric_limits<float>::quiet_NaN());
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x03ff, 0);
}

TEST(HalfFloatTest, HalfRoundTripsEveryValue) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    auto half = static_cast<uint16_t>(bits);
    float value = halfToFloat(half);
    if (std::isnan(value)) {
      EXPECT_EQ(half & 0x7c00, 0x7c00);
      continue;
    }
    ASSERT_EQ(floatToHalf(value), half) << std::hex << bits;
  }
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0x03ff), std::ldexp(1023.0f, -24));
  EXPECT_EQ(halfToFloat(0x7bff), 65504.0f);
  EXPECT_TRUE(std::isinf(halfToFloat(0x7c00)));
}

TEST(HalfFloatTest, HalfRoundsToNearest) {
  // Every float between consecutive halves goes to the nearer one.
  for (uint32_t bits = 0x0000; bits < 0x7bff; bits += 97) {
    float low = halfToFloat(static_cast<uint16_t>(bits));
    float high = halfToFloat(static_cast<uint16_t>(bits + 1));
    float mid = 0.5f * (low + high);
    EXPECT_EQ(floatToHalf(std::nextafter(mid, low)), bits);
    EXPECT_EQ(floatToHalf(std::nextafter(mid, high)), bits + 1);
    EXPECT_EQ(floatToHalf(mid), (bits & 1) ? bits + 1 : bits);
  }
}

TEST(HalfFloatTest, BFloat16) {
  EXPECT_EQ(floatToBFloat16(1.0f), 0x3f80);
  EXPECT_EQ(floatToBFloat16(-2.0f), 0xc000);
  EXPECT_EQ(bfloat16ToFloat(0x3f80), 1.0f);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even (1).
  EXPECT_EQ(floatToBFloat16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
  EXPECT_EQ(floatToBFloat16(1.0f + std::ldexp(3.0f, -8)), 0x3f82);
  EXPECT_EQ(
      floatToBFloat16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)),
      0x3f81);
  EXPECT_EQ(floatToBFloat16(std::numeric_limits<float>::max()), 0x7f80);
  uint16_t nan = floatToBFloat16(std::numeric_limits<float>::quiet_NaN());
  EXPECT_TRUE(std::isnan(bfloat16ToFloat(nan)));
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    float value = bfloat16ToFloat(static_cast<uint16_t>(bits));
    if (!std::isnan(value))
      ASSERT_EQ(floatToBFloat16(value), bits) << std::hex << bits;
  }
}
