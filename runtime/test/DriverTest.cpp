//===- DriverTest.cpp - hand-written programs for summaRtMain ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Stands in for the main that summa-compile emits: a SummaProgramDesc written
// by hand, run through summaRtMain. The environment selects the program:
//
//   SUMMA_DRIVER_TEST_PROGRAM  double (default): y = 2x, x and y laid out
//                                [[depth, row], [col]]
//                              double-wrong: one rank's tile is off
//                              double-nan: one rank's tile holds a NaN
//                              rowsum: y[m] = sum_k x[m, k]; local sums, then
//                                an all-reduce along the row (y replicated
//                                over col)
//                              rowsum-wrong-replica: the last column's
//                                replicas of y are off
//                              matmul: Y = X W by 2.5D SUMMA (broadcasts along
//                                rows and columns, local GEMMs)
//   SUMMA_DRIVER_TEST_GRID     q,d of the grid [q, q, d] (default 2,2)
//   SUMMA_DRIVER_TEST_DTYPE    f32 (default), f64 or f16
//
//===----------------------------------------------------------------------===//

#include "summa/Runtime/SummaRuntime.h"

#include "ProgramDescs.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace {

// Local tile sizes; the global sizes follow from the grid.
constexpr int64_t kTileM = 3;
constexpr int64_t kTileK = 4;
constexpr int64_t kTileN = 5;

std::string programName = "double";
int64_t gridQ = 2;
int64_t gridD = 2;
int32_t dtype = SUMMA_DT_F32;

SummaTensorDesc tensorDescs[3];

template <typename T>
T *buffer(void **buffers, int i) {
  return static_cast<T *>(buffers[i]);
}

intptr_t address(const void *pointer) {
  return reinterpret_cast<intptr_t>(pointer);
}

//===----------------------------------------------------------------------===//
// double: y = 2x
//===----------------------------------------------------------------------===//

template <typename T>
void doubleSpmd(void **buffers) {
  const SummaTensorDesc &x = tensorDescs[0];
  int64_t count = x.localShape[0] * x.localShape[1];
  const T *in = buffer<T>(buffers, 0);
  T *out = buffer<T>(buffers, 1);
  for (int64_t e = 0; e < count; ++e)
    out[e] = 2 * in[e];
  bool lastRank = summaRtWorldRank() == summaRtWorldSize() - 1;
  if (lastRank && programName == "double-wrong")
    out[0] += T(0.25);
  if (lastRank && programName == "double-nan")
    out[count - 1] = std::numeric_limits<T>::quiet_NaN();
}

template <typename T>
void doubleReference(void **buffers) {
  const SummaTensorDesc &x = tensorDescs[0];
  int64_t count = x.globalShape[0] * x.globalShape[1];
  for (int64_t e = 0; e < count; ++e)
    buffer<T>(buffers, 1)[e] = 2 * buffer<T>(buffers, 0)[e];
}

//===----------------------------------------------------------------------===//
// rowsum: y[m] = sum_k x[m, k]
//===----------------------------------------------------------------------===//

template <typename T>
void rowsumSpmd(void **buffers) {
  const T *x = buffer<T>(buffers, 0);
  T *y = buffer<T>(buffers, 1);
  for (int64_t m = 0; m < kTileM; ++m) {
    T sum = 0;
    for (int64_t k = 0; k < kTileK; ++k)
      sum += x[m * kTileK + k];
    y[m] = sum;
  }
  // The columns of x are split over col: sum the partial sums along the row.
  summaRtAllReduce(address(y), 0, kTileM, dtype, 1 << SUMMA_AXIS_COL,
                   SUMMA_RED_SUM);
  if (programName == "rowsum-wrong-replica" &&
      summaRtGridCoord(SUMMA_AXIS_COL) == gridQ - 1)
    y[0] += T(1);
}

template <typename T>
void rowsumReference(void **buffers) {
  const SummaTensorDesc &x = tensorDescs[0];
  for (int64_t m = 0; m < x.globalShape[0]; ++m) {
    T sum = 0;
    for (int64_t k = 0; k < x.globalShape[1]; ++k)
      sum += buffer<T>(buffers, 0)[m * x.globalShape[1] + k];
    buffer<T>(buffers, 1)[m] = sum;
  }
}

//===----------------------------------------------------------------------===//
// matmul: Y[M, N] = X[M, K] W[K, N] by 2.5D SUMMA
//===----------------------------------------------------------------------===//

template <typename T>
void matmulSpmd(void **buffers) {
  const T *x = buffer<T>(buffers, 0);
  const T *w = buffer<T>(buffers, 1);
  T *y = buffer<T>(buffers, 2);
  int64_t i = summaRtGridCoord(SUMMA_AXIS_ROW);
  int64_t j = summaRtGridCoord(SUMMA_AXIS_COL);
  std::vector<T> xPanel(kTileM * kTileK), wPanel(kTileK * kTileN);
  for (int64_t t = 0; t < gridQ; ++t) {
    // X[k*q + i, t] along the row from column t; W[t, j] along the column
    // from row t.
    if (j == t)
      std::memcpy(xPanel.data(), x, xPanel.size() * sizeof(T));
    if (i == t)
      std::memcpy(wPanel.data(), w, wPanel.size() * sizeof(T));
    summaRtBroadcast(address(xPanel.data()), 0, kTileM * kTileK, dtype,
                     1 << SUMMA_AXIS_COL, t);
    summaRtBroadcast(address(wPanel.data()), 0, kTileK * kTileN, dtype,
                     1 << SUMMA_AXIS_ROW, t);
    summaRtMatmul(dtype, address(xPanel.data()), 0, kTileK,
                  address(wPanel.data()), 0, kTileN, address(y), 0, kTileN,
                  kTileM, kTileN, kTileK, 0, 0, t > 0);
  }
}

template <typename T>
void matmulReference(void **buffers) {
  int64_t m = tensorDescs[0].globalShape[0];
  int64_t k = tensorDescs[0].globalShape[1];
  int64_t n = tensorDescs[1].globalShape[1];
  // Calls the runtime like compiled reference code does; the driver keeps
  // these calls out of the profile.
  summaRtMatmul(dtype, address(buffers[0]), 0, k, address(buffers[1]), 0, n,
                address(buffers[2]), 0, n, m, n, k, 0, 0, 0);
}

//===----------------------------------------------------------------------===//
// Program descriptions
//===----------------------------------------------------------------------===//

void setShape(SummaTensorDesc &desc, const char *name,
              std::vector<int64_t> local,
              std::vector<std::vector<int32_t>> splits) {
  summa::test::setShape(desc, name, dtype, std::move(local), std::move(splits),
                        gridQ, gridD);
}

template <typename T>
SummaProgramDesc makeProgram() {
  const int32_t row = SUMMA_AXIS_ROW, col = SUMMA_AXIS_COL,
                depth = SUMMA_AXIS_DEPTH;
  SummaProgramDesc program = {};
  program.name = programName.c_str();
  program.q = gridQ;
  program.d = gridD;
  program.inputs = &tensorDescs[0];
  if (programName.rfind("double", 0) == 0) {
    setShape(tensorDescs[0], "x", {kTileM, kTileK}, {{depth, row}, {col}});
    setShape(tensorDescs[1], "y", {kTileM, kTileK}, {{depth, row}, {col}});
    program.numInputs = 1;
    program.spmd = doubleSpmd<T>;
    program.reference = doubleReference<T>;
  } else if (programName.rfind("rowsum", 0) == 0) {
    setShape(tensorDescs[0], "x", {kTileM, kTileK}, {{depth, row}, {col}});
    setShape(tensorDescs[1], "y", {kTileM}, {{depth, row}});
    program.numInputs = 1;
    program.spmd = rowsumSpmd<T>;
    program.reference = rowsumReference<T>;
  } else if (programName == "matmul") {
    setShape(tensorDescs[0], "X", {kTileM, kTileK}, {{depth, row}, {col}});
    setShape(tensorDescs[1], "W", {kTileK, kTileN}, {{row}, {col}});
    setShape(tensorDescs[2], "Y", {kTileM, kTileN}, {{depth, row}, {col}});
    tensorDescs[1].scale = 0.5;
    program.numInputs = 2;
    program.spmd = matmulSpmd<T>;
    program.reference = matmulReference<T>;
  } else {
    std::fprintf(stderr, "summa-driver-test: unknown program '%s'\n",
                 programName.c_str());
    std::exit(2);
  }
  program.numOutputs = 1;
  program.outputs = &tensorDescs[program.numInputs];
  return program;
}

} // namespace

int main(int argc, char **argv) {
  if (!summa::test::readDriverTestEnv("summa-driver-test", programName, gridQ,
                                      gridD))
    return 2;
  if (const char *type = std::getenv("SUMMA_DRIVER_TEST_DTYPE")) {
    std::string name = type;
    dtype = name == "f64"   ? SUMMA_DT_F64
            : name == "f16" ? SUMMA_DT_F16
                            : SUMMA_DT_F32;
  }
  SummaProgramDesc program =
      dtype == SUMMA_DT_F64 ? makeProgram<double>() : makeProgram<float>();
  return summaRtMain(argc, argv, &program);
}
