//===- TestMain.cpp - MPI-aware GoogleTest main -----------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Initialises the runtime for the grid [q, q, d] given by SUMMA_TEST_Q and
// SUMMA_TEST_D (or --summa-q=N --summa-d=N), runs the tests on every rank in
// the same order, and fails the run if any rank failed. Rank 0 prints the
// usual GoogleTest report; the other ranks print only their failures.
//
//===----------------------------------------------------------------------===//

#include "summa/Runtime/SummaRuntime.h"

#include "gtest/gtest.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
/// Prints the failures of a rank other than 0, prefixed with the rank.
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
public:
  explicit RankFailurePrinter(int64_t rank) : rank(rank) {}

  void OnTestStart(const ::testing::TestInfo &info) override {
    testName = std::string(info.test_suite_name()) + "." + info.name();
  }

  void OnTestPartResult(const ::testing::TestPartResult &result) override {
    if (!result.failed())
      return;
    std::fprintf(stderr, "[rank %lld] %s: %s:%d: failure\n%s\n",
                 (long long)rank, testName.c_str(),
                 result.file_name() ? result.file_name() : "?",
                 result.line_number(), result.summary());
    std::fflush(stderr);
  }

private:
  int64_t rank;
  std::string testName;
};

int64_t gridOption(int argc, char **argv, const char *flag, const char *env) {
  size_t length = std::strlen(flag);
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], flag, length) == 0 && argv[i][length] == '=')
      return std::atoll(argv[i] + length + 1);
  const char *value = std::getenv(env);
  return value ? std::atoll(value) : 1;
}
} // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  int64_t q = gridOption(argc, argv, "--summa-q", "SUMMA_TEST_Q");
  int64_t d = gridOption(argc, argv, "--summa-d", "SUMMA_TEST_D");
  summaRtInit(&argc, &argv, q, d);

  int64_t rank = summaRtWorldRank();
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
      std::printf(
          "[summa] FAILED on %d of %lld ranks (grid [%lld,%lld,%lld])\n",
          failedRanks, (long long)summaRtWorldSize(), (long long)q,
          (long long)q, (long long)d);
    else
      std::printf("[summa] all %lld ranks passed (grid [%lld,%lld,%lld])\n",
                  (long long)summaRtWorldSize(), (long long)q, (long long)q,
                  (long long)d);
    std::fflush(stdout);
  }
  summaRtFinalize();
  return failedRanks ? 1 : 0;
}
