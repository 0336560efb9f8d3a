//===- KernelReference.h - CPU references of the GPU kernels ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Straightforward double-precision loops for every kernel of
// SummaRuntimeKernels.h, written from the header's definitions (not from the
// CUDA code), on row-major [rows, cols] arrays.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_TEST_KERNELREFERENCE_H
#define SUMMA_RUNTIME_GPU_TEST_KERNELREFERENCE_H

#include "summa/Runtime/SummaRuntimeKernels.h"

#include <cmath>
#include <limits>
#include <vector>

namespace summa::gputest::reference {

using Values = std::vector<double>;

inline double activate(double x, int activation) {
  switch (activation) {
  case SUMMA_ACT_GELU_TANH:
    return 0.5 * x *
           (1.0 +
            std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
  case SUMMA_ACT_RELU:
    return x > 0 ? x : 0.0;
  default:
    return x;
  }
}

inline double activationDerivative(double x, int activation) {
  if (activation == SUMMA_ACT_RELU)
    return x > 0 ? 1.0 : 0.0;
  double c = std::sqrt(2.0 / M_PI);
  double u = c * (x + 0.044715 * x * x * x);
  double t = std::tanh(u);
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c * (1 + 3 * 0.044715 * x * x);
}

inline Values biasActivation(const Values &x, const Values *bias, int64_t rows,
                             int64_t cols, int activation) {
  Values y(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      y[r * cols + c] =
          activate(x[r * cols + c] + (bias ? (*bias)[c] : 0.0), activation);
  return y;
}

inline Values activationBackward(const Values &dy, const Values &pre,
                                 int activation) {
  Values dx(dy.size());
  for (size_t e = 0; e < dy.size(); ++e)
    dx[e] = dy[e] * activationDerivative(pre[e], activation);
  return dx;
}

inline Values softmax(const Values &x, int64_t rows, int64_t cols, double scale,
                      bool causal, int64_t rowPeriod, int64_t rowOffset) {
  Values y(rows * cols, 0.0);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t query = rowOffset + (rowPeriod > 0 ? r % rowPeriod : r);
    auto masked = [&](int64_t c) { return causal && c > query; };
    double top = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < cols; ++c)
      if (!masked(c))
        top = std::max(top, scale * x[r * cols + c]);
    if (std::isinf(top))
      continue; // every element masked: zeros
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      if (!masked(c))
        sum += std::exp(scale * x[r * cols + c] - top);
    for (int64_t c = 0; c < cols; ++c)
      y[r * cols + c] =
          masked(c) ? 0.0 : std::exp(scale * x[r * cols + c] - top) / sum;
  }
  return y;
}

inline Values softmaxBackward(const Values &y, const Values &dy, int64_t rows,
                              int64_t cols, double scale) {
  Values dx(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    double dot = 0;
    for (int64_t c = 0; c < cols; ++c)
      dot += dy[r * cols + c] * y[r * cols + c];
    for (int64_t c = 0; c < cols; ++c)
      dx[r * cols + c] = scale * y[r * cols + c] * (dy[r * cols + c] - dot);
  }
  return dx;
}

struct LayerNormResult {
  Values y, mean, rstd;
};

inline LayerNormResult layerNorm(const Values &x, const Values *gamma,
                                 const Values *beta, int64_t rows, int64_t cols,
                                 double eps) {
  LayerNormResult result{Values(rows * cols), Values(rows), Values(rows)};
  for (int64_t r = 0; r < rows; ++r) {
    double mean = 0;
    for (int64_t c = 0; c < cols; ++c)
      mean += x[r * cols + c];
    mean /= cols;
    double var = 0;
    for (int64_t c = 0; c < cols; ++c)
      var += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
    var /= cols;
    double rstd = 1.0 / std::sqrt(var + eps);
    result.mean[r] = mean;
    result.rstd[r] = rstd;
    for (int64_t c = 0; c < cols; ++c)
      result.y[r * cols + c] =
          (x[r * cols + c] - mean) * rstd * (gamma ? (*gamma)[c] : 1.0) +
          (beta ? (*beta)[c] : 0.0);
  }
  return result;
}

struct LayerNormGrads {
  Values dx, dgamma, dbeta;
};

/// The gradients of layerNorm (with mean and rstd recomputed in double).
inline LayerNormGrads layerNormBackward(const Values &dy, const Values &x,
                                        const Values *gamma, int64_t rows,
                                        int64_t cols, double eps) {
  LayerNormResult forward = layerNorm(x, nullptr, nullptr, rows, cols, eps);
  LayerNormGrads grads{Values(rows * cols), Values(cols, 0.0),
                       Values(cols, 0.0)};
  for (int64_t r = 0; r < rows; ++r) {
    double sumG = 0, sumGX = 0;
    for (int64_t c = 0; c < cols; ++c) {
      double xhat = forward.y[r * cols + c];
      double g = dy[r * cols + c] * (gamma ? (*gamma)[c] : 1.0);
      sumG += g;
      sumGX += g * xhat;
      grads.dgamma[c] += dy[r * cols + c] * xhat;
      grads.dbeta[c] += dy[r * cols + c];
    }
    for (int64_t c = 0; c < cols; ++c) {
      double xhat = forward.y[r * cols + c];
      double g = dy[r * cols + c] * (gamma ? (*gamma)[c] : 1.0);
      grads.dx[r * cols + c] =
          forward.rstd[r] * (g - sumG / cols - xhat * sumGX / cols);
    }
  }
  return grads;
}

} // namespace summa::gputest::reference

#endif // SUMMA_RUNTIME_GPU_TEST_KERNELREFERENCE_H
