//===- HostTestMain.cpp - main of the GPU backend's host tests --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The host-side logic of the GPU backend needs no GPU: this main initialises
// MPI only (the MPI staging collectives run under mpiexec), takes the grid
// [q, q, d] from SUMMA_TEST_Q / SUMMA_TEST_D (default: the world size as
// [1, 1, n] or [2, 2, n/4] when it divides), runs the tests on every rank and
// fails if any rank failed.
//
//===----------------------------------------------------------------------===//

#include "HostTestUtil.h"

#include "MpiTestRun.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int64_t summa::gputest::gridQ = 1;
int64_t summa::gputest::gridD = 1;

using summa::test::envInt;

int main(int argc, char **argv) {
  auto [rank, size] = summa::test::initTestMpi(argc, argv);
  int64_t q = size % 4 == 0 ? 2 : 1;
  summa::gputest::gridQ = envInt("SUMMA_TEST_Q", q);
  summa::gputest::gridD = envInt("SUMMA_TEST_D", size / (q * q));
  if (summa::gputest::gridQ * summa::gputest::gridQ * summa::gputest::gridD !=
      size) {
    if (rank == 0)
      std::fprintf(stderr,
                   "summa-gpu-host-tests: grid [%lld,%lld,%lld] does "
                   "not match %d ranks\n",
                   (long long)summa::gputest::gridQ,
                   (long long)summa::gputest::gridQ,
                   (long long)summa::gputest::gridD, size);
    MPI_Finalize();
    return 2;
  }
  int status = summa::test::runOnEveryRank("summa-gpu", summa::gputest::gridQ,
                                           summa::gputest::gridD);
  MPI_Finalize();
  return status;
}
