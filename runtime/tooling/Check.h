//===- Check.h - --check and --expect ---------------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The verdicts of a run on rank 0: --check runs the unpartitioned reference
// in host memory on the same inputs for the same steps and compares every
// output with it (the relative L2 error, with --tol and --atol, each replica
// of a block on its own); --expect compares the outputs with the tensors of
// a file (e.g. the framework's). Both print a line per output and a verdict.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_CHECK_H
#define SUMMA_RUNTIME_TOOLING_CHECK_H

#include "Backend.h"
#include "RunContext.h"

#include <vector>

namespace summa::rt::driver {

/// --check and --expect on rank 0 (`gathered`: every output's tiles from
/// every rank, in world-rank order, there); every rank returns the exit
/// status.
int verify(const RunContext &run, const std::vector<HostBuffer> &gathered);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_CHECK_H
