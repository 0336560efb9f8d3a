//===- DeviceQuery.cpp - how many CUDA devices are there? -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Prints the number of CUDA devices (0 when there is no device or no
// driver) and, with -v, why, the versions of the CUDA driver and runtime,
// cuBLAS, cuBLASLt and NCCL that the loader found, and every device; exits
// 0. It links the libraries libsumma_runtime_cuda.so needs (CUDA runtime,
// cuBLAS, cuBLASLt, NCCL), so a machine where one of them does not load
// makes it fail to start (exit 127): gpu-test.sh and scripts/gpu-check.sh
// report that as a failure, never as "no device". Used by gpu-test.sh,
// lit's configuration and scripts/gpu-check.sh.
//
//===----------------------------------------------------------------------===//

#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess)
    count = 0;
  std::printf("%d\n", count);
  if (argc > 1 && std::strcmp(argv[1], "-v") == 0) {
    if (status != cudaSuccess)
      std::printf("cudaGetDeviceCount: %s\n", cudaGetErrorString(status));
    int driver = 0, runtime = 0, nccl = 0, cublasMajor = 0, cublasMinor = 0,
        cublasPatch = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    cublasGetProperty(MAJOR_VERSION, &cublasMajor);
    cublasGetProperty(MINOR_VERSION, &cublasMinor);
    cublasGetProperty(PATCH_LEVEL, &cublasPatch);
    ncclGetVersion(&nccl);
    // NCCL_VERSION_CODE: X * 10000 + Y * 100 + Z since 2.9.
    std::printf("versions: CUDA driver %d.%d (0: none), runtime %d.%d, cuBLAS "
                "%d.%d.%d, cuBLASLt %zu, NCCL %d.%d.%d\n",
                driver / 1000, driver % 1000 / 10, runtime / 1000,
                runtime % 1000 / 10, cublasMajor, cublasMinor, cublasPatch,
                cublasLtGetVersion(), nccl / 10000, nccl / 100 % 100,
                nccl % 100);
    for (int device = 0; device < count; ++device) {
      cudaDeviceProp properties;
      if (cudaGetDeviceProperties(&properties, device) == cudaSuccess)
        std::printf("device %d: %s, sm_%d%d, %d SMs, %.1f GiB\n", device,
                    properties.name, properties.major, properties.minor,
                    properties.multiProcessorCount,
                    properties.totalGlobalMem / double(1 << 30));
    }
  }
  return 0;
}
