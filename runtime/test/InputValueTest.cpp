//===- InputValueTest.cpp - deterministic input values ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cmath>
#include <set>

TEST(InputValueTest, IsAPureFunction) {
  for (int64_t index :
       {int64_t(0), int64_t(1), int64_t(123456789), int64_t(1) << 40})
    EXPECT_EQ(summaRtInputValue(42, 3, index), summaRtInputValue(42, 3, index));
  EXPECT_NE(summaRtInputValue(42, 0, 0), summaRtInputValue(43, 0, 0));
  EXPECT_NE(summaRtInputValue(42, 0, 0), summaRtInputValue(42, 1, 0));
  EXPECT_NE(summaRtInputValue(42, 0, 0), summaRtInputValue(42, 0, 1));
}

TEST(InputValueTest, KnownValues) {
  // Pins the function (SummaRuntime.h documents it): other backends and
  // generated code must produce the same inputs.
  struct Golden {
    uint64_t seed;
    int32_t tensor;
    int64_t index;
    float value;
  };
  const Golden golden[] = {
      {42, 0, 0, -0x1.cef41p-3f},
      {42, 0, 1, 0x1.b4177p-2f},
      {42, 1, 0, 0x1.3be84p-3f},
      {43, 0, 0, 0x1.bb6c9p-3f},
      {0, 3, 123456789, 0x1.490cp-5f},
      {42, 2, int64_t(1) << 40, -0x1.453c24p-1f},
  };
  for (const Golden &g : golden)
    EXPECT_EQ(summaRtInputValue(g.seed, g.tensor, g.index), g.value)
        << "seed " << g.seed << ", tensor " << g.tensor << ", index "
        << g.index;
}

TEST(InputValueTest, UniformInMinusOneToOne) {
  const int64_t samples = 200000;
  double sum = 0, sumSq = 0;
  float lowest = 1, highest = -1;
  std::set<float> distinct;
  for (int64_t e = 0; e < samples; ++e) {
    float value = summaRtInputValue(42, 1, e);
    ASSERT_GE(value, -1.0f);
    ASSERT_LT(value, 1.0f);
    // A multiple of 2^-23.
    ASSERT_EQ(std::ldexp(double(value), 23),
              std::floor(std::ldexp(double(value), 23)));
    lowest = std::min(lowest, value);
    highest = std::max(highest, value);
    sum += value;
    sumSq += double(value) * value;
    distinct.insert(value);
  }
  double mean = sum / samples;
  double variance = sumSq / samples - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.01);
  EXPECT_NEAR(variance, 1.0 / 3.0, 0.01);
  EXPECT_LT(lowest, -0.999f);
  EXPECT_GT(highest, 0.999f);
  EXPECT_GT(distinct.size(), size_t(samples * 99 / 100));
}

TEST(InputValueTest, StreamsAreUncorrelated) {
  // Neighbouring seeds, tensors and indices give unrelated values.
  const int64_t samples = 50000;
  double crossSeed = 0, crossTensor = 0, crossIndex = 0;
  for (int64_t e = 0; e < samples; ++e) {
    double base = summaRtInputValue(42, 0, e);
    crossSeed += base * summaRtInputValue(43, 0, e);
    crossTensor += base * summaRtInputValue(42, 1, e);
    crossIndex += base * summaRtInputValue(42, 0, e + 1);
  }
  // Each mean product has standard deviation 1/(3*sqrt(samples)) ~ 0.0015.
  EXPECT_NEAR(crossSeed / samples, 0.0, 0.01);
  EXPECT_NEAR(crossTensor / samples, 0.0, 0.01);
  EXPECT_NEAR(crossIndex / samples, 0.0, 0.01);
}
