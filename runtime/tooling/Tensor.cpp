//===- Tensor.cpp - a program's validated tensor descriptions ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The checks of analyseTensor (rank, element type, split axes, groups, the
// local size against the global one, byte counts that fit in 64 bits) and
// a tile's block indices and element loads and stores.
//
//===----------------------------------------------------------------------===//

#include "Tensor.h"
#include "Backend.h"

#include "ElementType.h"
#include "Error.h"
#include "GridState.h"
#include "HalfFloat.h"

#include <cmath>

using namespace summa::rt;
using namespace summa::rt::driver;

int64_t Tensor::blockIndex(int dim, const int64_t coords[3]) const {
  int64_t index = 0;
  for (int slot = 0; slot < 3 && desc->splitAxes[dim][slot] >= 0; ++slot) {
    int axis = desc->splitAxes[dim][slot];
    index = index * axisExtent(axis) + coords[axis];
  }
  return index;
}

int64_t Tensor::blockKey(const int64_t coords[3]) const {
  int64_t key = 0;
  for (int dim = 0; dim < rank; ++dim)
    key = key * blocks[dim] + blockIndex(dim, coords);
  return key;
}

double Tensor::load(const void *data, int64_t i) const {
  switch (desc->dtype) {
  case SUMMA_DT_F64:
    return static_cast<const double *>(data)[i];
  case SUMMA_DT_F16:
    return halfToFloat(static_cast<const uint16_t *>(data)[i]);
  case SUMMA_DT_BF16:
    return bfloat16ToFloat(static_cast<const uint16_t *>(data)[i]);
  case SUMMA_DT_I64:
    return static_cast<double>(static_cast<const int64_t *>(data)[i]);
  case SUMMA_DT_I32:
    return static_cast<double>(static_cast<const int32_t *>(data)[i]);
  default:
    return static_cast<const float *>(data)[i];
  }
}

void Tensor::store(void *data, int64_t i, double value) const {
  if (desc->dtype == SUMMA_DT_F64)
    static_cast<double *>(data)[i] = value;
  else if (desc->dtype == SUMMA_DT_I64)
    static_cast<int64_t *>(data)[i] = static_cast<int64_t>(std::floor(value));
  else if (desc->dtype == SUMMA_DT_I32)
    static_cast<int32_t *>(data)[i] = static_cast<int32_t>(std::floor(value));
  // 16-bit floats through float, as the GPU backend's fill rounds them.
  else if (desc->dtype == SUMMA_DT_F16)
    static_cast<uint16_t *>(data)[i] = floatToHalf(static_cast<float>(value));
  else if (desc->dtype == SUMMA_DT_BF16)
    static_cast<uint16_t *>(data)[i] =
        floatToBFloat16(static_cast<float>(value));
  else
    static_cast<float *>(data)[i] = static_cast<float>(value);
}

size_t summa::rt::driver::anyElementSize(const SummaTensorDesc &desc,
                                         const char *role, const char *name) {
  if (size_t size = dtypeSize(desc.dtype))
    return size;
  fatal("summaRtMain: %s '%s' has an invalid element type %d", role, name,
        desc.dtype);
}

Tensor summa::rt::driver::analyseTensor(const SummaTensorDesc &desc,
                                        const char *role, int index,
                                        const Backend &backend) {
  const char *caller = "summaRtMain";
  Tensor tensor;
  tensor.desc = &desc;
  tensor.name =
      desc.name ? desc.name : std::string(role) + " #" + std::to_string(index);
  tensor.fileName = desc.label && *desc.label ? desc.label : tensor.name;
  const char *name = tensor.name.c_str();
  if (desc.rank < 0 || desc.rank > SUMMA_MAX_RANK)
    fatal("%s: %s '%s' has rank %d (expected 0..%d)", caller, role, name,
          desc.rank, SUMMA_MAX_RANK);
  tensor.rank = desc.rank;
  tensor.elementSize = backend.elementSize(desc, role, name);
  if (!std::isfinite(desc.scale))
    fatal("%s: %s '%s' has a non-finite scale", caller, role, name);

  unsigned usedAxes = 0;
  for (int dim = 0; dim < tensor.rank; ++dim) {
    for (int slot = 0; slot < 3; ++slot) {
      int axis = desc.splitAxes[dim][slot];
      if (axis == -1)
        break;
      if (axis < 0 || axis > 2)
        fatal("%s: %s '%s' dimension %d is split by invalid axis %d", caller,
              role, name, dim, axis);
      if (usedAxes & (1u << axis))
        fatal("%s: %s '%s' is split twice by grid axis %d", caller, role, name,
              axis);
      usedAxes |= 1u << axis;
      tensor.blocks[dim] *= axisExtent(axis);
    }
    int64_t local = desc.localShape[dim];
    int64_t groups = desc.groups[dim] <= 0 ? 1 : desc.groups[dim];
    if (groups > 1 && (desc.splitAxes[dim][0] < 0 || local % groups != 0))
      fatal("%s: %s '%s' dimension %d is factored into %lld groups, which "
            "needs a split and a local size (%lld) they divide",
            caller, role, name, dim, (long long)groups, (long long)local);
    tensor.groups[dim] = groups;
    // Blocks of ceil(global / blocks) elements, the last ones padded where
    // the blocks do not divide the dimension (not when factored).
    int64_t global = desc.globalShape[dim], padded = 0;
    if (local < 0 || global < 0 ||
        __builtin_mul_overflow(local, tensor.blocks[dim], &padded) ||
        (groups > 1
             ? padded != global
             : local != (global + tensor.blocks[dim] - 1) / tensor.blocks[dim]))
      fatal("%s: %s '%s' dimension %d: local size %lld is not the global "
            "size %lld over the %lld blocks of its split axes",
            caller, role, name, dim, (long long)local, (long long)global,
            (long long)tensor.blocks[dim]);
    // A tensor whose element or byte count does not fit in 64 bits would
    // wrap around (to a small, wrong count) instead of failing to allocate.
    if (__builtin_mul_overflow(tensor.localCount, local, &tensor.localCount) ||
        __builtin_mul_overflow(tensor.globalCount, global, &tensor.globalCount))
      fatal("%s: %s '%s' has more elements than fit in 64 bits (dimension "
            "%d: local size %lld, global size %lld)",
            caller, role, name, dim, (long long)local, (long long)global);
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(tensor.globalCount,
                             static_cast<int64_t>(tensor.elementSize), &bytes))
    fatal("%s: %s '%s' has %lld elements of %d bytes, more bytes than fit in "
          "64 bits",
          caller, role, name, (long long)tensor.globalCount,
          static_cast<int>(tensor.elementSize));
  int64_t stride = 1;
  for (int dim = tensor.rank - 1; dim >= 0; --dim) {
    tensor.globalStrides[dim] = stride;
    stride *= desc.globalShape[dim];
  }
  return tensor;
}
