//===- ProgramDescs.h - hand-written programs for summaRtMain ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// What the hand-written programs of the driver, GPU driver and fault tests
// share: the SummaTensorDesc of a tensor, as summa-compile's generated table
// describes it (its local shape and, per dimension, the grid axes that split
// it), and the grid the test asks for. The driver tests of both backends
// also share the programs' tensors and how the environment selects one.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TEST_PROGRAMDESCS_H
#define SUMMA_RUNTIME_TEST_PROGRAMDESCS_H

#include "summa/Runtime/SummaRuntime.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <utility>
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

/// A driver test: the hand-written program it runs, its grid and element
/// type, and the descriptions of the program's tensors (inputs first, then
/// the one output).
struct DriverTest {
  std::string program = "double";
  int64_t q, d;
  int32_t dtype = SUMMA_DT_F32;
  SummaTensorDesc tensors[3];

  DriverTest(int64_t q, int64_t d) : q(q), d(d) {}

  /// The program (SUMMA_DRIVER_TEST_PROGRAM), grid (SUMMA_DRIVER_TEST_GRID)
  /// and element type (SUMMA_DRIVER_TEST_DTYPE: f32, or one of `dtypes` by
  /// name) of the environment, where set; false, after a message naming
  /// `tool`, on a bad grid.
  bool readEnv(const char *tool, std::initializer_list<int32_t> dtypes) {
    if (const char *name = std::getenv("SUMMA_DRIVER_TEST_PROGRAM"))
      program = name;
    if (!readGrid(tool, "SUMMA_DRIVER_TEST_GRID", q, d))
      return false;
    if (const char *type = std::getenv("SUMMA_DRIVER_TEST_DTYPE")) {
      const std::pair<int32_t, const char *> names[] = {
          {SUMMA_DT_F64, "f64"},
          {SUMMA_DT_F16, "f16"},
          {SUMMA_DT_BF16, "bf16"}};
      for (int32_t accepted : dtypes)
        for (const auto &[named, name] : names)
          if (accepted == named && std::string(type) == name)
            dtype = named;
    }
    return true;
  }

  /// tensors[index]: see summa::test::setShape.
  void setShape(int index, const char *name, std::vector<int64_t> local,
                std::vector<std::vector<int32_t>> splits) {
    summa::test::setShape(tensors[index], name, dtype, std::move(local),
                          std::move(splits), q, d);
  }

  /// The layout [[depth, row], [col]] of a matrix: rows split over depth and
  /// row, columns over col.
  static std::vector<std::vector<int32_t>> depthRowByCol() {
    return {{SUMMA_AXIS_DEPTH, SUMMA_AXIS_ROW}, {SUMMA_AXIS_COL}};
  }

  /// The tensors of "double" (y = 2x): x and y of [m, k] elements per rank,
  /// both laid out [[depth, row], [col]]. Returns the number of inputs.
  int32_t setDoubleShapes(int64_t m, int64_t k) {
    setShape(0, "x", {m, k}, depthRowByCol());
    setShape(1, "y", {m, k}, depthRowByCol());
    return 1;
  }

  /// The tensors of "matmul" (Y = X W by 2.5D SUMMA): X [m, k] and Y [m, n]
  /// per rank laid out [[depth, row], [col]], W [k, n] laid out [[row], [col]]
  /// with its inputs scaled by 0.5. Returns the number of inputs.
  int32_t setMatmulShapes(int64_t m, int64_t k, int64_t n) {
    setShape(0, "X", {m, k}, depthRowByCol());
    setShape(1, "W", {k, n}, {{SUMMA_AXIS_ROW}, {SUMMA_AXIS_COL}});
    setShape(2, "Y", {m, n}, depthRowByCol());
    tensors[1].scale = 0.5;
    return 2;
  }

  /// The program over `numInputs` inputs and one output from `tensors`.
  SummaProgramDesc describe(int32_t numInputs, void (*spmd)(void **),
                            void (*reference)(void **)) const {
    SummaProgramDesc desc = {};
    desc.name = program.c_str();
    desc.q = q;
    desc.d = d;
    desc.inputs = tensors;
    desc.numInputs = numInputs;
    desc.outputs = tensors + numInputs;
    desc.numOutputs = 1;
    desc.spmd = spmd;
    desc.reference = reference;
    return desc;
  }

  /// Says that `tool` has no such program; exits with status 2.
  [[noreturn]] void unknownProgram(const char *tool) const {
    std::fprintf(stderr, "%s: unknown program '%s'\n", tool, program.c_str());
    std::exit(2);
  }
};

} // namespace summa::test

#endif // SUMMA_RUNTIME_TEST_PROGRAMDESCS_H
