//===- MpiTestRun.h - GoogleTest on every rank of an MPI job ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// What the runtime's GoogleTest mains share (the CPU backend's tests, the GPU
// backend's host and device tests): every rank runs the tests in the same
// order; rank 0 prints the usual report, the others only their failures,
// prefixed with the rank; the run fails if any rank failed, and rank 0 says
// so on one line that CTest matches ("[TAG] all N ranks passed (grid
// [q,q,d])" or "[TAG] FAILED on F of N ranks ..."). MPI must be initialised.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TEST_MPITESTRUN_H
#define SUMMA_RUNTIME_TEST_MPITESTRUN_H

#include "gtest/gtest.h"

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace summa::test {

/// Prints the failures of a rank other than 0, prefixed with the rank.
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

/// The start of a main that runs GoogleTest under MPI: GoogleTest's flags
/// parsed, MPI initialised; returns this rank and the world's size.
struct WorldRank {
  int rank = 0;
  int size = 1;
};
inline WorldRank initTestMpi(int &argc, char **&argv) {
  ::testing::InitGoogleTest(&argc, argv);
  MPI_Init(&argc, &argv);
  WorldRank world;
  MPI_Comm_rank(MPI_COMM_WORLD, &world.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world.size);
  return world;
}

/// An integer from the environment, or `fallback` when unset or empty.
inline int64_t envInt(const char *name, int64_t fallback) {
  const char *value = std::getenv(name);
  return value && *value ? std::atoll(value) : fallback;
}

/// Runs the tests on every rank of MPI_COMM_WORLD for the grid [q, q, d];
/// returns the process's exit status (1 if any rank failed). With
/// `announcePass` false a passing run prints nothing (the caller said why,
/// e.g. that every test skipped).
inline int runOnEveryRank(const char *tag, int64_t q, int64_t d,
                          bool announcePass = true) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
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
      std::printf("[%s] FAILED on %d of %d ranks (grid [%lld,%lld,%lld])\n",
                  tag, failedRanks, size, (long long)q, (long long)q,
                  (long long)d);
    else if (announcePass)
      std::printf("[%s] all %d ranks passed (grid [%lld,%lld,%lld])\n", tag,
                  size, (long long)q, (long long)q, (long long)d);
    std::fflush(stdout);
  }
  return failedRanks ? 1 : 0;
}

} // namespace summa::test

#endif // SUMMA_RUNTIME_TEST_MPITESTRUN_H
