//===- Backend.cpp - host memory as a backend -------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Input values are a pure function of (seed, input number, global index)
// (summaRtInputValue), so the tiles of the spmd run and the whole tensors of
// the reference agree without moving inputs between ranks: fillHost computes
// them in host memory, the GPU backend on the device.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"

#include "Error.h"
#include "SplitMix64.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

using namespace summa::rt;
using namespace summa::rt::driver;

float summaRtInputValue(uint64_t seed, int32_t tensor, int64_t globalIndex) {
  return inputValue(seed, tensor, globalIndex);
}

void summa::rt::driver::fillHost(const Tensor &tensor, int index, uint64_t seed,
                                 const int64_t *coords, void *data) {
  double scale = tensor.desc->scale;
  bool nonnegative = tensor.desc->init == SUMMA_INIT_NONNEGATIVE;
  if (tensor.desc->init == SUMMA_INIT_ZEROS) {
    std::memset(data, 0, coords ? tensor.localBytes() : tensor.globalBytes());
    return;
  }
  tensor.forEachElement(coords, [&](int64_t local, int64_t global) {
    double value = summaRtInputValue(seed, index, global);
    // [-1, 1) -> [0, 1) for tensors that must not be negative.
    if (nonnegative)
      value = 0.5 * (value + 1.0);
    tensor.store(data, local, value * scale);
  });
}

namespace {
void hostCopy(void *dst, const void *src, size_t bytes) {
  std::memcpy(dst, src, bytes);
}
} // namespace

const Backend &summa::rt::driver::hostBackend() {
  static const Backend host = {
      /*usageWhere=*/"",
      /*usageEnvironment=*/"",
      anyElementSize,
      /*announce=*/nullptr,
      allocateHost,
      std::free,
      fillHost,
      hostCopy,
      /*toHost=*/nullptr,
      /*fromHost=*/nullptr,
      /*settle=*/nullptr,
  };
  return host;
}

void *summa::rt::driver::allocateHost(size_t bytes, const std::string &what) {
  size_t rounded = std::max<size_t>(64, (bytes + 63) / 64 * 64);
  void *data =
      bytes > SIZE_MAX - 63 ? nullptr : std::aligned_alloc(64, rounded);
  if (!data)
    fatal("summaRtMain: cannot allocate %zu bytes for %s (out of memory)",
          bytes, what.c_str());
  std::memset(data, 0, rounded);
  return data;
}

/// Copies `bytes` of host memory into a backend buffer.
void summa::rt::driver::upload(const Backend &backend, void *buffer,
                               const void *host, size_t bytes) {
  if (bytes == 0)
    return;
  if (backend.fromHost)
    backend.fromHost(buffer, host, bytes);
  else
    std::memcpy(buffer, host, bytes);
}
