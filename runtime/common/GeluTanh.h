//===- GeluTanh.h - GeLU in the tanh form, host and device ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The activation of summaRtMatmulEpilogue (SummaRuntime.h, activation 1),
// written once for the CPU backend's epilogue (cpu/Blas.cpp) and the GPU
// backend's fallback kernel (gpu/Epilogue.cu).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_GELUTANH_H
#define SUMMA_RUNTIME_COMMON_GELUTANH_H

#include "HostDevice.h"

#include <cmath>
#include <type_traits>

namespace summa::rt {

/// x/2 · (1 + tanh(√(2/π) · (x + 0.044715 x³))), computed in T (float or
/// double).
template <typename T>
SUMMA_HOST_DEVICE inline T geluTanh(T x) {
  static_assert(std::is_floating_point_v<T>, "GeLU is computed in float or "
                                             "double");
  T inner = T(0.7978845608028654) * (x + T(0.044715) * x * x * x);
#if defined(__CUDA_ARCH__)
  T t;
  if constexpr (std::is_same_v<T, float>)
    t = tanhf(inner);
  else
    t = tanh(inner);
#else
  T t = std::tanh(inner);
#endif
  return T(0.5) * x * (T(1) + t);
}

} // namespace summa::rt

#endif // SUMMA_RUNTIME_COMMON_GELUTANH_H
