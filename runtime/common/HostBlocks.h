//===- HostBlocks.h - all-gather and reduce-scatter in host memory -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summaRtAllGather's and summaRtReduceScatter's block layout on MPI over host
// memory, for the CPU backend (cpu/Collectives.cpp) and the GPU backend's
// MPI test mode (gpu/HostCollectives.cpp): member r's [outer, inner] block
// is columns [r*inner, (r+1)*inner) of the [outer, n*inner] whole; and the
// MPI types and built-in operations both use on host memory. Header only, so
// that the GPU backend's host-only logic links without the rest of the CPU
// backend.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_HOSTBLOCKS_H
#define SUMMA_RUNTIME_COMMON_HOSTBLOCKS_H

#include "Error.h"

#include "summa/Runtime/SummaRuntime.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace summa::rt {

/// Whether [a, a + aBytes) and [b, b + bBytes) share a byte (in host or
/// device memory alike).
inline bool overlaps(const char *a, int64_t aBytes, const char *b,
                     int64_t bBytes) {
  return aBytes > 0 && bBytes > 0 && a < b + bBytes && b < a + aBytes;
}

/// The host scratch buffer of a runtime library, reused across calls (the
/// runtime is single-threaded); clear it to give its memory back.
inline std::vector<char> &hostScratchBuffer() {
  static std::vector<char> buffer;
  return buffer;
}

/// At least `bytes` of host scratch, valid until the next call.
inline char *hostScratch(size_t bytes) {
  std::vector<char> &buffer = hostScratchBuffer();
  if (buffer.size() < bytes)
    buffer.resize(bytes);
  return buffer.data();
}

/// MPI's built-in operation for a SummaReductionKind, or MPI_OP_NULL for a
/// value that is not one.
inline MPI_Op builtinReductionOp(int32_t kind) {
  static_assert(SUMMA_RED_SUM == 0 && SUMMA_RED_MAX == 1 &&
                    SUMMA_RED_MIN == 2 && SUMMA_RED_PROD == 3,
                "the table below is in SummaReductionKind's order");
  const MPI_Op ops[] = {MPI_SUM, MPI_MAX, MPI_MIN, MPI_PROD};
  return kind >= 0 && kind < 4 ? ops[kind] : MPI_OP_NULL;
}

/// The MPI type that carries one element of `dtype` in host memory:
/// MPI_UINT16_T for f16 and bf16, which MPI has no type of its own for (their
/// reductions need user-defined operations); MPI_DATATYPE_NULL for a value
/// that is not a SummaDType.
inline MPI_Datatype mpiElementType(int32_t dtype) {
  switch (dtype) {
  case SUMMA_DT_F32:
    return MPI_FLOAT;
  case SUMMA_DT_F64:
    return MPI_DOUBLE;
  case SUMMA_DT_F16:
  case SUMMA_DT_BF16:
    return MPI_UINT16_T;
  case SUMMA_DT_I64:
    return MPI_INT64_T;
  case SUMMA_DT_I32:
    return MPI_INT32_T;
  default:
    return MPI_DATATYPE_NULL;
  }
}

/// Copies `rows` rows of `rowBytes` from every block of `n` to its place in
/// the other layout: [n, outer, inner] -> [outer, n, inner] with
/// `toInterleaved`, the reverse without.
inline void transposeBlocks(const char *src, char *dst, int64_t n,
                            int64_t outer, int64_t rowBytes,
                            bool toInterleaved) {
  if (rowBytes <= 0)
    return;
  for (int64_t r = 0; r < n; ++r)
    for (int64_t o = 0; o < outer; ++o) {
      int64_t blocked = (r * outer + o) * rowBytes;
      int64_t interleaved = (o * n + r) * rowBytes;
      if (toInterleaved)
        std::memcpy(dst + interleaved, src + blocked, rowBytes);
      else
        std::memcpy(dst + blocked, src + interleaved, rowBytes);
    }
}

/// All-gather of the group's [outer, inner] blocks of `elementSize`-byte
/// elements (`type`) into dst, [outer, n*inner]. src may overlap dst.
inline void allGatherBlocks(const char *src, char *dst, int64_t outer,
                            int64_t inner, size_t elementSize,
                            MPI_Datatype type, int n, MPI_Comm comm) {
  int64_t block = outer * inner;
  int64_t blockBytes = block * static_cast<int64_t>(elementSize);
  int mpiBlock = static_cast<int>(block);
  if (outer == 1) {
    // [1, n*inner] is [n, inner]: MPI's layout already. MPI forbids aliasing
    // between the send and the receive buffer, so copy an overlapping source.
    if (overlaps(src, blockBytes, dst, n * blockBytes)) {
      char *copy = hostScratch(blockBytes);
      std::memcpy(copy, src, blockBytes);
      src = copy;
    }
    SUMMA_MPI_CHECK(
        MPI_Allgather(src, mpiBlock, type, dst, mpiBlock, type, comm));
    return;
  }
  // Gather as [n, outer, inner], then interleave into [outer, n, inner].
  char *gathered = hostScratch(n * blockBytes);
  SUMMA_MPI_CHECK(
      MPI_Allgather(src, mpiBlock, type, gathered, mpiBlock, type, comm));
  transposeBlocks(gathered, dst, n, outer,
                  inner * static_cast<int64_t>(elementSize),
                  /*toInterleaved=*/true);
}

/// Reduce-scatter (`op`) of src, [outer, n*inner], into this member's
/// [outer, inner] block dst. src may overlap dst.
inline void reduceScatterBlocks(const char *src, char *dst, int64_t outer,
                                int64_t inner, size_t elementSize,
                                MPI_Datatype type, MPI_Op op, int n,
                                MPI_Comm comm) {
  int64_t block = outer * inner;
  int64_t blockBytes = block * static_cast<int64_t>(elementSize);
  const char *blocks = src;
  if (outer != 1 || overlaps(src, n * blockBytes, dst, blockBytes)) {
    // Rearrange [outer, n, inner] into [n, outer, inner] so that member r's
    // block is contiguous, as MPI_Reduce_scatter_block expects.
    char *rearranged = hostScratch(n * blockBytes);
    transposeBlocks(src, rearranged, n, outer,
                    inner * static_cast<int64_t>(elementSize),
                    /*toInterleaved=*/false);
    blocks = rearranged;
  }
  SUMMA_MPI_CHECK(MPI_Reduce_scatter_block(blocks, dst, static_cast<int>(block),
                                           type, op, comm));
}

} // namespace summa::rt

#endif // SUMMA_RUNTIME_COMMON_HOSTBLOCKS_H
