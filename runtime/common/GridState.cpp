//===- GridState.cpp - the grid of this rank and its queries ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// runtime/common/GridState.h's state and the queries on it, compiled into both
// runtime libraries; each backend's summaRtInit fills the state (Grid.cpp:
// MPI sub-communicators; gpu/Context.cpp: NCCL or MPI groups). The C ABI's
// grid queries (summaRtWorldRank, summaRtGridCoord, ...) and
// summaRtGetAPIVersion are defined here once for both.
//
//===----------------------------------------------------------------------===//

#include "GridState.h"
#include "Error.h"

#include "summa/Runtime/SummaRuntime.h"

#include <cstdlib>

using namespace summa::rt;

namespace {
GridState gridState;
} // namespace

GridState &summa::rt::grid() { return gridState; }

int summa::rt::currentRank() {
  if (gridState.initialised)
    return gridState.worldRank;
  int rank = -1;
  if (mpiRunning() && MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS)
    rank = -1;
  return rank;
}

void summa::rt::requireInitialised(const char *caller) {
  if (!gridState.initialised)
    fatal("%s: the runtime is not initialised (call summaRtInit first)",
          caller);
}

bool summa::rt::alreadyInitialised(int64_t q, int64_t d) {
  const GridState &g = gridState;
  if (!g.initialised)
    return false;
  if (g.q == q && g.d == d)
    return true;
  fatal("summaRtInit: the runtime is already initialised for grid "
        "[%lld,%lld,%lld] and cannot be re-initialised for [%lld,%lld,%lld]",
        (long long)g.q, (long long)g.q, (long long)g.d, (long long)q,
        (long long)q, (long long)d);
}

void summa::rt::finishFinalize(bool profileWritten) {
  bool finalizeMpi = gridState.finalizeMpi;
  gridState = GridState();
  if (finalizeMpi && mpiRunning())
    MPI_Finalize();
  if (!profileWritten)
    std::exit(1);
}

int64_t summa::rt::axisExtent(int axis) {
  return axis == SUMMA_AXIS_DEPTH ? gridState.d : gridState.q;
}

void summa::rt::coordsOfRank(int64_t rank, int64_t coords[3]) {
  int64_t q = gridState.q;
  coords[SUMMA_AXIS_COL] = rank % q;
  coords[SUMMA_AXIS_ROW] = (rank / q) % q;
  coords[SUMMA_AXIS_DEPTH] = rank / (q * q);
}

const Group &summa::rt::groupFor(int32_t axesMask, const char *caller) {
  requireInitialised(caller);
  if (axesMask < 1 || axesMask >= kNumAxesMasks)
    fatal("%s: invalid axes mask %d (expected 1..7, a non-empty set of "
          "row = 1, col = 2, depth = 4)",
          caller, axesMask);
  return gridState.groups[axesMask];
}

//===----------------------------------------------------------------------===//
// Grid queries of the C ABI, the same on both backends
//===----------------------------------------------------------------------===//

int32_t summaRtGetAPIVersion(void) { return SUMMA_RT_API_VERSION; }

int64_t summaRtWorldRank(void) {
  requireInitialised("summaRtWorldRank");
  return gridState.worldRank;
}

int64_t summaRtWorldSize(void) {
  requireInitialised("summaRtWorldSize");
  return gridState.worldSize;
}

int64_t summaRtGridCoord(int32_t axis) {
  requireInitialised("summaRtGridCoord");
  if (axis < 0 || axis > 2)
    fatal("summaRtGridCoord: invalid axis %d (expected 0 = row, 1 = col, "
          "2 = depth)",
          axis);
  return gridState.coords[axis];
}

int64_t summaRtGridSize(int32_t axis) {
  requireInitialised("summaRtGridSize");
  if (axis < 0 || axis > 2)
    fatal("summaRtGridSize: invalid axis %d (expected 0 = row, 1 = col, "
          "2 = depth)",
          axis);
  return axisExtent(axis);
}

void summaRtFatal(const char *message) {
  fatal("%s", message ? message : "fatal error (no message)");
}
