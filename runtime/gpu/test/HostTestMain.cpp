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

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

int64_t summa::gputest::gridQ = 1;
int64_t summa::gputest::gridD = 1;

namespace {
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
public:
  explicit RankFailurePrinter(int rank) : rank(rank) {}
  void OnTestStart(const ::testing::TestInfo &info) override {
    testName = std::string(info.test_suite_name()) + "." + info.name();
  }
  void OnTestPartResult(const ::testing::TestPartResult &result) override {
    if (!result.failed())
      return;
    std::fprintf(stderr, "[rank %d] %s: %s:%d: failure\n%s\n", rank,
                 testName.c_str(),
                 result.file_name() ? result.file_name() : "?",
                 result.line_number(), result.summary());
    std::fflush(stderr);
  }

private:
  int rank;
  std::string testName;
};

int64_t envInt(const char *name, int64_t fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::atoll(value) : fallback;
}
} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
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
  ::testing::TestEventListeners &listeners =
      ::testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int failedRanks = 0;
  MPI_Allreduce(&failed, &failedRanks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (failedRanks)
      std::printf("[summa-gpu] FAILED on %d of %d ranks\n", failedRanks, size);
    else
      std::printf("[summa-gpu] all %d ranks passed (grid [%lld,%lld,%lld])\n",
                  size, (long long)summa::gputest::gridQ,
                  (long long)summa::gputest::gridQ,
                  (long long)summa::gputest::gridD);
    std::fflush(stdout);
  }
  MPI_Finalize();
  return failedRanks ? 1 : 0;
}
