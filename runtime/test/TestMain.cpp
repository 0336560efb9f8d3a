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

#include "MpiTestRun.h"

#include "gtest/gtest.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {
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

  int status = summa::test::runOnEveryRank("summa", q, d);
  summaRtFinalize();
  return status;
}
