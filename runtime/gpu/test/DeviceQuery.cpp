//===- DeviceQuery.cpp - how many CUDA devices are there? -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Prints the number of CUDA devices (0 when there is no device or no
// driver) and, with -v, why; always exits 0. Used by gpu-test.sh and
// scripts/gpu-check.sh.
//
//===----------------------------------------------------------------------===//

#include <cuda_runtime_api.h>

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
