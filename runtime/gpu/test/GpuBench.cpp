//===- GpuBench.cpp - GEMM timings ------------------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// `summa-gpu-bench [--tokens T] [--iters N]` times, on one GPU (grid
// [1,1,1]), the local GEMMs of a GPT layer (h = 1536, MLP 4h, T = batch x
// seq tokens; forward A B and the backward forms A B^T and A^T B) through
// summaRtMatmul against cuBLAS's own rate (cublasGemmEx, default algorithm,
// same shape, type and stream). Prints one line per measurement:
//
//   gemm <name> <dtype> <m> <n> <k> <transA> <transB> <summa TFLOP/s>
//        <cublas TFLOP/s> <ratio>
//
//===----------------------------------------------------------------------===//

#include "GpuRuntime.h"

#include "summa/Runtime/SummaRuntime.h"
#include "summa/Runtime/SummaRuntimeKernels.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

#define BENCH_CHECK(expr)                                                      \
  do {                                                                         \
    if ((expr) != 0) {                                                         \
      std::fprintf(stderr, "summa-gpu-bench: %s failed\n", #expr);             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (false)

int iterations = 20;

/// Milliseconds per call of `fn` on the compute stream (events around
/// `iterations` calls after 3 warm-up calls).
double timeMs(const std::function<void()> &fn) {
  cudaStream_t stream = summa::gpu::computeStream();
  for (int i = 0; i < 3; ++i)
    fn();
  cudaEvent_t start, stop;
  BENCH_CHECK(cudaEventCreate(&start));
  BENCH_CHECK(cudaEventCreate(&stop));
  BENCH_CHECK(cudaEventRecord(start, stream));
  for (int i = 0; i < iterations; ++i)
    fn();
  BENCH_CHECK(cudaEventRecord(stop, stream));
  BENCH_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  BENCH_CHECK(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / iterations;
}

intptr_t alloc(int64_t bytes) {
  intptr_t pointer = summaRtAlloc(bytes);
  // Non-zero, finite data (1.0 in bf16 and f16 bit patterns are close
  // enough: the values do not matter for timing, NaNs could).
  BENCH_CHECK(cudaMemsetAsync(reinterpret_cast<void *>(pointer), 0x3c, bytes,
                              summa::gpu::computeStream()));
  return pointer;
}

const char *typeName(int32_t dtype) {
  return dtype == SUMMA_DT_BF16  ? "bf16"
         : dtype == SUMMA_DT_F16 ? "f16"
                                 : "f32";
}

cudaDataType_t cudaType(int32_t dtype) {
  return dtype == SUMMA_DT_BF16  ? CUDA_R_16BF
         : dtype == SUMMA_DT_F16 ? CUDA_R_16F
                                 : CUDA_R_32F;
}

struct Gemm {
  const char *name;
  int64_t m, n, k;
  int transA, transB;
};

void benchGemm(cublasHandle_t cublas, const Gemm &g, int32_t dtype) {
  int64_t size = dtype == SUMMA_DT_F32 ? 4 : 2;
  int64_t lda = g.transA ? g.m : g.k, ldb = g.transB ? g.k : g.n, ldc = g.n;
  intptr_t a = alloc(g.m * g.k * size), b = alloc(g.k * g.n * size),
           c = alloc(g.m * g.n * size);
  double summaMs = timeMs([&] {
    summaRtMatmul(dtype, a, 0, lda, b, 0, ldb, c, 0, ldc, g.m, g.n, g.k,
                  g.transA, g.transB, 0);
  });
  // cuBLAS directly: the same column-major call summaRtMatmul makes.
  float alpha = 1, beta = 0;
  cublasComputeType_t compute =
      dtype == SUMMA_DT_F32 && summa::gpu::tf32Allowed()
          ? CUBLAS_COMPUTE_32F_FAST_TF32
          : CUBLAS_COMPUTE_32F;
  double cublasMs = timeMs([&] {
    BENCH_CHECK(cublasGemmEx(
        cublas, g.transB ? CUBLAS_OP_T : CUBLAS_OP_N,
        g.transA ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(g.n),
        static_cast<int>(g.m), static_cast<int>(g.k), &alpha,
        reinterpret_cast<void *>(b), cudaType(dtype), static_cast<int>(ldb),
        reinterpret_cast<void *>(a), cudaType(dtype), static_cast<int>(lda),
        &beta, reinterpret_cast<void *>(c), cudaType(dtype),
        static_cast<int>(ldc), compute, CUBLAS_GEMM_DEFAULT));
  });
  double flops = 2.0 * g.m * g.n * g.k;
  double summaRate = flops / (summaMs * 1e-3) / 1e12;
  double cublasRate = flops / (cublasMs * 1e-3) / 1e12;
  std::printf("gemm %s %s %lld %lld %lld %d %d %.1f %.1f %.3f\n", g.name,
              typeName(dtype), (long long)g.m, (long long)g.n, (long long)g.k,
              g.transA, g.transB, summaRate, cublasRate,
              summaRate / cublasRate);
  std::fflush(stdout);
  summaRtFree(a);
  summaRtFree(b);
  summaRtFree(c);
}

} // namespace

int main(int argc, char **argv) {
  int64_t tokens = 8192;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--tokens") == 0)
      tokens = std::atoll(argv[i + 1]);
    else if (std::strcmp(argv[i], "--iters") == 0)
      iterations = std::atoi(argv[i + 1]);
  }
  summaRtInit(&argc, &argv, 1, 1);
  const summa::gpu::DeviceInfo &device = summa::gpu::deviceInfo();
  std::printf("device %s sm_%d %d\n", device.name, device.computeCapability,
              device.multiprocessors);
  cublasHandle_t cublas;
  BENCH_CHECK(cublasCreate(&cublas));
  BENCH_CHECK(cublasSetStream(cublas, summa::gpu::computeStream()));

  const int64_t h = 1536, T = tokens;
  const Gemm gemms[] = {
      {"qkv", T, 3 * h, h, 0, 0},         {"attn_out", T, h, h, 0, 0},
      {"mlp_up", T, 4 * h, h, 0, 0},      {"mlp_down", T, h, 4 * h, 0, 0},
      {"mlp_down.dx", T, 4 * h, h, 0, 1}, // dH = dY W^T (A B^T)
      {"mlp_down.dw", 4 * h, h, T, 1, 0}, // dW = H^T dY (A^T B)
      {"qkv.dx", T, h, 3 * h, 0, 1},      {"qkv.dw", h, 3 * h, T, 1, 0},
  };
  for (const Gemm &g : gemms)
    benchGemm(cublas, g, SUMMA_DT_BF16);
  benchGemm(cublas, gemms[2], SUMMA_DT_F16);
  benchGemm(cublas, gemms[2], SUMMA_DT_F32);

  cublasDestroy(cublas);
  summaRtFinalize();
  return 0;
}
