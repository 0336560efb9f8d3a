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

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>

bool summa::gputest::haveDevice = false;
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
    else if (summa::gputest::haveDevice)
      std::printf("[summa-gpu] all %d ranks passed (grid [%lld,%lld,%lld])\n",
                  size, (long long)q, (long long)q, (long long)d);
    std::fflush(stdout);
  }
  if (summa::gputest::haveDevice)
    summaRtFinalize();
  else
    MPI_Finalize();
  return failedRanks ? 1 : 0;
}
