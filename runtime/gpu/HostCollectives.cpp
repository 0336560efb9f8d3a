//===- HostCollectives.cpp - MPI collectives on host memory -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Follows runtime/cpu/Collectives.cpp (the CPU backend) closely: the same MPI
// calls, the same [outer, n, inner] <-> [n, outer, inner] rearrangements,
// plus 16-bit element types.
//
//===----------------------------------------------------------------------===//

#include "HostCollectives.h"
#include "HalfFloat.h"

#include "ElementType.h"
#include "Error.h"
#include "HostBlocks.h"

#include "summa/Runtime/SummaRuntime.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace summa::gpu;
using namespace summa::gpu::host;

namespace {
constexpr int64_t kMaxChunk = int64_t(1) << 30;

/// Bytes per element of every type the collectives take (i32 and i64 token
/// ids included).
size_t elementSize(int32_t dtype) { return summa::rt::dtypeSize(dtype); }

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
  return summa::rt::mpiElementType(dtype);
}

MPI_Op summa::gpu::host::mpiOp(int32_t dtype, int32_t kind) {
  if (dtype == SUMMA_DT_F16 || dtype == SUMMA_DT_BF16) {
    int type = dtype == SUMMA_DT_BF16 ? 1 : 0;
    MPI_Op &op = userOps[type][kind];
    if (op == MPI_OP_NULL)
      SUMMA_MPI_CHECK(MPI_Op_create(userFns[type][kind], /*commute=*/1, &op));
    return op;
  }
  MPI_Op op = summa::rt::builtinReductionOp(kind);
  return op == MPI_OP_NULL ? MPI_SUM : op;
}

void summa::gpu::host::freeOps() {
  for (auto &row : userOps)
    for (MPI_Op &op : row)
      if (op != MPI_OP_NULL)
        MPI_Op_free(&op);
  std::vector<char>().swap(summa::rt::hostScratchBuffer());
}

/// Calls `fn(chunkData, chunkCount)` over `count` elements of `data` in
/// chunks MPI's int counts can hold (at least once, also for 0 elements).
template <typename Fn>
static void forEachChunk(void *data, int64_t count, int32_t dtype, Fn fn) {
  char *bytes = static_cast<char *>(data);
  size_t size = elementSize(dtype);
  int64_t done = 0;
  do {
    int chunk = static_cast<int>(std::min(count - done, kMaxChunk));
    fn(bytes + done * size, chunk);
    done += chunk;
  } while (done < count);
}

void summa::gpu::host::broadcast(void *data, int64_t count, int32_t dtype,
                                 int root, MPI_Comm comm) {
  forEachChunk(data, count, dtype, [&](char *chunkData, int chunk) {
    SUMMA_MPI_CHECK(MPI_Bcast(chunkData, chunk, mpiType(dtype), root, comm));
  });
}

void summa::gpu::host::reduce(void *data, int64_t count, int32_t dtype,
                              int32_t kind, int root, int groupRank,
                              MPI_Comm comm) {
  MPI_Op op = mpiOp(dtype, kind);
  forEachChunk(data, count, dtype, [&](char *chunkData, int chunk) {
    if (groupRank == root)
      SUMMA_MPI_CHECK(MPI_Reduce(MPI_IN_PLACE, chunkData, chunk, mpiType(dtype),
                                 op, root, comm));
    else
      SUMMA_MPI_CHECK(MPI_Reduce(chunkData, nullptr, chunk, mpiType(dtype), op,
                                 root, comm));
  });
}

void summa::gpu::host::allReduce(void *data, int64_t count, int32_t dtype,
                                 int32_t kind, MPI_Comm comm) {
  MPI_Op op = mpiOp(dtype, kind);
  forEachChunk(data, count, dtype, [&](char *chunkData, int chunk) {
    SUMMA_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, chunkData, chunk,
                                  mpiType(dtype), op, comm));
  });
}

/// The MPI test mode's bound on a block (MPI counts are int).
static void checkBlockBound(const char *caller, int64_t outer, int64_t inner) {
  int64_t block = outer * inner;
  if (block > kMaxChunk)
    summa::rt::fatal("%s: a block of %lld elements exceeds the MPI test "
                     "mode's limit of %lld elements per rank",
                     caller, (long long)block, (long long)kMaxChunk);
}

void summa::gpu::host::allGather(const void *srcData, void *dstData,
                                 int64_t outer, int64_t inner, int32_t dtype,
                                 int n, MPI_Comm comm) {
  checkBlockBound("summaRtAllGather", outer, inner);
  summa::rt::allGatherBlocks(static_cast<const char *>(srcData),
                             static_cast<char *>(dstData), outer, inner,
                             elementSize(dtype), mpiType(dtype), n, comm);
}

void summa::gpu::host::reduceScatter(const void *srcData, void *dstData,
                                     int64_t outer, int64_t inner,
                                     int32_t dtype, int32_t kind, int n,
                                     MPI_Comm comm) {
  checkBlockBound("summaRtReduceScatter", outer, inner);
  summa::rt::reduceScatterBlocks(
      static_cast<const char *>(srcData), static_cast<char *>(dstData), outer,
      inner, elementSize(dtype), mpiType(dtype), mpiOp(dtype, kind), n, comm);
}
