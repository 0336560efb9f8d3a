//===- GridState.h - grid state and communicators ---------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The process-wide state of the runtime, the same on both backends: the
// [q, q, d] grid, this rank's coordinates and one communicator per non-empty
// set of grid axes (GridState.cpp holds it and its queries; each backend's
// summaRtInit fills it: cpu/Grid.cpp, gpu/Context.cpp). The runtime is
// single-threaded: compiled code calls it from one thread per rank.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_GRIDSTATE_H
#define SUMMA_RUNTIME_COMMON_GRIDSTATE_H

#include "summa/Runtime/SummaRuntime.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace summa::rt {

/// Number of axes masks, indexed by the mask itself; mask 0 is unused.
constexpr int kNumAxesMasks = 8;

/// One sub-group of the grid: the ranks that agree on every coordinate whose
/// axis is not in the mask, ordered by world rank.
struct Group {
  MPI_Comm comm = MPI_COMM_NULL;
  int size = 0;
  int rank = 0;
};

struct GridState {
  bool initialised = false;
  /// The communicator the grid is laid over: MPI_COMM_WORLD, or the one a
  /// library client gave summaModelInit (set before summaRtInit).
  MPI_Comm world = MPI_COMM_WORLD;
  /// Whether summaRtFinalize finalises MPI: not when a library client
  /// started MPI itself.
  bool finalizeMpi = true;
  int worldRank = 0;
  int worldSize = 0;
  int64_t q = 0;
  int64_t d = 0;
  /// Indexed by SummaAxis: i (row), j (col), k (depth).
  int64_t coords[3] = {0, 0, 0};
  Group groups[kNumAxesMasks];
};

/// The runtime's global state.
GridState &grid();

/// This rank's world rank, or -1 when MPI is not running.
int currentRank();

/// Aborts with "<caller>: the runtime is not initialised" unless summaRtInit
/// has run.
void requireInitialised(const char *caller);

/// The start of summaRtInit on both backends: whether the runtime already
/// runs on the grid [q, q, d] (then a repeated call returns at once); fatal if
/// it runs on another grid.
bool alreadyInitialised(int64_t q, int64_t d);

/// The end of summaRtFinalize on both backends, once the backend's own state
/// is released: forgets the grid, finalises MPI unless a library client
/// started it, and exits with status 1 if the profile was not written
/// (`profileWritten`), so that the failing rank still finalises MPI first.
void finishFinalize(bool profileWritten);

/// The extent of the grid on `axis` (q, q or d).
int64_t axisExtent(int axis);

/// The coordinates of world rank `rank` on the grid.
void coordsOfRank(int64_t rank, int64_t coords[3]);

/// The sub-group spanning `axesMask`, after validating the mask.
const Group &groupFor(int32_t axesMask, const char *caller);

/// The number of collectives started (summaRtBroadcastStart,
/// summaRtReduceStart) and not yet waited for (Collectives.cpp);
/// summaRtFinalize refuses to finalise while it is not 0.
size_t requestsInFlight();

/// Test hook (CPU backend, Collectives.cpp): splits element-wise collectives
/// into chunks of at most `elements` (1 .. 2^30; anything else restores the
/// default of 2^30, MPI's int counts) so that the chunked paths run on small
/// buffers. Returns the previous limit.
SUMMA_RT_EXPORT int64_t setMaxChunkForTesting(int64_t elements);

/// Loads the CPU backend's BLAS, one thread per rank unless
/// OPENBLAS_NUM_THREADS is set, with the kernels of the CPU's vectors
/// (Blas.cpp, BlasLibrary.h).
void startBlas();
/// On rank 0: a warning when the BLAS's kernels use narrower vectors than
/// the CPU has (Blas.cpp).
void warnAboutBlas(int rank);

} // namespace summa::rt

#endif // SUMMA_RUNTIME_COMMON_GRIDSTATE_H
