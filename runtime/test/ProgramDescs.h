//===- ProgramDescs.h - hand-written programs for summaRtMain ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// What the hand-written programs of the driver, GPU driver and fault tests
// share: the SummaTensorDesc of a tensor, as summa-compile's generated table
// describes it (its local shape and, per dimension, the grid axes that split
// it), and the grid the test asks for.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TEST_PROGRAMDESCS_H
#define SUMMA_RUNTIME_TEST_PROGRAMDESCS_H

#include "summa/Runtime/SummaRuntime.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace summa::test {

/// `desc` for tensor `name` of `dtype`, with `local[dim]` elements per rank
/// along each dimension and `splits[dim]` (up to three axes) splitting it on
/// the grid [q, q, d]; the global shape follows.
inline void setShape(SummaTensorDesc &desc, const char *name, int32_t dtype,
                     std::vector<int64_t> local,
                     std::vector<std::vector<int32_t>> splits, int64_t q,
                     int64_t d) {
  desc = SummaTensorDesc();
  desc.name = name;
  desc.rank = static_cast<int32_t>(local.size());
  desc.dtype = dtype;
  desc.scale = 1.0;
  for (int dim = 0; dim < SUMMA_MAX_RANK; ++dim)
    for (int slot = 0; slot < 3; ++slot)
      desc.splitAxes[dim][slot] = -1;
  for (int dim = 0; dim < desc.rank; ++dim) {
    int64_t blocks = 1;
    for (size_t slot = 0; slot < splits[dim].size() && slot < 3; ++slot) {
      int32_t axis = splits[dim][slot];
      desc.splitAxes[dim][slot] = axis;
      if (axis >= 0)
        blocks *= axis == SUMMA_AXIS_DEPTH ? d : q;
    }
    desc.localShape[dim] = local[dim];
    desc.globalShape[dim] = local[dim] * blocks;
  }
}

/// The grid "q,d" of the environment variable `variable`, if set, into `q`
/// and `d`; false (after saying so, naming `tool`) if it is malformed.
inline bool readGrid(const char *tool, const char *variable, int64_t &q,
                     int64_t &d) {
  const char *grid = std::getenv(variable);
  if (!grid)
    return true;
  long long gridQ = 0, gridD = 0;
  if (std::sscanf(grid, "%lld,%lld", &gridQ, &gridD) != 2) {
    std::fprintf(stderr, "%s: bad grid '%s'\n", tool, grid);
    return false;
  }
  q = gridQ;
  d = gridD;
  return true;
}

/// The program a driver test runs (SUMMA_DRIVER_TEST_PROGRAM, if set) and
/// its grid (SUMMA_DRIVER_TEST_GRID); false, after a message, on a bad grid.
inline bool readDriverTestEnv(const char *tool, std::string &program,
                              int64_t &q, int64_t &d) {
  if (const char *name = std::getenv("SUMMA_DRIVER_TEST_PROGRAM"))
    program = name;
  return readGrid(tool, "SUMMA_DRIVER_TEST_GRID", q, d);
}

} // namespace summa::test

#endif // SUMMA_RUNTIME_TEST_PROGRAMDESCS_H
