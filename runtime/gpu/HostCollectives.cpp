//===- HostCollectives.cpp - MPI collectives on host memory -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Follows runtime/lib/Collectives.cpp (the CPU backend) closely: the same MPI
// calls, the same [outer, n, inner] <-> [n, outer, inner] rearrangements,
// plus 16-bit element types.
//
//===----------------------------------------------------------------------===//

#include "HostCollectives.h"
#include "HalfFloat.h"

#include "Error.h"

#include "summa/Runtime/SummaRuntime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace summa::gpu;
using namespace summa::gpu::host;

namespace {
constexpr int64_t kMaxChunk = int64_t(1) << 30;

size_t elementSize(int32_t dtype) {
  return dtype == SUMMA_DT_F64 ? 8 : dtype == SUMMA_DT_F32 ? 4 : 2;
}

float combine(int32_t kind, float a, float b) {
  switch (kind) {
  case SUMMA_RED_MAX:
    return std::fmax(a, b);
  case SUMMA_RED_MIN:
    return std::fmin(a, b);
  case SUMMA_RED_PROD:
    return a * b;
  default:
    return a + b;
  }
}

template <int32_t DType, int32_t Kind>
void userOp(void *in, void *inout, int *length, MPI_Datatype *) {
  reduce16(DType, Kind, static_cast<const uint16_t *>(in),
           static_cast<uint16_t *>(inout), *length);
}

using UserFn = void (*)(void *, void *, int *, MPI_Datatype *);

/// [dtype == bf16][kind]
MPI_Op userOps[2][4] = {{MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL},
                        {MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL, MPI_OP_NULL}};
const UserFn userFns[2][4] = {
    {userOp<SUMMA_DT_F16, SUMMA_RED_SUM>, userOp<SUMMA_DT_F16, SUMMA_RED_MAX>,
     userOp<SUMMA_DT_F16, SUMMA_RED_MIN>, userOp<SUMMA_DT_F16, SUMMA_RED_PROD>},
    {userOp<SUMMA_DT_BF16, SUMMA_RED_SUM>, userOp<SUMMA_DT_BF16, SUMMA_RED_MAX>,
     userOp<SUMMA_DT_BF16, SUMMA_RED_MIN>,
     userOp<SUMMA_DT_BF16, SUMMA_RED_PROD>}};

std::vector<char> &scratch() {
  static std::vector<char> buffer;
  return buffer;
}

char *scratchOf(size_t bytes) {
  std::vector<char> &buffer = scratch();
  if (buffer.size() < bytes)
    buffer.resize(bytes);
  return buffer.data();
}

bool overlaps(const char *a, int64_t aBytes, const char *b, int64_t bBytes) {
  return a < b + bBytes && b < a + aBytes;
}
} // namespace

void summa::gpu::host::reduce16(int32_t dtype, int32_t kind, const uint16_t *in,
                                uint16_t *inout, int64_t count) {
  if (dtype == SUMMA_DT_BF16) {
    for (int64_t e = 0; e < count; ++e)
      inout[e] = floatToBFloat16(
          combine(kind, bfloat16ToFloat(inout[e]), bfloat16ToFloat(in[e])));
  } else {
    for (int64_t e = 0; e < count; ++e)
      inout[e] =
          floatToHalf(combine(kind, halfToFloat(inout[e]), halfToFloat(in[e])));
  }
}

MPI_Datatype summa::gpu::host::mpiType(int32_t dtype) {
  switch (dtype) {
  case SUMMA_DT_F32:
    return MPI_FLOAT;
  case SUMMA_DT_F64:
    return MPI_DOUBLE;
  case SUMMA_DT_I64:
    return MPI_INT64_T;
  case SUMMA_DT_I32:
    return MPI_INT32_T;
  default:
    return MPI_UINT16_T;
  }
}

MPI_Op summa::gpu::host::mpiOp(int32_t dtype, int32_t kind) {
  if (dtype == SUMMA_DT_F16 || dtype == SUMMA_DT_BF16) {
    int type = dtype == SUMMA_DT_BF16 ? 1 : 0;
    MPI_Op &op = userOps[type][kind];
    if (op == MPI_OP_NULL)
      SUMMA_MPI_CHECK(MPI_Op_create(userFns[type][kind], /*commute=*/1, &op));
    return op;
  }
  switch (kind) {
  case SUMMA_RED_MAX:
    return MPI_MAX;
  case SUMMA_RED_MIN:
    return MPI_MIN;
  case SUMMA_RED_PROD:
    return MPI_PROD;
  default:
    return MPI_SUM;
  }
}

void summa::gpu::host::freeOps() {
  for (auto &row : userOps)
    for (MPI_Op &op : row)
      if (op != MPI_OP_NULL)
        MPI_Op_free(&op);
  std::vector<char>().swap(scratch());
}

void summa::gpu::host::broadcast(void *data, int64_t count, int32_t dtype,
                                 int root, MPI_Comm comm) {
  char *bytes = static_cast<char *>(data);
  size_t size = elementSize(dtype);
  int64_t done = 0;
  do {
    int chunk = static_cast<int>(std::min(count - done, kMaxChunk));
    SUMMA_MPI_CHECK(
        MPI_Bcast(bytes + done * size, chunk, mpiType(dtype), root, comm));
    done += chunk;
  } while (done < count);
}

void summa::gpu::host::reduce(void *data, int64_t count, int32_t dtype,
                              int32_t kind, int root, int groupRank,
                              MPI_Comm comm) {
  char *bytes = static_cast<char *>(data);
  size_t size = elementSize(dtype);
  MPI_Op op = mpiOp(dtype, kind);
  int64_t done = 0;
  do {
    int chunk = static_cast<int>(std::min(count - done, kMaxChunk));
    char *chunkData = bytes + done * size;
    if (groupRank == root)
      SUMMA_MPI_CHECK(MPI_Reduce(MPI_IN_PLACE, chunkData, chunk, mpiType(dtype),
                                 op, root, comm));
    else
      SUMMA_MPI_CHECK(MPI_Reduce(chunkData, nullptr, chunk, mpiType(dtype), op,
                                 root, comm));
    done += chunk;
  } while (done < count);
}

void summa::gpu::host::allReduce(void *data, int64_t count, int32_t dtype,
                                 int32_t kind, MPI_Comm comm) {
  char *bytes = static_cast<char *>(data);
  size_t size = elementSize(dtype);
  MPI_Op op = mpiOp(dtype, kind);
  int64_t done = 0;
  do {
    int chunk = static_cast<int>(std::min(count - done, kMaxChunk));
    SUMMA_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, bytes + done * size, chunk,
                                  mpiType(dtype), op, comm));
    done += chunk;
  } while (done < count);
}

void summa::gpu::host::allGather(const void *srcData, void *dstData,
                                 int64_t outer, int64_t inner, int32_t dtype,
                                 int n, MPI_Comm comm) {
  const char *src = static_cast<const char *>(srcData);
  char *dst = static_cast<char *>(dstData);
  size_t size = elementSize(dtype);
  int64_t block = outer * inner;
  int64_t blockBytes = block * static_cast<int64_t>(size);
  if (block > kMaxChunk)
    summa::rt::fatal("summaRtAllGather: a block of %lld elements exceeds the "
                     "MPI test mode's limit of %lld elements per rank",
                     (long long)block, (long long)kMaxChunk);
  int mpiBlock = static_cast<int>(block);
  if (outer == 1) {
    if (overlaps(src, blockBytes, dst, n * blockBytes)) {
      char *copy = scratchOf(blockBytes);
      std::memcpy(copy, src, blockBytes);
      src = copy;
    }
    SUMMA_MPI_CHECK(MPI_Allgather(src, mpiBlock, mpiType(dtype), dst, mpiBlock,
                                  mpiType(dtype), comm));
    return;
  }
  char *gathered = scratchOf(n * blockBytes);
  SUMMA_MPI_CHECK(MPI_Allgather(src, mpiBlock, mpiType(dtype), gathered,
                                mpiBlock, mpiType(dtype), comm));
  int64_t rowBytes = inner * static_cast<int64_t>(size);
  if (rowBytes > 0)
    for (int64_t r = 0; r < n; ++r)
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(dst + (o * n + r) * rowBytes,
                    gathered + (r * outer + o) * rowBytes, rowBytes);
}

void summa::gpu::host::reduceScatter(const void *srcData, void *dstData,
                                     int64_t outer, int64_t inner,
                                     int32_t dtype, int32_t kind, int n,
                                     MPI_Comm comm) {
  const char *src = static_cast<const char *>(srcData);
  char *dst = static_cast<char *>(dstData);
  size_t size = elementSize(dtype);
  int64_t block = outer * inner;
  int64_t blockBytes = block * static_cast<int64_t>(size);
  if (block > kMaxChunk)
    summa::rt::fatal("summaRtReduceScatter: a block of %lld elements exceeds "
                     "the MPI test mode's limit of %lld elements per rank",
                     (long long)block, (long long)kMaxChunk);
  const char *blocks = src;
  if (outer != 1 || overlaps(src, n * blockBytes, dst, blockBytes)) {
    char *rearranged = scratchOf(n * blockBytes);
    int64_t rowBytes = inner * static_cast<int64_t>(size);
    if (rowBytes > 0)
      for (int64_t r = 0; r < n; ++r)
        for (int64_t o = 0; o < outer; ++o)
          std::memcpy(rearranged + (r * outer + o) * rowBytes,
                      src + (o * n + r) * rowBytes, rowBytes);
    blocks = rearranged;
  }
  SUMMA_MPI_CHECK(MPI_Reduce_scatter_block(blocks, dst, static_cast<int>(block),
                                           mpiType(dtype), mpiOp(dtype, kind),
                                           comm));
}
