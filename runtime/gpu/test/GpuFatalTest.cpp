//===- GpuFatalTest.cpp - error paths of the GPU backend --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// `summa-gpu-fatal-test <case>` provokes one error; CTest checks the message
// and that the run ends non-zero instead of hanging. In the "-alone" cases
// only rank 0 fails while rank 1 waits in MPI_Barrier: the abort must end
// both. The cases of provokeWithoutDevice run without a GPU; the others need
// one.
//
//===----------------------------------------------------------------------===//

#include "FatalTestMain.h"
#include "GpuCheck.h"

#include "summa/Runtime/SummaRuntime.h"
#include "summa/Runtime/SummaRuntimeKernels.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <string>

namespace {
/// Makes the calls of case `which` if it needs no GPU; false if it does or
/// there is no such case.
bool provokeWithoutDevice(const std::string &which) {
  if (which == "not-initialised") {
    summaRtWorldRank();
  } else if (which == "launch-not-initialised") {
    // What a compiled program's first kernel launch does.
    static const char image[] = "not a kernel image";
    mgpuModuleGetFunction(mgpuModuleLoad((void *)image, sizeof image),
                          "main_kernel");
  } else if (which == "bad-grid") {
    summaRtInit(nullptr, nullptr, 0, 1);
  } else if (which == "bad-mode" || which == "no-device") {
    // Two ranks, grid [1, 1, 2]. SUMMA_GPU_COLLECTIVES is checked before any
    // device is touched; no-device runs with CUDA_VISIBLE_DEVICES= (or on a
    // machine without a GPU).
    summaRtInit(nullptr, nullptr, 1, 2);
  } else if (which == "cuda-call-alone" || which == "cublas-call-alone" ||
             which == "nccl-call-alone") {
    MPI_Init(nullptr, nullptr);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      // Calls that fail with or without a GPU.
      if (which == "cuda-call-alone")
        SUMMA_CUDA_CHECK(cudaSetDevice(-1));
      else if (which == "cublas-call-alone")
        SUMMA_CUBLAS_CHECK(cublasSetStream(nullptr, nullptr));
      else
        SUMMA_NCCL_CHECK(ncclGetVersion(nullptr));
    }
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (which == "wait-unknown") {
    // Nothing was ever started, so nothing is in flight; no GPU involved.
    summaRtWait(12345);
  } else {
    return false;
  }
  return true;
}

/// Makes the calls of a case that leaves requests in flight; false if
/// `which` is none of them.
bool provokeInFlight(const std::string &which) {
  if (which == "wait-twice" || which == "finalize-in-flight" ||
      which == "finalize-two-in-flight") {
    // Two ranks sharing the GPU, SUMMA_GPU_COLLECTIVES=mpi, grid [1, 1, 2]:
    // the depth group has two ranks, so the starts return real handles.
    summaRtInit(nullptr, nullptr, 1, 2);
    intptr_t buffer = summaRtAlloc(64);
    const int32_t depth = 1 << SUMMA_AXIS_DEPTH;
    int64_t request =
        summaRtBroadcastStart(buffer, 0, 4, SUMMA_DT_BF16, depth, 0);
    if (which == "wait-twice") {
      summaRtWait(request);
      summaRtWait(request);
    } else if (which == "finalize-two-in-flight") {
      summaRtReduceStart(buffer, 8, 4, SUMMA_DT_F32, depth, 1, SUMMA_RED_SUM);
    }
    summaRtFinalize();
    return true;
  }
  return false;
}

/// Makes the calls of a case that needs a GPU, on the grid [1, 1, 1]; false
/// if there is no such case.
bool provokeOnDevice(const std::string &which) {
  summaRtInit(nullptr, nullptr, 1, 1);
  intptr_t data = summaRtAlloc(64);
  if (which == "bad-mask") {
    summaRtAllReduce(data, 0, 4, SUMMA_DT_F32, 0, SUMMA_RED_SUM);
  } else if (which == "bad-kind") {
    summaRtAllReduce(data, 0, 4, SUMMA_DT_BF16, 1, 11);
  } else if (which == "bad-root") {
    summaRtBroadcast(data, 0, 4, SUMMA_DT_F16, 1, 3);
  } else if (which == "matmul-bad-ld") {
    summaRtMatmul(SUMMA_DT_BF16, data, 0, 2, data, 0, 4, data, 0, 4, 2, 4, 3, 0,
                  0, 0);
  } else if (which == "start-bad-root") {
    summaRtReduceStart(data, 0, 4, SUMMA_DT_F16, 1, 3, SUMMA_RED_MAX);
  } else if (which == "wait-unknown-initialised") {
    summaRtWait(12345);
  } else if (which == "matmul-i32") {
    // Integer tensors are data (collectives, the driver), never a GEMM.
    summaRtMatmul(SUMMA_DT_I32, data, 0, 3, data, 0, 4, data, 0, 4, 2, 4, 3, 0,
                  0, 0);
  } else if (which == "matmul-null") {
    summaRtMatmul(SUMMA_DT_F32, 0, 0, 3, data, 0, 4, data, 0, 4, 2, 4, 3, 0, 0,
                  0);
  } else if (which == "epilogue-bad-activation") {
    summaRtMatmulEpilogue(SUMMA_DT_F16, data, 0, 2, data, 0, 2, 0, 0, 2, data,
                          0, data, 0, 2, 2, 2, 2, 0, 0, 2);
  } else if (which == "epilogue-bad-ldr") {
    summaRtMatmulEpilogue(SUMMA_DT_F32, data, 0, 2, data, 0, 3, data, 8, 2, 0,
                          0, data, 0, 3, 2, 3, 2, 0, 0, 0);
  } else if (which == "free-unknown") {
    summaRtFree(data + 4);
  } else if (which == "out-of-memory") {
    summaRtAlloc(int64_t(1) << 50);
  } else {
    return false;
  }
  return true;
}

bool provoke(const std::string &which) {
  return provokeWithoutDevice(which) || provokeInFlight(which) ||
         provokeOnDevice(which);
}
} // namespace

int main(int argc, char **argv) {
  return summa::test::runFatalCase("summa-gpu-fatal-test", argc, argv, provoke);
}
