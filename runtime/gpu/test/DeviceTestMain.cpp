//===- DeviceTestMain.cpp - main of the GPU device tests --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// With a CUDA device: initialises libsumma_runtime_cuda.so for the grid
// [q, q, d] of SUMMA_TEST_Q / SUMMA_TEST_D (collectives over NCCL, or over
// MPI with SUMMA_GPU_COLLECTIVES=mpi), runs the tests on every rank and fails
// if any rank failed. Without one: says so on one line that CTest matches
// (SKIP_REGULAR_EXPRESSION), and every test skips with "no CUDA device".
//
//===----------------------------------------------------------------------===//

#include "DeviceTestUtil.h"

#include "MpiTestRun.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

bool summa::gputest::haveDevice = false;
int64_t summa::gputest::gridQ = 1;
int64_t summa::gputest::gridD = 1;

using summa::test::envInt;

int main(int argc, char **argv) {
  auto [rank, size] = summa::test::initTestMpi(argc, argv);
  int64_t q = envInt("SUMMA_TEST_Q", 1), d = envInt("SUMMA_TEST_D", size);
  summa::gputest::gridQ = q;
  summa::gputest::gridD = d;

  int devices = 0;
  cudaError_t status = cudaGetDeviceCount(&devices);
  summa::gputest::haveDevice = status == cudaSuccess && devices > 0;
  if (!summa::gputest::haveDevice) {
    if (rank == 0) {
      std::printf("[summa-gpu] SKIPPED: no CUDA device (cudaGetDeviceCount: "
                  "%s); the device tests need a GPU\n",
                  status == cudaSuccess ? "0 devices"
                                        : cudaGetErrorString(status));
      std::fflush(stdout);
    }
  } else {
    summaRtInit(&argc, &argv, q, d);
  }

  int result = summa::test::runOnEveryRank("summa-gpu", q, d,
                                           summa::gputest::haveDevice);
  if (summa::gputest::haveDevice)
    summaRtFinalize();
  else
    MPI_Finalize();
  return result;
}
