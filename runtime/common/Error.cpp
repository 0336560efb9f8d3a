//===- Error.cpp - fatal errors and the start of MPI ------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa::rt::fatal, mpiCallFailed and startWorld, compiled into both runtime
// libraries: every rank reports one whole line and all ranks end, whatever
// the backend (the GPU backend adds the abort of its NCCL communicators
// through setBeforeAbort).
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "GridState.h"

#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace summa::rt;

namespace {
void (*beforeAbort)() = nullptr;

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
  static bool aborting = false;
  if (!aborting && beforeAbort) {
    // A failure inside the hook itself goes straight to MPI_Abort.
    aborting = true;
    beforeAbort();
  }
  if (mpiRunning())
    MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}
} // namespace

void summa::rt::setBeforeAbort(void (*hook)()) { beforeAbort = hook; }

bool summa::rt::mpiRunning() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
}

const char *summa::rt::baseName(const char *path) {
  const char *slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
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

void summa::rt::startWorld(int *argc, char ***argv, int64_t q, int64_t d,
                           int *rank, int *size) {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (finalised)
    fatal("summaRtInit: MPI has already been finalised");
  if (!initialised)
    SUMMA_MPI_CHECK(MPI_Init(argc, argv));
  MPI_Comm world = grid().world;
  SUMMA_MPI_CHECK(MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN));

  if (q < 1 || d < 1)
    fatal("summaRtInit: invalid grid [%lld,%lld,%lld]: q and d must be at "
          "least 1",
          (long long)q, (long long)q, (long long)d);
  if (q > INT_MAX / q || q * q > INT_MAX / d)
    fatal("summaRtInit: grid [%lld,%lld,%lld] has more ranks than MPI can "
          "address",
          (long long)q, (long long)q, (long long)d);
  int64_t expected = q * q * d;

  SUMMA_MPI_CHECK(MPI_Comm_rank(world, rank));
  SUMMA_MPI_CHECK(MPI_Comm_size(world, size));
  if (*size != expected) {
    // Every rank sees the same mismatch: each says so and leaves through
    // MPI_Finalize, which all of them reach, so nothing hangs.
    char line[512];
    if (*rank == 0)
      std::snprintf(line, sizeof(line),
                    "summa: rank 0: this program was compiled for grid "
                    "[%lld,%lld,%lld] = %lld ranks but was launched on %d "
                    "ranks; run it with mpirun -np %lld\n",
                    (long long)q, (long long)q, (long long)d,
                    (long long)expected, *size, (long long)expected);
    else
      std::snprintf(line, sizeof(line),
                    "summa: rank %d: grid [%lld,%lld,%lld] needs %lld ranks "
                    "but %d were launched; exiting\n",
                    *rank, (long long)q, (long long)q, (long long)d,
                    (long long)expected, *size);
    std::fflush(stdout);
    std::fputs(line, stderr);
    std::fflush(stderr);
    MPI_Finalize();
    std::exit(2);
  }
}
