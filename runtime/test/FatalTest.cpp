//===- FatalTest.cpp - error paths that must abort every rank ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// `summa-fatal-test <case>` provokes one error on the grid [1, 1, 2] (two
// ranks); CTest checks the message and that the run ends non-zero instead of
// hanging. In the cases marked "alone", only rank 0 makes the bad call while
// rank 1 waits in a valid collective: the abort must still end both.
//
//===----------------------------------------------------------------------===//

#include "Error.h"
#include "FatalTestMain.h"

#include "summa/Runtime/SummaRuntime.h"

#include <mpi.h>

#include <string>

namespace {
constexpr int32_t kDepth = 1 << SUMMA_AXIS_DEPTH;

intptr_t address(const void *pointer) {
  return reinterpret_cast<intptr_t>(pointer);
}

/// The GEMM cases of provokeOnTwoRanks (summaRtMatmul, its batched and
/// epilogue forms) on the 16 floats at `data`; false if `which` is none.
bool provokeGemm(const std::string &which, float *data) {
  if (which == "matmul-bad-ld") {
    summaRtMatmul(SUMMA_DT_F32, address(data), 0, 2, address(data), 0, 3,
                  address(data), 0, 3, 2, 3, 3, 0, 0, 0);
  } else if (which == "matmul-batched-negative") {
    summaRtMatmulBatched(SUMMA_DT_F32, address(data), 0, 2, 4, address(data), 0,
                         2, 4, address(data), 0, 2, 4, 2, 2, 2, -1, 0, 0, 0);
  } else if (which == "matmul-batched-member") {
    // Each member is checked as a summaRtMatmul (here: a leading dimension
    // too small for B).
    summaRtMatmulBatched(SUMMA_DT_F32, address(data), 0, 2, 4, address(data), 0,
                         1, 4, address(data), 0, 2, 4, 2, 2, 2, 2, 0, 0, 0);
  } else if (which == "epilogue-bad-activation") {
    summaRtMatmulEpilogue(SUMMA_DT_F32, address(data), 0, 2, address(data), 0,
                          2, 0, 0, 2, address(data), 0, address(data), 0, 2, 2,
                          2, 2, 0, 0, 2);
  } else if (which == "epilogue-bad-ldr") {
    summaRtMatmulEpilogue(SUMMA_DT_F32, address(data), 0, 2, address(data), 0,
                          3, address(data + 8), 0, 2, 0, 0, address(data), 0, 3,
                          2, 3, 2, 0, 0, 0);
  } else if (which == "epilogue-bad-lda") {
    // The checks of summaRtMatmul under the epilogue's name.
    summaRtMatmulEpilogue(SUMMA_DT_F32, address(data), 0, 2, address(data), 0,
                          3, 0, 0, 3, 0, 0, address(data), 0, 3, 2, 3, 3, 0, 0,
                          0);
  } else if (which == "epilogue-null-d") {
    summaRtMatmulEpilogue(SUMMA_DT_F32, address(data), 0, 2, address(data), 0,
                          2, 0, 0, 2, 0, 0, 0, 0, 2, 2, 2, 2, 0, 0, 0);
  } else if (which == "epilogue-negative-bias-offset") {
    summaRtMatmulEpilogue(SUMMA_DT_F64, address(data), 0, 2, address(data), 0,
                          2, 0, 0, 2, address(data), -1, address(data), 0, 2, 2,
                          2, 2, 0, 0, 0);
  } else if (which == "epilogue-in-place-ld") {
    // R starts where D does with another leading dimension.
    summaRtMatmulEpilogue(SUMMA_DT_F32, address(data), 0, 2, address(data), 0,
                          2, address(data + 8), 0, 3, 0, 0, address(data + 8),
                          0, 2, 2, 2, 2, 0, 0, 0);
  } else if (which == "epilogue-f16") {
    summaRtMatmulEpilogue(SUMMA_DT_F16, address(data), 0, 2, address(data), 0,
                          2, 0, 0, 2, 0, 0, address(data), 0, 2, 2, 2, 2, 0, 0,
                          0);
  } else if (which == "matmul-f16") {
    summaRtMatmul(SUMMA_DT_F16, address(data), 0, 2, address(data), 0, 2,
                  address(data), 0, 2, 2, 2, 2, 0, 0, 0);
  } else {
    return false;
  }
  return true;
}

/// Makes the calls of case `which` on the grid [1, 1, 2]; false if there is
/// no such case.
bool provokeOnTwoRanks(const std::string &which) {
  summaRtInit(nullptr, nullptr, 1, 2);
  float data[16] = {0};
  int64_t rank = summaRtWorldRank();
  if (which == "f16-broadcast") {
    summaRtBroadcast(address(data), 0, 4, SUMMA_DT_F16, kDepth, 0);
  } else if (which == "bf16-all-reduce") {
    summaRtAllReduce(address(data), 0, 4, SUMMA_DT_BF16, kDepth, SUMMA_RED_SUM);
  } else if (which == "bad-dtype") {
    summaRtAllReduce(address(data), 0, 4, 9, kDepth, SUMMA_RED_SUM);
  } else if (which == "bad-mask") {
    summaRtAllReduce(address(data), 0, 4, SUMMA_DT_F32, 0, SUMMA_RED_SUM);
  } else if (which == "bad-kind") {
    summaRtAllReduce(address(data), 0, 4, SUMMA_DT_F32, kDepth, 11);
  } else if (which == "negative-count") {
    summaRtBroadcast(address(data), 0, -1, SUMMA_DT_F32, kDepth, 0);
  } else if (which == "null-buffer") {
    summaRtAllGather(0, 0, address(data), 0, 2, 2, SUMMA_DT_F32, kDepth);
  } else if (which == "bad-root-alone") {
    // Rank 1 enters a valid reduce and waits for rank 0, which never comes.
    summaRtReduce(address(data), 0, 4, SUMMA_DT_F32, kDepth, rank == 0 ? 5 : 0,
                  SUMMA_RED_SUM);
  } else if (provokeGemm(which, data)) {
    // A GEMM case.
  } else if (which == "mpi-error") {
    int value = 0;
    SUMMA_MPI_CHECK(MPI_Bcast(&value, 1, MPI_INT, 99, MPI_COMM_WORLD));
  } else if (which == "user-fatal-alone") {
    if (rank == 1)
      summaRtFatal("compiled code gave up");
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (which == "start-f16-broadcast") {
    summaRtBroadcastStart(address(data), 0, 4, SUMMA_DT_F16, kDepth, 0);
  } else if (which == "start-negative-count") {
    summaRtBroadcastStart(address(data), 0, -1, SUMMA_DT_F32, kDepth, 0);
  } else if (which == "start-bad-kind") {
    summaRtReduceStart(address(data), 0, 4, SUMMA_DT_F32, kDepth, 0, 11);
  } else if (which == "start-bad-mask") {
    summaRtReduceStart(address(data), 0, 4, SUMMA_DT_F32, 8, 0, SUMMA_RED_SUM);
  } else if (which == "start-bad-root-alone") {
    // Rank 1 starts a valid reduce and waits for rank 0, which never comes.
    int64_t request =
        summaRtReduceStart(address(data), 0, 4, SUMMA_DT_F32, kDepth,
                           rank == 0 ? 5 : 0, SUMMA_RED_SUM);
    summaRtWait(request);
  } else if (which == "wait-unknown") {
    summaRtWait(12345);
  } else if (which == "wait-negative") {
    summaRtWait(-1);
  } else if (which == "wait-twice") {
    int64_t request =
        summaRtBroadcastStart(address(data), 0, 4, SUMMA_DT_F32, kDepth, 0);
    summaRtWait(request);
    summaRtWait(request);
  } else if (which == "finalize-in-flight") {
    summaRtBroadcastStart(address(data), 0, 4, SUMMA_DT_F32, kDepth, 0);
  } else if (which == "finalize-two-in-flight") {
    summaRtBroadcastStart(address(data), 0, 4, SUMMA_DT_F32, kDepth, 0);
    summaRtReduceStart(address(data + 8), 0, 4, SUMMA_DT_F32, kDepth, 1,
                       SUMMA_RED_SUM);
  } else {
    return false;
  }
  // Not reached when the runtime aborts as it should.
  summaRtFinalize();
  return true;
}

/// Makes the calls of case `which`; false if there is no such case.
bool provoke(const std::string &which) {
  if (which == "not-initialised") {
    summaRtWorldRank();
  } else if (which == "wait-not-initialised") {
    // No request was ever started: nothing is in flight.
    summaRtWait(3);
  } else if (which == "bad-grid") {
    summaRtInit(nullptr, nullptr, 0, 1);
  } else {
    return provokeOnTwoRanks(which);
  }
  return true;
}
} // namespace

int main(int argc, char **argv) {
  return summa::test::runFatalCase("summa-fatal-test", argc, argv, provoke);
}
