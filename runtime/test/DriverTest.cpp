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

#include <cstring>
#include <limits>
#include <vector>

namespace {

// Local tile sizes; the global sizes follow from the grid.
constexpr int64_t kTileM = 3;
constexpr int64_t kTileK = 4;
constexpr int64_t kTileN = 5;

summa::test::DriverTest test(2, 2);

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
  const SummaTensorDesc &x = test.tensors[0];
  int64_t count = x.localShape[0] * x.localShape[1];
  const T *in = buffer<T>(buffers, 0);
  T *out = buffer<T>(buffers, 1);
  for (int64_t e = 0; e < count; ++e)
    out[e] = 2 * in[e];
  bool lastRank = summaRtWorldRank() == summaRtWorldSize() - 1;
  if (lastRank && test.program == "double-wrong")
    out[0] += T(0.25);
  if (lastRank && test.program == "double-nan")
    out[count - 1] = std::numeric_limits<T>::quiet_NaN();
}

template <typename T>
void doubleReference(void **buffers) {
  const SummaTensorDesc &x = test.tensors[0];
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
  summaRtAllReduce(address(y), 0, kTileM, test.dtype, 1 << SUMMA_AXIS_COL,
                   SUMMA_RED_SUM);
  if (test.program == "rowsum-wrong-replica" &&
      summaRtGridCoord(SUMMA_AXIS_COL) == test.q - 1)
    y[0] += T(1);
}

template <typename T>
void rowsumReference(void **buffers) {
  const SummaTensorDesc &x = test.tensors[0];
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
  for (int64_t t = 0; t < test.q; ++t) {
    // X[k*q + i, t] along the row from column t; W[t, j] along the column
    // from row t.
    if (j == t)
      std::memcpy(xPanel.data(), x, xPanel.size() * sizeof(T));
    if (i == t)
      std::memcpy(wPanel.data(), w, wPanel.size() * sizeof(T));
    summaRtBroadcast(address(xPanel.data()), 0, kTileM * kTileK, test.dtype,
                     1 << SUMMA_AXIS_COL, t);
    summaRtBroadcast(address(wPanel.data()), 0, kTileK * kTileN, test.dtype,
                     1 << SUMMA_AXIS_ROW, t);
    summaRtMatmul(test.dtype, address(xPanel.data()), 0, kTileK,
                  address(wPanel.data()), 0, kTileN, address(y), 0, kTileN,
                  kTileM, kTileN, kTileK, 0, 0, t > 0);
  }
}

template <typename T>
void matmulReference(void **buffers) {
  int64_t m = test.tensors[0].globalShape[0];
  int64_t k = test.tensors[0].globalShape[1];
  int64_t n = test.tensors[1].globalShape[1];
  // Calls the runtime like compiled reference code does; the driver keeps
  // these calls out of the profile.
  summaRtMatmul(test.dtype, address(buffers[0]), 0, k, address(buffers[1]), 0,
                n, address(buffers[2]), 0, n, m, n, k, 0, 0, 0);
}

//===----------------------------------------------------------------------===//
// Program descriptions
//===----------------------------------------------------------------------===//

template <typename T>
SummaProgramDesc makeProgram() {
  if (test.program.rfind("double", 0) == 0)
    return test.describe(test.setDoubleShapes(kTileM, kTileK), doubleSpmd<T>,
                         doubleReference<T>);
  if (test.program.rfind("rowsum", 0) == 0) {
    test.setShape(0, "x", {kTileM, kTileK}, test.depthRowByCol());
    test.setShape(1, "y", {kTileM}, {{SUMMA_AXIS_DEPTH, SUMMA_AXIS_ROW}});
    return test.describe(1, rowsumSpmd<T>, rowsumReference<T>);
  }
  if (test.program == "matmul")
    return test.describe(test.setMatmulShapes(kTileM, kTileK, kTileN),
                         matmulSpmd<T>, matmulReference<T>);
  test.unknownProgram("summa-driver-test");
}

} // namespace

int main(int argc, char **argv) {
  if (!test.readEnv("summa-driver-test", {SUMMA_DT_F64, SUMMA_DT_F16}))
    return 2;
  SummaProgramDesc program =
      test.dtype == SUMMA_DT_F64 ? makeProgram<double>() : makeProgram<float>();
  return summaRtMain(argc, argv, &program);
}
