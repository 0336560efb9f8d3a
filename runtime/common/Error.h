//===- Error.h - fatal errors and MPI status checks -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Every failure in the runtime goes through summa::rt::fatal: it prints
// "summa: rank R: <message>" to stderr and aborts all ranks with MPI_Abort, so
// that no rank is left waiting in a collective. SUMMA_MPI_CHECK wraps every MPI
// call whose status matters; summaRtInit sets MPI_ERRORS_RETURN on the world
// communicator (and every sub-communicator) so that failures reach it.
// Error.cpp implements this, and the MPI start of summaRtInit, for both
// backends.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_ERROR_H
#define SUMMA_RUNTIME_COMMON_ERROR_H

#include "summa/Runtime/SummaRuntime.h"

#include <mpi.h>

namespace summa::rt {

/// Prints "summa: rank R: <printf-formatted message>" (or "summa: <message>"
/// when no rank is known yet) to stderr and aborts every rank.
[[noreturn]] SUMMA_RT_EXPORT void fatal(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

/// Reports a failed MPI call: "summa: rank R: MPI call `expr` failed at
/// file:line: <MPI_Error_string>", then aborts every rank.
[[noreturn]] SUMMA_RT_EXPORT void
mpiCallFailed(const char *expr, const char *file, int line, int errorCode);

/// Runs once before fatal aborts the ranks (the GPU backend aborts its NCCL
/// communicators there, so that no rank waits in a collective); a failure
/// inside it goes straight to MPI_Abort.
void setBeforeAbort(void (*hook)());

/// Whether MPI is initialised and not yet finalised.
bool mpiRunning();

/// The file name of `path` without its directories (for messages).
const char *baseName(const char *path);

/// The start of summaRtInit shared by the backends: initialises MPI (unless
/// the program has), makes MPI calls return their errors, checks the grid
/// [q, q, d] and that the world has q·q·d ranks. On a mismatch every rank
/// says so and the process exits with status 2 through MPI_Finalize (so
/// nothing hangs). Returns this rank and the world size.
void startWorld(int *argc, char ***argv, int64_t q, int64_t d, int *rank,
                int *size);

} // namespace summa::rt

/// Evaluates an MPI call and aborts every rank with a message naming the
/// call, the source location and MPI's error string if it does not return
/// MPI_SUCCESS.
#define SUMMA_MPI_CHECK(expr)                                                  \
  do {                                                                         \
    int summaMpiStatus = (expr);                                               \
    if (summaMpiStatus != MPI_SUCCESS)                                         \
      ::summa::rt::mpiCallFailed(#expr, __FILE__, __LINE__, summaMpiStatus);   \
  } while (false)

#endif // SUMMA_RUNTIME_COMMON_ERROR_H
