//===- GpuDriverTest.cpp - device programs through summaRtMain --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// A SummaProgramDesc written by hand, as `summa-compile --target=cuda`
// writes one: its spmd functions receive DEVICE pointers and call the
// runtime, plus one small kernel of the test's own (TestKernels.h) where a
// compiled program would launch a generated one; its references are host
// code in f64 (referenceF64), as summa-compile's are. Links
// libsumma_runtime_cuda.so and that kernel only. The environment selects:
//
//   SUMMA_DRIVER_TEST_PROGRAM  double (default): y = 2x (scaleOnStream)
//                              double-wrong: the last rank's tile is off
//                              matmul: Y = X W by 2.5D SUMMA (device panels,
//                                broadcasts, summaRtMatmul)
//   SUMMA_DRIVER_TEST_GRID     q,d (default 1,1)
//   SUMMA_DRIVER_TEST_DTYPE    f32 (default), f16 or bf16
//
//===----------------------------------------------------------------------===//

#include "summa/Runtime/SummaRuntime.h"

#include "ProgramDescs.h"
#include "TestKernels.h"
#include "summa/Runtime/SummaRuntimeKernels.h"

namespace {

// Local tile sizes; the global sizes follow from the grid.
constexpr int64_t kTileM = 24;
constexpr int64_t kTileK = 16;
constexpr int64_t kTileN = 16;

summa::test::DriverTest test(1, 1);

int64_t elementSize() { return test.dtype == SUMMA_DT_F32 ? 4 : 2; }

intptr_t address(void *pointer) { return reinterpret_cast<intptr_t>(pointer); }

/// Device scratch from the runtime's pool, freed at the end of the scope.
class Scratch {
public:
  explicit Scratch(int64_t elements)
      : pointer(summaRtAlloc(elements * elementSize())) {}
  ~Scratch() { summaRtFree(pointer); }
  intptr_t get() const { return pointer; }

private:
  intptr_t pointer;
};

void copy(intptr_t from, intptr_t to, int64_t count) {
  summa::gputest::scaleOnStream(test.dtype, from, to, count, 1.0);
}

//===----------------------------------------------------------------------===//
// double: y = 2x
//===----------------------------------------------------------------------===//

void doubleSpmd(void **buffers) {
  const SummaTensorDesc &x = test.tensors[0];
  int64_t count = x.localShape[0] * x.localShape[1];
  bool lastRank = summaRtWorldRank() == summaRtWorldSize() - 1;
  double factor = lastRank && test.program == "double-wrong" ? 2.5 : 2.0;
  summa::gputest::scaleOnStream(test.dtype, address(buffers[0]),
                                address(buffers[1]), count, factor);
}

/// Host references: f64 buffers of the global shapes.
double *host(void *buffer) { return static_cast<double *>(buffer); }

void doubleReference(void **buffers) {
  const SummaTensorDesc &x = test.tensors[0];
  for (int64_t i = 0; i < x.globalShape[0] * x.globalShape[1]; ++i)
    host(buffers[1])[i] = 2.0 * host(buffers[0])[i];
}

//===----------------------------------------------------------------------===//
// matmul: Y[M, N] = X[M, K] W[K, N] by 2.5D SUMMA
//===----------------------------------------------------------------------===//

/// Y (+)= the SUMMA product of the X and W tiles, into the [kTileM, kTileN]
/// tile y.
void summa(intptr_t x, intptr_t w, intptr_t y) {
  int64_t i = summaRtGridCoord(SUMMA_AXIS_ROW);
  int64_t j = summaRtGridCoord(SUMMA_AXIS_COL);
  Scratch xPanel(kTileM * kTileK), wPanel(kTileK * kTileN);
  for (int64_t t = 0; t < test.q; ++t) {
    if (j == t)
      copy(x, xPanel.get(), kTileM * kTileK);
    if (i == t)
      copy(w, wPanel.get(), kTileK * kTileN);
    summaRtBroadcast(xPanel.get(), 0, kTileM * kTileK, test.dtype,
                     1 << SUMMA_AXIS_COL, t);
    summaRtBroadcast(wPanel.get(), 0, kTileK * kTileN, test.dtype,
                     1 << SUMMA_AXIS_ROW, t);
    summaRtMatmul(test.dtype, xPanel.get(), 0, kTileK, wPanel.get(), 0, kTileN,
                  y, 0, kTileN, kTileM, kTileN, kTileK, 0, 0, t > 0);
  }
}

void matmulSpmd(void **buffers) {
  summa(address(buffers[0]), address(buffers[1]), address(buffers[2]));
}

/// y[m, n] = x[m, k] w[k, n] on the host.
void hostMatmul(const double *x, const double *w, double *y, int64_t m,
                int64_t n, int64_t k) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t l = 0; l < k; ++l)
        sum += x[i * k + l] * w[l * n + j];
      y[i * n + j] = sum;
    }
}

void matmulReference(void **buffers) {
  hostMatmul(host(buffers[0]), host(buffers[1]), host(buffers[2]),
             test.tensors[0].globalShape[0], test.tensors[1].globalShape[1],
             test.tensors[0].globalShape[1]);
}

//===----------------------------------------------------------------------===//
// Program descriptions
//===----------------------------------------------------------------------===//

SummaProgramDesc makeProgram() {
  SummaProgramDesc program;
  if (test.program.rfind("double", 0) == 0)
    program = test.describe(test.setDoubleShapes(kTileM, kTileK), doubleSpmd,
                            doubleReference);
  else if (test.program == "matmul")
    program = test.describe(test.setMatmulShapes(kTileM, kTileK, kTileN),
                            matmulSpmd, matmulReference);
  else
    test.unknownProgram("summa-gpu-driver-test");
  program.referenceF64 = 1;
  return program;
}

} // namespace

int main(int argc, char **argv) {
  if (!test.readEnv("summa-gpu-driver-test", {SUMMA_DT_BF16, SUMMA_DT_F16}))
    return 2;
  SummaProgramDesc program = makeProgram();
  return summaRtMain(argc, argv, &program);
}
