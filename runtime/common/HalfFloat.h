//===- HalfFloat.h - f16 and bf16 bit conversions on the host ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// IEEE binary16 (f16) and bfloat16 (bf16) from and to float, by bit
// manipulation, round to nearest even, exactly as CUDA's __float2half_rn /
// __float2bfloat16_rn and their inverses. Used where 16-bit values are handled
// on the host: the drivers' comparison with the reference (tooling/Check.cpp),
// the MPI reductions of the GPU backend's one-GPU test mode, and the tests'
// CPU references. No CUDA header is needed.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_HALFFLOAT_H
#define SUMMA_RUNTIME_COMMON_HALFFLOAT_H

#include <cstdint>
#include <cstring>

namespace summa::rt {

inline uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

inline float floatFromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// bf16 -> float is exact: the bf16 bits are the float's upper half.
inline float bfloat16ToFloat(uint16_t bits) {
  return floatFromBits(static_cast<uint32_t>(bits) << 16);
}

/// float -> bf16, round to nearest even; NaN stays a (quiet) NaN.
inline uint16_t floatToBFloat16(float value) {
  uint32_t bits = floatBits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  uint32_t lsb = (bits >> 16) & 1u;
  bits += 0x7fffu + lsb;
  return static_cast<uint16_t>(bits >> 16);
}

/// f16 -> float is exact (subnormals included).
inline float halfToFloat(uint16_t half) {
  uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
  uint32_t exponent = (half >> 10) & 0x1fu;
  uint32_t mantissa = half & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {
    // Subnormal: normalise.
    int shift = 0;
    while (!(mantissa & 0x400u)) {
      mantissa <<= 1;
      ++shift;
    }
    mantissa &= 0x3ffu;
    bits = sign | (static_cast<uint32_t>(113 - shift) << 23) | (mantissa << 13);
  }
  return floatFromBits(bits);
}

/// float -> f16, round to nearest even, overflow to infinity, NaN to NaN.
inline uint16_t floatToHalf(float value) {
  uint32_t bits = floatBits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) // NaN
    return static_cast<uint16_t>(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu));
  if (magnitude >= 0x477ff000u) // rounds to >= 65520: infinity
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (magnitude >= 0x38800000u) { // normal f16 (>= 2^-14)
    uint32_t lsb = (magnitude >> 13) & 1u;
    uint32_t rounded = magnitude + 0xfffu + lsb;
    return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
  }
  if (magnitude < 0x33000000u) // below half the smallest subnormal: zero
    return sign;
  // Subnormal f16: shift the full mantissa, round to nearest even.
  uint32_t exponent = magnitude >> 23;
  uint32_t mantissa = (magnitude & 0x7fffffu) | 0x800000u;
  uint32_t shift = 126 - exponent; // 14..24
  uint32_t result = mantissa >> shift;
  uint32_t remainder = mantissa & ((1u << shift) - 1);
  uint32_t halfway = 1u << (shift - 1);
  if (remainder > halfway || (remainder == halfway && (result & 1u)))
    ++result;
  return static_cast<uint16_t>(sign | result);
}

} // namespace summa::rt

namespace summa::gpu {
using rt::bfloat16ToFloat;
using rt::floatBits;
using rt::floatFromBits;
using rt::floatToBFloat16;
using rt::floatToHalf;
using rt::halfToFloat;
} // namespace summa::gpu

#endif // SUMMA_RUNTIME_COMMON_HALFFLOAT_H
