//===- Tensor.h - a program's validated tensor descriptions -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// A SummaTensorDesc checked once (analyseTensor) and what the harness asks of
// it: the element counts and bytes of a tile and of the whole tensor, the
// block a rank holds, the walk from a tile's elements to their places in the
// whole tensor (forEachElement), and one element read or written in any
// element type of the ABI.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_TENSOR_H
#define SUMMA_RUNTIME_TOOLING_TENSOR_H

#include "summa/Runtime/SummaRuntime.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace summa::rt::driver {

struct Backend;

/// A validated SummaTensorDesc.
struct SUMMA_RT_EXPORT Tensor {
  const SummaTensorDesc *desc = nullptr;
  std::string name;
  /// The name in tensor files (--inputs, --outputs, --checkpoint): the
  /// function's (SummaTensorDesc::label), else `name`; an output that
  /// updates an input takes the input's.
  std::string fileName;
  size_t elementSize = 0;
  int rank = 0;
  int64_t localCount = 1;
  int64_t globalCount = 1;
  int64_t globalStrides[SUMMA_MAX_RANK] = {0, 0, 0, 0};
  /// Number of blocks along each dimension.
  int64_t blocks[SUMMA_MAX_RANK] = {1, 1, 1, 1};
  /// Number of groups each dimension is factored into (SummaTensorDesc).
  int64_t groups[SUMMA_MAX_RANK] = {1, 1, 1, 1};

  size_t localBytes() const { return localCount * elementSize; }
  size_t globalBytes() const { return globalCount * elementSize; }

  /// The block index along `dim` of the rank at `coords`: the mixed-radix
  /// number of its coordinates on the split axes, outer to inner.
  int64_t blockIndex(int dim, const int64_t coords[3]) const;

  /// The linear index of the block that the rank at `coords` holds.
  int64_t blockKey(const int64_t coords[3]) const;

  /// Calls fn(localLinearIndex, globalLinearIndex) for every element of the
  /// tile held at `coords` (or, with coords == nullptr, of the whole tensor)
  /// that is not padding (a dimension split unevenly: the last blocks run
  /// past the tensor's end).
  template <typename Fn>
  void forEachElement(const int64_t *coords, Fn fn) const {
    const int64_t *shape = coords ? desc->localShape : desc->globalShape;
    // Along each dimension, the tile holds `chunk` elements of each group,
    // starting at `origin` within a group of `span` elements.
    int64_t origin[SUMMA_MAX_RANK] = {0, 0, 0, 0};
    int64_t chunk[SUMMA_MAX_RANK], span[SUMMA_MAX_RANK];
    for (int dim = 0; dim < rank; ++dim) {
      chunk[dim] = coords ? shape[dim] / groups[dim] : shape[dim];
      span[dim] = coords ? chunk[dim] * blocks[dim] : shape[dim];
      if (coords)
        origin[dim] = blockIndex(dim, coords) * chunk[dim];
    }
    int64_t count = coords ? localCount : globalCount;
    int64_t index[SUMMA_MAX_RANK] = {0, 0, 0, 0};
    for (int64_t linear = 0; linear < count; ++linear) {
      int64_t global = 0;
      bool padding = false;
      for (int dim = 0; dim < rank; ++dim) {
        int64_t at = index[dim] / chunk[dim] * span[dim] + origin[dim] +
                     index[dim] % chunk[dim];
        // Uneven blocks: the last ones end in padding past the tensor.
        padding |= at >= desc->globalShape[dim];
        global += at * globalStrides[dim];
      }
      if (!padding)
        fn(linear, global);
      for (int dim = rank - 1; dim >= 0; --dim) {
        if (++index[dim] < shape[dim])
          break;
        index[dim] = 0;
      }
    }
  }

  /// Element `i` of host memory `data` (f32, f64, and f16/bf16 widened
  /// exactly).
  double load(const void *data, int64_t i) const;
  /// Stores `value` in the tensor's element type (integers rounded down,
  /// 16-bit floats rounded through float as the GPU backend's fill does).
  void store(void *data, int64_t i, double value) const;
};

/// Validates the description of input or output number `index` (`role`
/// "input" or "output") for `backend`; fatal, naming it, when it is invalid.
SUMMA_RT_EXPORT Tensor analyseTensor(const SummaTensorDesc &desc,
                                     const char *role, int index,
                                     const Backend &backend);

/// The size of a tensor's element type, any type of the ABI (a Backend's
/// elementSize for a backend that holds them all); fatal, naming `role` and
/// `name`, when `desc.dtype` is not a SummaDType value.
size_t anyElementSize(const SummaTensorDesc &desc, const char *role,
                      const char *name);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_TENSOR_H
