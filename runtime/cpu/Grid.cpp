//===- Grid.cpp - the CPU backend's grid over MPI ---------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summaRtInit / summaRtFinalize of the CPU backend: the [q, q, d] grid over
// MPI, one sub-communicator per non-empty set of grid axes, kept in the
// state of common/GridState.h (whose queries common/GridState.cpp defines
// for both backends).
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "GridState.h"
#include "Profile.h"
#include "RequestTable.h"

#include "summa/Runtime/SummaRuntime.h"

#include <climits>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace summa::rt;

namespace {
/// The state shared with the harness (tooling/) and Profile.cpp
/// (GridState.cpp).
GridState &gridState = grid();

/// Compiled code allocates its intermediate buffers with malloc at every
/// call. glibc serves blocks above its mmap threshold (128 KiB at first)
/// with mmap and unmaps them at free, and trims the heap's top above 128
/// KiB, so each call faulted every page of its large buffers in again (a
/// tenth of a GPT-2-small layer's time). No buffer is mmapped: all stay in
/// the heap and are reused (a threshold would not do: glibc caps it at 32
/// MiB, and a whole GPT-2's logits and embedding gradient are 51 and 154
/// MB: a tenth of its training step went to faulting them in again); and
/// the heap is never trimmed: a call frees its buffers at its end and the
/// next one takes the same memory again, so giving it back only to fault it
/// in again cost a GPT-2-small layer's training step on [1,1,2] 16,000 page
/// faults per step (64 MiB: its free heap top exceeded any fixed trim
/// threshold of 64 MiB). A user's MALLOC_MMAP_MAX_ wins.
void keepBuffersInHeap() {
#if defined(__GLIBC__)
  if (!std::getenv("MALLOC_MMAP_MAX_"))
    mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
#endif
}
} // namespace

//===----------------------------------------------------------------------===//
// Life cycle
//===----------------------------------------------------------------------===//

void summaRtInit(int *argc, char ***argv, int64_t q, int64_t d) {
  GridState &g = gridState;
  if (alreadyInitialised(q, d))
    return;

  // Before any BLAS call (and before MPI, whose progress threads should not
  // compete with BLAS threads either).
  startBlas();
  keepBuffersInHeap();

  int rank = 0, size = 0;
  startWorld(argc, argv, q, d, &rank, &size);

  g.worldRank = rank;
  g.worldSize = size;
  g.q = q;
  g.d = d;
  warnAboutBlas(rank);
  coordsOfRank(rank, g.coords);

  // Mask m groups the ranks that agree on every coordinate not in m: the
  // colour is this rank's world rank with the spanned coordinates zeroed, the
  // key the world rank, so a member's index is its order by world rank.
  for (int mask = 1; mask < kNumAxesMasks; ++mask) {
    int64_t fixed[3];
    int64_t expectedSize = 1;
    for (int axis = 0; axis < 3; ++axis) {
      bool spanned = mask & (1 << axis);
      fixed[axis] = spanned ? 0 : g.coords[axis];
      if (spanned)
        expectedSize *= axisExtent(axis);
    }
    int colour =
        static_cast<int>(fixed[SUMMA_AXIS_DEPTH] * q * q +
                         fixed[SUMMA_AXIS_ROW] * q + fixed[SUMMA_AXIS_COL]);
    Group &group = g.groups[mask];
    SUMMA_MPI_CHECK(MPI_Comm_split(g.world, colour, rank, &group.comm));
    SUMMA_MPI_CHECK(MPI_Comm_set_errhandler(group.comm, MPI_ERRORS_RETURN));
    SUMMA_MPI_CHECK(MPI_Comm_size(group.comm, &group.size));
    SUMMA_MPI_CHECK(MPI_Comm_rank(group.comm, &group.rank));
    if (group.size != expectedSize)
      fatal("summaRtInit: the group of axes mask %d has %d ranks, expected "
            "%lld",
            mask, group.size, (long long)expectedSize);
  }
  g.initialised = true;
}

void summaRtFinalize(void) {
  requireInitialised("summaRtFinalize");
  // A request in flight still uses its buffer and its communicator: refuse
  // (every rank that reaches here with one says so) rather than free either.
  if (size_t inFlight = requestsInFlight())
    fatal("%s", requestsNeverWaitedMessage(inFlight).c_str());
  // Every rank writes its own file, so a failure needs no coordination; the
  // failing rank still finalises MPI and then exits non-zero.
  bool profileWritten = writeProfileIfRequested();
  GridState &g = gridState;
  for (Group &group : g.groups)
    if (group.comm != MPI_COMM_NULL)
      SUMMA_MPI_CHECK(MPI_Comm_free(&group.comm));
  finishFinalize(profileWritten);
}
