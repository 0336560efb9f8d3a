//===- MemrefCopy.cpp - strided memref copies for generated code -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// `memrefCopy`, the function MLIR's finalize-memref-to-llvm calls for a
// memref.copy between buffers that are not both contiguous (an insert into
// a strided view: tensor.concat, tensor.insert_slice, tensor.pad after
// bufferization). Contiguous copies become llvm.memcpy and never get here.
// The signature and the descriptor layout are those of MLIR's C runner
// utilities: an unranked memref is {rank, descriptor*}; a ranked descriptor
// is {allocated, aligned, offset, sizes[rank], strides[rank]}.
//
//===----------------------------------------------------------------------===//

#include "Error.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

struct StridedView {
  char *data;
  const int64_t *sizes;
  const int64_t *strides;
};

StridedView view(const UnrankedMemRef *m, int64_t elemSize) {
  auto *words = static_cast<int64_t *>(m->descriptor);
  // words[0] allocated, words[1] aligned (pointers), words[2] offset.
  char *aligned = reinterpret_cast<char **>(m->descriptor)[1];
  int64_t offset = words[2];
  return {aligned + offset * elemSize, words + 3, words + 3 + m->rank};
}
} // namespace

extern "C" __attribute__((visibility("default"))) void
memrefCopy(int64_t elemSize, UnrankedMemRef *src, UnrankedMemRef *dst) {
  if (!src || !dst || src->rank != dst->rank || elemSize <= 0)
    summa::rt::fatal("memrefCopy: mismatched or invalid memrefs");
  int64_t rank = src->rank;
  StridedView s = view(src, elemSize), d = view(dst, elemSize);
  if (rank == 0) {
    std::memcpy(d.data, s.data, elemSize);
    return;
  }
  for (int64_t i = 0; i < rank; ++i) {
    if (s.sizes[i] != d.sizes[i])
      summa::rt::fatal("memrefCopy: source and destination shapes differ");
    if (s.sizes[i] == 0)
      return;
  }
  // Innermost run copied with memcpy when both are contiguous along it.
  bool innerContiguous = s.strides[rank - 1] == 1 && d.strides[rank - 1] == 1;
  int64_t inner = innerContiguous ? s.sizes[rank - 1] : 1;
  int64_t outerRank = innerContiguous ? rank - 1 : rank;
  std::vector<int64_t> index(rank, 0);
  for (;;) {
    int64_t so = 0, dof = 0;
    for (int64_t i = 0; i < outerRank; ++i) {
      so += index[i] * s.strides[i];
      dof += index[i] * d.strides[i];
    }
    std::memcpy(d.data + dof * elemSize, s.data + so * elemSize,
                inner * elemSize);
    int64_t i = outerRank - 1;
    for (; i >= 0; --i) {
      if (++index[i] < s.sizes[i])
        break;
      index[i] = 0;
    }
    if (i < 0)
      return;
  }
}
