//===- FiniteDifferences.h - a gradient against its loss --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The numerical core of --gradcheck, for the binary (runtime/tooling/
// Gradcheck.cpp) and for summa-opt's test mode (test/lib): one parameter's
// derived gradient against central finite differences of the loss along
// random unit directions (torch.autograd.gradcheck's fast mode, JAX's
// check_grads). For a direction v the central differences at steps h and
// h/2 are extrapolated (Richardson: (4 D(h/2) - D(h)) / 3, error O(h^4)), so
// the step can be large enough that the loss's rounding divided by it stays
// far below the tolerance. No MPI, no MLIR: values are read and written
// through callbacks.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_FINITEDIFFERENCES_H
#define SUMMA_RUNTIME_COMMON_FINITEDIFFERENCES_H

#include "SplitMix64.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

namespace summa::rt {

/// The step and the tolerances: in f64 the loss rounds at ~1e-14 of its
/// size, so the extrapolated difference over a step of 1e-3 is good to
/// ~1e-11 of it; directional derivatives below `floor` times max(1, |L|)
/// (zero in exact arithmetic: a bias before a softmax) are compared against
/// it instead of themselves. In f32 everything is coarser.
struct FiniteDifferenceSettings {
  double step, tolerance, floor;
  static FiniteDifferenceSettings forF64(bool f64) {
    return f64 ? FiniteDifferenceSettings{1e-3, 1e-5, 1e-6}
               : FiniteDifferenceSettings{1e-2, 2e-2, 1e-2};
  }
};

/// One parameter as the check sees it: `count` elements read and written
/// through `get` and `set`, its derived gradient through `gradient`, and a
/// row of `rowSize` elements the directions leave still (`frozenRow`, -1:
/// none; an embedding's padding row, whose gradient is zero by definition).
struct FiniteDifferenceParameter {
  int64_t count = 0;
  std::function<double(int64_t)> get;
  std::function<void(int64_t, double)> set;
  std::function<double(int64_t)> gradient;
  int64_t frozenRow = -1;
  int64_t rowSize = 1;
};

struct FiniteDifferenceResult {
  /// The worst |fd - ad| / max(|fd|, |ad|, floor) over the directions.
  double worst = 0;
  /// The L2 norm of the derived gradient.
  double gradientNorm = 0;
  /// Whether the gradient and every difference are finite.
  bool finite = true;
};

/// A standard normal value, a pure function of (seed, parameter, direction,
/// element): Box-Muller on two draws of the inputs' hash.
inline double directionValue(uint64_t seed, int param, int direction,
                             int64_t element) {
  uint64_t key = splitMix64(seed ^ (static_cast<uint64_t>(param) << 32) ^
                            static_cast<uint64_t>(direction));
  double u1 = 0.5 * (inputValue(key, 0, element) + 1.0);
  double u2 = 0.5 * (inputValue(key, 1, element) + 1.0);
  u1 = std::max(u1, 1e-12);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
}

/// Checks parameter number `index` (`p`) along `directions` random unit
/// directions; `loss` evaluates the loss at the parameter's current values,
/// `loss0` is its value at the starting point. The parameter is left as it
/// was.
inline FiniteDifferenceResult
checkParameter(const FiniteDifferenceParameter &p, int index,
               const std::function<double()> &loss, double loss0, uint64_t seed,
               int64_t directions, const FiniteDifferenceSettings &settings) {
  FiniteDifferenceResult result;
  std::vector<double> saved(p.count);
  for (int64_t e = 0; e < p.count; ++e) {
    saved[e] = p.get(e);
    double g = p.gradient(e);
    result.finite &= std::isfinite(g);
    result.gradientNorm += g * g;
  }
  result.gradientNorm = std::sqrt(result.gradientNorm);
  double floor = settings.floor * std::max(1.0, std::fabs(loss0));
  std::vector<double> v(p.count);
  for (int64_t dir = 0; dir < directions && result.finite; ++dir) {
    double norm = 0;
    for (int64_t e = 0; e < p.count; ++e) {
      bool still = p.frozenRow >= 0 && e / p.rowSize == p.frozenRow;
      v[e] =
          still ? 0.0 : directionValue(seed, index, static_cast<int>(dir), e);
      norm += v[e] * v[e];
    }
    if (norm == 0)
      continue;
    norm = std::sqrt(norm);
    double analytic = 0;
    for (int64_t e = 0; e < p.count; ++e) {
      v[e] /= norm;
      analytic += p.gradient(e) * v[e];
    }
    auto central = [&](double step) {
      for (int64_t e = 0; e < p.count; ++e)
        p.set(e, saved[e] + step * v[e]);
      double plus = loss();
      for (int64_t e = 0; e < p.count; ++e)
        p.set(e, saved[e] - step * v[e]);
      double minus = loss();
      return (plus - minus) / (2 * step);
    };
    double numeric =
        (4 * central(settings.step / 2) - central(settings.step)) / 3;
    for (int64_t e = 0; e < p.count; ++e)
      p.set(e, saved[e]);
    if (!std::isfinite(numeric)) {
      result.finite = false;
      break;
    }
    double scale = std::max({std::fabs(numeric), std::fabs(analytic), floor});
    result.worst =
        std::max(result.worst, std::fabs(numeric - analytic) / scale);
  }
  return result;
}

} // namespace summa::rt

#endif // SUMMA_RUNTIME_COMMON_FINITEDIFFERENCES_H
