//===- KernelDeviceTest.cpp - kernels vs CPU references ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Every kernel of SummaRuntimeKernels.h in f32, f16 and bf16, on shapes that
// take the vector path (aligned, rows a multiple of 16 bytes), the scalar
// path (odd sizes, an element offset) and the tails, in place and not,
// against the double-precision loops of KernelReference.h on the same
// (rounded) inputs. The tolerance is one rounding to the element type plus
// f32 arithmetic, relative to the largest expected magnitude.
//
//===----------------------------------------------------------------------===//

#include "DeviceTestUtil.h"
#include "KernelReference.h"

using namespace summa::gputest;
namespace ref = summa::gputest::reference;

namespace {
struct Shape {
  int64_t rows, cols;
  /// Element offset of every array (0: 256-byte aligned).
  int64_t offset;
};
const Shape kShapes[] = {
    {37, 129, 0}, {64, 256, 0}, {16, 1536, 1}, {3, 1, 0}, {5, 4096, 0}};

std::string traceOf(int32_t dtype, const Shape &s) {
  return std::string(dtypeName(dtype)) + " [" + std::to_string(s.rows) + ", " +
         std::to_string(s.cols) + "] +" + std::to_string(s.offset);
}

double maxAbs(const std::vector<double> &values) {
  double top = 0;
  for (double v : values)
    top = std::max(top, std::fabs(v));
  return top;
}

::testing::AssertionResult closeToReference(const std::vector<double> &actual,
                                            const std::vector<double> &expected,
                                            int32_t dtype) {
  double rtol = storeTolerance(dtype);
  return closeElements(actual, expected, rtol,
                       rtol * std::max(maxAbs(expected), 1e-3));
}
} // namespace

TEST(KernelDeviceTest, BiasActivation) {
  SUMMA_REQUIRE_DEVICE();
  for (int32_t dtype : kKernelTypes)
    for (const Shape &s : kShapes)
      for (int activation :
           {SUMMA_ACT_NONE, SUMMA_ACT_GELU_TANH, SUMMA_ACT_RELU})
        for (bool withBias : {true, false})
          for (bool inPlace : {false, true}) {
            SCOPED_TRACE(traceOf(dtype, s) + " activation " +
                         std::to_string(activation) +
                         (withBias ? " bias" : "") +
                         (inPlace ? " in place" : ""));
            int64_t count = s.rows * s.cols;
            std::vector<double> x = randomValues(count, dtype, 1, -3, 3);
            std::vector<double> bias = randomValues(s.cols, dtype, 2);
            DeviceArray dx(count, dtype, s.offset), db(s.cols, dtype, s.offset),
                dy(count, dtype, s.offset);
            dx.upload(x, s.offset);
            db.upload(bias, s.offset);
            summaRtKernelBiasActivation(
                dtype, dx.at(s.offset), withBias ? db.at(s.offset) : 0,
                inPlace ? dx.at(s.offset) : dy.at(s.offset), s.rows, s.cols,
                activation);
            std::vector<double> expected = ref::biasActivation(
                x, withBias ? &bias : nullptr, s.rows, s.cols, activation);
            const DeviceArray &out = inPlace ? dx : dy;
            EXPECT_TRUE(closeToReference(out.download(s.offset, count),
                                         expected, dtype));
          }
}

TEST(KernelDeviceTest, ActivationBackward) {
  SUMMA_REQUIRE_DEVICE();
  for (int32_t dtype : kKernelTypes)
    for (const Shape &s : kShapes)
      for (int activation : {SUMMA_ACT_GELU_TANH, SUMMA_ACT_RELU}) {
        SCOPED_TRACE(traceOf(dtype, s) + " activation " +
                     std::to_string(activation));
        int64_t count = s.rows * s.cols;
        std::vector<double> dy = randomValues(count, dtype, 3);
        std::vector<double> pre = randomValues(count, dtype, 4, -4, 4);
        DeviceArray ddy(count, dtype, s.offset), dpre(count, dtype, s.offset);
        ddy.upload(dy, s.offset);
        dpre.upload(pre, s.offset);
        // In place: dx overwrites dy.
        summaRtKernelActivationBackward(dtype, activation, ddy.at(s.offset),
                                        dpre.at(s.offset), ddy.at(s.offset),
                                        count);
        EXPECT_TRUE(closeToReference(
            ddy.download(s.offset, count),
            ref::activationBackward(dy, pre, activation), dtype));
      }
}

TEST(KernelDeviceTest, ResidualAddAndScale) {
  SUMMA_REQUIRE_DEVICE();
  for (int32_t dtype : kKernelTypes)
    for (const Shape &s : kShapes) {
      SCOPED_TRACE(traceOf(dtype, s));
      int64_t count = s.rows * s.cols;
      std::vector<double> x = randomValues(count, dtype, 5);
      std::vector<double> r = randomValues(count, dtype, 6);
      DeviceArray dx(count, dtype, s.offset), dr(count, dtype, s.offset),
          dy(count, dtype, s.offset);
      dx.upload(x, s.offset);
      dr.upload(r, s.offset);
      summaRtKernelResidualAdd(dtype, dx.at(s.offset), dr.at(s.offset),
                               dy.at(s.offset), count);
      std::vector<double> sum(count), scaled(count);
      for (int64_t e = 0; e < count; ++e) {
        sum[e] = x[e] + r[e];
        scaled[e] = -0.375 * sum[e];
      }
      EXPECT_TRUE(closeToReference(dy.download(s.offset, count), sum, dtype));
      // In place on the residual, then scale in place (of the rounded sum).
      summaRtKernelResidualAdd(dtype, dx.at(s.offset), dr.at(s.offset),
                               dr.at(s.offset), count);
      std::vector<double> roundedSum = dr.download(s.offset, count);
      EXPECT_TRUE(closeToReference(roundedSum, sum, dtype));
      summaRtKernelScale(dtype, dr.at(s.offset), dr.at(s.offset), count,
                         -0.375);
      for (int64_t e = 0; e < count; ++e)
        scaled[e] = -0.375 * roundedSum[e];
      EXPECT_TRUE(
          closeToReference(dr.download(s.offset, count), scaled, dtype));
    }
}

TEST(KernelDeviceTest, Softmax) {
  SUMMA_REQUIRE_DEVICE();
  struct Case {
    int64_t rows, cols;
    bool causal;
    int64_t rowPeriod, rowOffset;
    double scale;
  };
  const Case cases[] = {
      {37, 129, false, 0, 0, 1.0},
      {64, 1024, false, 0, 0, 0.125},
      // Causal attention: 3 (batch, head) blocks of 16 queries, 16 keys.
      {48, 16, true, 16, 0, 0.25},
      // Queries 8..23 of a longer sequence (keys 0..23).
      {32, 24, true, 16, 8, 0.5},
      // The first rows have no visible key: all zeros.
      {10, 12, true, 0, -3, 1.0},
      // Large values: the row maximum must be subtracted.
      {4, 300, false, 0, 0, 30.0},
  };
  for (int32_t dtype : kKernelTypes)
    for (const Case &c : cases) {
      SCOPED_TRACE(std::string(dtypeName(dtype)) + " [" +
                   std::to_string(c.rows) + ", " + std::to_string(c.cols) +
                   "] causal " + std::to_string(c.causal) + " offset " +
                   std::to_string(c.rowOffset));
      int64_t count = c.rows * c.cols;
      std::vector<double> x = randomValues(count, dtype, 7, -2, 2);
      DeviceArray dx(x, dtype);
      summaRtKernelSoftmax(dtype, dx.at(), dx.at(), c.rows, c.cols, c.scale,
                           c.causal, c.rowPeriod, c.rowOffset);
      std::vector<double> y = dx.download();
      std::vector<double> expected = ref::softmax(
          x, c.rows, c.cols, c.scale, c.causal, c.rowPeriod, c.rowOffset);
      EXPECT_TRUE(closeElements(y, expected, storeTolerance(dtype),
                                storeTolerance(dtype) * 1e-2));
      // Masked entries are exactly zero, rows sum to one (or zero).
      for (int64_t r = 0; r < c.rows; ++r) {
        double sum = 0, expectedSum = 0;
        for (int64_t col = 0; col < c.cols; ++col) {
          sum += y[r * c.cols + col];
          expectedSum += expected[r * c.cols + col];
          if (expected[r * c.cols + col] == 0.0 && c.causal)
            ASSERT_EQ(y[r * c.cols + col], 0.0) << r << ", " << col;
        }
        EXPECT_NEAR(sum, expectedSum, 2 * storeTolerance(dtype)) << "row " << r;
      }
    }
}

TEST(KernelDeviceTest, SoftmaxBackward) {
  SUMMA_REQUIRE_DEVICE();
  for (int32_t dtype : kKernelTypes)
    for (const Shape &s : kShapes) {
      SCOPED_TRACE(traceOf(dtype, s));
      int64_t count = s.rows * s.cols;
      double scale = 0.5;
      // y from the reference softmax (rounded), dy random.
      std::vector<double> y = ref::softmax(randomValues(count, dtype, 8),
                                           s.rows, s.cols, 1.0, false, 0, 0);
      for (double &v : y)
        v = roundTo(v, dtype);
      std::vector<double> dy = randomValues(count, dtype, 9);
      DeviceArray dyDevice(count, dtype, s.offset),
          yDevice(count, dtype, s.offset);
      dyDevice.upload(dy, s.offset);
      yDevice.upload(y, s.offset);
      summaRtKernelSoftmaxBackward(dtype, yDevice.at(s.offset),
                                   dyDevice.at(s.offset), dyDevice.at(s.offset),
                                   s.rows, s.cols, scale);
      EXPECT_TRUE(closeToReference(
          dyDevice.download(s.offset, count),
          ref::softmaxBackward(y, dy, s.rows, s.cols, scale), dtype));
    }
}

TEST(KernelDeviceTest, LayerNormForward) {
  SUMMA_REQUIRE_DEVICE();
  for (int32_t dtype : kKernelTypes)
    for (const Shape &s : kShapes)
      for (bool affine : {true, false}) {
        SCOPED_TRACE(traceOf(dtype, s) + (affine ? " affine" : ""));
        int64_t count = s.rows * s.cols;
        // An offset mean: a one-pass variance would cancel.
        std::vector<double> x = randomValues(count, dtype, 10, 3, 5);
        std::vector<double> gamma = randomValues(s.cols, dtype, 11, 0.5, 1.5);
        std::vector<double> beta = randomValues(s.cols, dtype, 12);
        DeviceArray dx(count, dtype, s.offset), dg(gamma, dtype),
            db(beta, dtype), mean(s.rows, SUMMA_DT_F32),
            rstd(s.rows, SUMMA_DT_F32);
        dx.upload(x, s.offset);
        double eps = 1e-5;
        summaRtKernelLayerNorm(dtype, dx.at(s.offset), affine ? dg.at() : 0,
                               affine ? db.at() : 0, dx.at(s.offset), mean.at(),
                               rstd.at(), s.rows, s.cols, eps);
        ref::LayerNormResult expected =
            ref::layerNorm(x, affine ? &gamma : nullptr,
                           affine ? &beta : nullptr, s.rows, s.cols, eps);
        if (s.cols == 1) {
          // Zero variance: y = beta exactly.
          EXPECT_TRUE(
              closeElements(dx.download(s.offset, count), expected.y, 0, 1e-6));
        } else {
          EXPECT_TRUE(closeToReference(dx.download(s.offset, count), expected.y,
                                       dtype));
        }
        EXPECT_TRUE(closeElements(mean.download(), expected.mean, 1e-5, 0));
        EXPECT_TRUE(closeElements(rstd.download(), expected.rstd, 1e-4, 0));
      }
}

TEST(KernelDeviceTest, LayerNormBackward) {
  SUMMA_REQUIRE_DEVICE();
  const Shape shapes[] = {{37, 129, 0}, {300, 64, 0}, {16, 1536, 1}, {1, 8, 0}};
  for (int32_t dtype : kKernelTypes)
    for (const Shape &s : shapes)
      for (bool affine : {true, false})
        for (bool inPlace : {false, true}) {
          SCOPED_TRACE(traceOf(dtype, s) + (affine ? " affine" : "") +
                       (inPlace ? " in place" : ""));
          int64_t count = s.rows * s.cols;
          double eps = 1e-5;
          std::vector<double> x = randomValues(count, dtype, 13, -2, 2);
          std::vector<double> dy = randomValues(count, dtype, 14);
          std::vector<double> gamma = randomValues(s.cols, dtype, 15, 0.5, 1.5);
          DeviceArray dxIn(count, dtype, s.offset), ddy(count, dtype, s.offset),
              dg(gamma, dtype), mean(s.rows, SUMMA_DT_F32),
              rstd(s.rows, SUMMA_DT_F32), dout(count, dtype, s.offset),
              dgamma(s.cols, dtype), dbeta(s.cols, dtype);
          dxIn.upload(x, s.offset);
          ddy.upload(dy, s.offset);
          // mean and rstd from the forward kernel, as in a training step.
          DeviceArray y(count, dtype, s.offset);
          summaRtKernelLayerNorm(dtype, dxIn.at(s.offset), 0, 0, y.at(s.offset),
                                 mean.at(), rstd.at(), s.rows, s.cols, eps);
          intptr_t dx = inPlace ? ddy.at(s.offset) : dout.at(s.offset);
          summaRtKernelLayerNormBackward(
              dtype, ddy.at(s.offset), dxIn.at(s.offset), affine ? dg.at() : 0,
              mean.at(), rstd.at(), dx, dgamma.at(), dbeta.at(), s.rows,
              s.cols);
          ref::LayerNormGrads expected = ref::layerNormBackward(
              dy, x, affine ? &gamma : nullptr, s.rows, s.cols, eps);
          const DeviceArray &dxArray = inPlace ? ddy : dout;
          EXPECT_TRUE(closeToReference(dxArray.download(s.offset, count),
                                       expected.dx, dtype));
          EXPECT_TRUE(
              closeToReference(dgamma.download(), expected.dgamma, dtype));
          EXPECT_TRUE(
              closeToReference(dbeta.download(), expected.dbeta, dtype));
        }
}

TEST(KernelDeviceTest, EmptyShapesLaunchNothing) {
  SUMMA_REQUIRE_DEVICE();
  summaRtKernelBiasActivation(SUMMA_DT_F32, 0, 0, 0, 0, 16, SUMMA_ACT_RELU);
  summaRtKernelResidualAdd(SUMMA_DT_BF16, 0, 0, 0, 0);
  summaRtKernelSoftmax(SUMMA_DT_F16, 0, 0, 0, 8, 1.0, 1, 0, 0);
  summaRtKernelLayerNorm(SUMMA_DT_F32, 0, 0, 0, 0, 0, 0, 0, 8, 1e-5);
  summaRtKernelLayerNormBackward(SUMMA_DT_F32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8);
  summaRtSynchronize();
}
