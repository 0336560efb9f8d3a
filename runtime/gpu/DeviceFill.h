//===- DeviceFill.h - input tiles filled on the device ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The GPU driver fills every input tile where it lives, on the device, from
// the hash of InputValue.h: no input crosses the PCIe bus, and the tiles hold
// exactly what the CPU backend would compute (rounded once from float to
// f16 / bf16, as fillInputOnHost does for the tests and the comparison).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_DEVICEFILL_H
#define SUMMA_RUNTIME_GPU_DEVICEFILL_H

#include "HalfFloat.h"
#include "InputValue.h"

#include "summa/Runtime/SummaRuntime.h"

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstring>

namespace summa::gpu {

/// Fills the `map.count` elements of `data` (device memory, element type
/// `dtype`) on `stream`.
SUMMA_RT_EXPORT void fillInputOnDevice(void *data, int32_t dtype,
                                       const TileMap &map, uint64_t seed,
                                       int32_t tensor, double scale,
                                       bool nonnegative, cudaStream_t stream);

/// The host twin of fillInputOnDevice, bit for bit.
inline void fillInputOnHost(void *data, int32_t dtype, const TileMap &map,
                            uint64_t seed, int32_t tensor, double scale,
                            bool nonnegative) {
  for (int64_t i = 0; i < map.count; ++i) {
    int64_t global = globalIndexOf(map, i);
    double value =
        global < 0 ? 0.0
                   : scaledInputValue(seed, tensor, global, scale, nonnegative);
    switch (dtype) {
    case SUMMA_DT_F64:
      static_cast<double *>(data)[i] = value;
      break;
    case SUMMA_DT_F16:
      static_cast<uint16_t *>(data)[i] = floatToHalf(static_cast<float>(value));
      break;
    case SUMMA_DT_BF16:
      static_cast<uint16_t *>(data)[i] =
          floatToBFloat16(static_cast<float>(value));
      break;
    case SUMMA_DT_I64:
      static_cast<int64_t *>(data)[i] = static_cast<int64_t>(std::floor(value));
      break;
    case SUMMA_DT_I32:
      static_cast<int32_t *>(data)[i] = static_cast<int32_t>(std::floor(value));
      break;
    default:
      static_cast<float *>(data)[i] = static_cast<float>(value);
      break;
    }
  }
}

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_DEVICEFILL_H
