//===- Grid.cpp - grid, communicators and fatal errors ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summaRtInit / summaRtFinalize, the grid queries and the error reporting
// that every other part of the runtime uses.
//
//===----------------------------------------------------------------------===//

#include "Grid.h"
#include "Error.h"
#include "Profile.h"
#include "RequestTable.h"

#include "summa/Runtime/SummaRuntime.h"

#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace summa::rt;

namespace {
GridState gridState;

bool mpiRunning() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
}

std::string formatMessage(const char *format, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (length < 0)
    return format;
  std::string text(static_cast<size_t>(length) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), format, args);
  text.resize(static_cast<size_t>(length));
  return text;
}

/// Prints one whole line, so that lines of different ranks do not interleave.
void printError(const std::string &message) {
  int rank = currentRank();
  std::string line = rank >= 0 ? "summa: rank " + std::to_string(rank) + ": "
                               : std::string("summa: ");
  line += message;
  line += '\n';
  std::fflush(stdout);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

[[noreturn]] void abortAll() {
  if (mpiRunning())
    MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

const char *baseName(const char *path) {
  const char *slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}
} // namespace

//===----------------------------------------------------------------------===//
// Internal helpers
//===----------------------------------------------------------------------===//

GridState &summa::rt::grid() { return gridState; }

int summa::rt::currentRank() {
  if (gridState.initialised)
    return gridState.worldRank;
  int rank = -1;
  if (mpiRunning() && MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS)
    rank = -1;
  return rank;
}

void summa::rt::fatal(const char *format, ...) {
  va_list args;
  va_start(args, format);
  std::string message = formatMessage(format, args);
  va_end(args);
  printError(message);
  abortAll();
}

void summa::rt::mpiCallFailed(const char *expr, const char *file, int line,
                              int errorCode) {
  char text[MPI_MAX_ERROR_STRING + 1] = {0};
  int length = 0;
  if (MPI_Error_string(errorCode, text, &length) != MPI_SUCCESS)
    std::snprintf(text, sizeof(text), "MPI error code %d", errorCode);
  fatal("MPI call `%s` failed at %s:%d: %s", expr, baseName(file), line, text);
}

void summa::rt::requireInitialised(const char *caller) {
  if (!gridState.initialised)
    fatal("%s: the runtime is not initialised (call summaRtInit first)",
          caller);
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
// Life cycle
//===----------------------------------------------------------------------===//

int32_t summaRtGetAPIVersion(void) { return SUMMA_RT_API_VERSION; }

void summaRtInit(int *argc, char ***argv, int64_t q, int64_t d) {
  GridState &g = gridState;
  if (g.initialised) {
    if (g.q == q && g.d == d)
      return;
    fatal("summaRtInit: the runtime is already initialised for grid "
          "[%lld,%lld,%lld] and cannot be re-initialised for [%lld,%lld,%lld]",
          (long long)g.q, (long long)g.q, (long long)g.d, (long long)q,
          (long long)q, (long long)d);
  }

  // Before any BLAS call (and before MPI, whose progress threads should not
  // compete with BLAS threads either).
  pinBlasThreads();

  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (finalised)
    fatal("summaRtInit: MPI has already been finalised");
  if (!initialised)
    SUMMA_MPI_CHECK(MPI_Init(argc, argv));
  SUMMA_MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

  if (q < 1 || d < 1)
    fatal("summaRtInit: invalid grid [%lld,%lld,%lld]: q and d must be at "
          "least 1",
          (long long)q, (long long)q, (long long)d);
  if (q > INT_MAX / q || q * q > INT_MAX / d)
    fatal("summaRtInit: grid [%lld,%lld,%lld] has more ranks than MPI can "
          "address",
          (long long)q, (long long)q, (long long)d);
  int64_t expected = q * q * d;

  int rank = 0, size = 0;
  SUMMA_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  SUMMA_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &size));
  if (size != expected) {
    // Every rank sees the same mismatch: each says so and leaves through
    // MPI_Finalize, which all of them reach, so nothing hangs.
    char line[512];
    if (rank == 0)
      std::snprintf(line, sizeof(line),
                    "summa: rank 0: this program was compiled for grid "
                    "[%lld,%lld,%lld] = %lld ranks but was launched on %d "
                    "ranks; run it with mpirun -np %lld\n",
                    (long long)q, (long long)q, (long long)d,
                    (long long)expected, size, (long long)expected);
    else
      std::snprintf(line, sizeof(line),
                    "summa: rank %d: grid [%lld,%lld,%lld] needs %lld ranks "
                    "but %d were launched; exiting\n",
                    rank, (long long)q, (long long)q, (long long)d,
                    (long long)expected, size);
    std::fflush(stdout);
    std::fputs(line, stderr);
    std::fflush(stderr);
    MPI_Finalize();
    std::exit(2);
  }

  g.worldRank = rank;
  g.worldSize = size;
  g.q = q;
  g.d = d;
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
    SUMMA_MPI_CHECK(MPI_Comm_split(MPI_COMM_WORLD, colour, rank, &group.comm));
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
  g = GridState();
  if (mpiRunning())
    MPI_Finalize();
  if (!profileWritten)
    std::exit(1);
}

//===----------------------------------------------------------------------===//
// Grid queries
//===----------------------------------------------------------------------===//

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
