//===- MatmulBatch.h - the checks of summaRtMatmulBatched -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// What both backends check of a batch before checking its members as
// summaRtMatmul checks them.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_MATMULBATCH_H
#define SUMMA_RUNTIME_COMMON_MATMULBATCH_H

#include "Error.h"

#include <cstdint>

namespace summa::rt {

/// Element offsets of A, B and C.
struct MatmulOffsets {
  int64_t a, b, c;
};

/// The offsets of the last member of a batch that starts at `first` and
/// moves by `stride` per member (the first member's for an empty batch).
/// Fatal, naming `caller`, if the batch or a stride is negative or an offset
/// does not fit in 64 bits.
inline MatmulOffsets lastBatchMember(const char *caller, int64_t batch,
                                     MatmulOffsets first,
                                     MatmulOffsets stride) {
  if (batch < 0 || stride.a < 0 || stride.b < 0 || stride.c < 0)
    fatal("%s: batch = %lld and the strides %lld, %lld, %lld must not be "
          "negative",
          caller, (long long)batch, (long long)stride.a, (long long)stride.b,
          (long long)stride.c);
  int64_t last = batch > 0 ? batch - 1 : 0;
  MatmulOffsets offsets = first;
  int64_t *out[3] = {&offsets.a, &offsets.b, &offsets.c};
  const int64_t strides[3] = {stride.a, stride.b, stride.c};
  for (int operand = 0; operand < 3; ++operand) {
    int64_t span = 0;
    if (__builtin_mul_overflow(last, strides[operand], &span) ||
        __builtin_add_overflow(*out[operand], span, out[operand]))
      fatal("%s: the offset of the last of %lld GEMMs does not fit in 64 "
            "bits",
            caller, (long long)batch);
  }
  return offsets;
}

} // namespace summa::rt

#endif // SUMMA_RUNTIME_COMMON_MATMULBATCH_H
