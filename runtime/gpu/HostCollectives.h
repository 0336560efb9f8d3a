//===- HostCollectives.h - MPI collectives on host memory -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The collectives of the one-GPU test mode (SUMMA_GPU_COLLECTIVES=mpi): the
// GPU backend copies the device buffer to a host staging buffer, calls one of
// these, and copies the result back. They implement the semantics of
// SummaRuntime.h on host memory with MPI, for all four element types: f16 and
// bf16 reductions use user-defined MPI operations that add (max, min,
// multiply) in f32 and round to the 16-bit type, as NCCL does per step.
// They need no GPU, so the unit tests run them under mpiexec.
//
// Counts larger than an MPI int are split into chunks.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_HOSTCOLLECTIVES_H
#define SUMMA_RUNTIME_GPU_HOSTCOLLECTIVES_H

#include <mpi.h>

#include <cstdint>

namespace summa::gpu::host {

/// The MPI type that carries one element of `dtype` (MPI_UINT16_T for f16
/// and bf16) and the MPI operation that reduces it with `kind`.
MPI_Datatype mpiType(int32_t dtype);
MPI_Op mpiOp(int32_t dtype, int32_t kind);

/// The element-wise reduction of the test mode for 16-bit types, exposed
/// for the tests: inout[e] = inout[e] (kind) in[e], computed in f32.
void reduce16(int32_t dtype, int32_t kind, const uint16_t *in, uint16_t *inout,
              int64_t count);

void broadcast(void *data, int64_t count, int32_t dtype, int root,
               MPI_Comm comm);
/// In place; only the root's buffer changes.
void reduce(void *data, int64_t count, int32_t dtype, int32_t kind, int root,
            int groupRank, MPI_Comm comm);
void allReduce(void *data, int64_t count, int32_t dtype, int32_t kind,
               MPI_Comm comm);
/// src [outer, inner] -> dst [outer, n*inner]; src and dst may overlap.
void allGather(const void *src, void *dst, int64_t outer, int64_t inner,
               int32_t dtype, int n, MPI_Comm comm);
/// src [outer, n*inner] -> dst [outer, inner]; src and dst may overlap.
void reduceScatter(const void *src, void *dst, int64_t outer, int64_t inner,
                   int32_t dtype, int32_t kind, int n, MPI_Comm comm);

/// Frees the user-defined MPI operations (before MPI_Finalize).
void freeOps();

} // namespace summa::gpu::host

#endif // SUMMA_RUNTIME_GPU_HOSTCOLLECTIVES_H
