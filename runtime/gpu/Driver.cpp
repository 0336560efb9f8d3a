//===- Driver.cpp - summaRtMain of the GPU backend --------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The GPU backend's side of the driver (runtime/tooling/Run.cpp, shared
// with the CPU backend: options, output lines, exit statuses, --dump and the
// --check comparison are the same). What differs:
//  * every tile is allocated from the device pool, and inputs are filled ON
//    THE DEVICE from the hash of summaRtInputValue (DeviceFill.h); the spmd
//    function and the reference (rank 0, whole tensors) receive device
//    pointers, as compiled --target=cuda code expects;
//  * f16 and bf16 tensors are accepted (compared after exact widening);
//  * outputs are copied to the host for --dump and --check, and the driver
//    waits for the device (with NCCL error checks) before the timing
//    barriers and around the reference;
//  * rank 0 prints two lines: the GPU and the collective mode, and the
//    versions of the CUDA driver and runtime, cuBLAS(Lt) and NCCL loaded.
//
//===----------------------------------------------------------------------===//

#include "Backend.h"
#include "DeviceFill.h"
#include "Error.h"
#include "Generate.h"
#include "Generator.h"
#include "GpuCheck.h"
#include "GpuContext.h"
#include "GpuRuntime.h"
#include "GridState.h"
#include "Model.h"
#include "Run.h"
#include "Validate.h"

#include "summa/Runtime/SummaRuntime.h"

#include <cstdio>
#include <string>

using namespace summa::gpu;
using summa::rt::driver::Tensor;

//===----------------------------------------------------------------------===//
// The GPU backend of the driver
//===----------------------------------------------------------------------===//

namespace {
void announce() {
  if (summa::rt::grid().worldRank != 0)
    return;
  const DeviceInfo &device = deviceInfo();
  std::printf("gpu: %s (sm_%d), collectives over %s\n", device.name,
              device.computeCapability,
              collectiveMode() == CollectiveMode::Nccl
                  ? "NCCL"
                  : "MPI through host memory (test mode)");
  std::printf("gpu: CUDA driver %s, runtime %s, cuBLAS %s, cuBLASLt %zu, "
              "NCCL %s\n",
              cudaVersionString(device.cudaDriver).c_str(),
              cudaVersionString(device.cudaRuntime).c_str(),
              cublasVersionString(device.cublas).c_str(), device.cublasLt,
              ncclVersionString(device.nccl).c_str());
  std::fflush(stdout);
}

/// A zeroed device buffer from the pool.
void *allocateDevice(size_t bytes, const std::string & /*what*/) {
  cudaStream_t stream = computeStream();
  void *data = allocate(bytes, stream);
  if (bytes > 0)
    SUMMA_CUDA_CHECK(cudaMemsetAsync(data, 0, bytes, stream));
  return data;
}

void releaseDevice(void *buffer) { release(buffer, computeStream()); }

/// The tile held at `coords` (or, with nullptr, the whole tensor), as the
/// device fill walks it.
TileMap tileMap(const Tensor &tensor, const int64_t *coords) {
  TileMap map;
  map.rank = tensor.rank;
  map.count = coords ? tensor.localCount : tensor.globalCount;
  const int64_t *shape =
      coords ? tensor.desc->localShape : tensor.desc->globalShape;
  for (int dim = 0; dim < tensor.rank; ++dim) {
    map.shape[dim] = shape[dim];
    if (coords) {
      map.chunk[dim] = shape[dim] / tensor.groups[dim];
      map.span[dim] = map.chunk[dim] * tensor.blocks[dim];
      map.origin[dim] = tensor.blockIndex(dim, coords) * map.chunk[dim];
    } else {
      map.origin[dim] = 0;
    }
    map.globalStrides[dim] = tensor.globalStrides[dim];
    map.globalShape[dim] = tensor.desc->globalShape[dim];
  }
  return map;
}

void fill(const Tensor &tensor, int index, uint64_t seed, const int64_t *coords,
          void *data) {
  if (tensor.desc->init == SUMMA_INIT_ZEROS) {
    size_t bytes = coords ? tensor.localBytes() : tensor.globalBytes();
    if (bytes > 0)
      SUMMA_CUDA_CHECK(cudaMemsetAsync(data, 0, bytes, computeStream()));
    return;
  }
  fillInputOnDevice(data, tensor.desc->dtype, tileMap(tensor, coords), seed,
                    index, tensor.desc->scale,
                    tensor.desc->init == SUMMA_INIT_NONNEGATIVE,
                    computeStream());
}

void copy(void *dst, const void *src, size_t bytes) {
  SUMMA_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice,
                                   computeStream()));
}

/// A copy between the host and the device, complete on return.
void copyAndWait(void *dst, const void *src, size_t bytes,
                 cudaMemcpyKind kind) {
  if (bytes == 0)
    return;
  SUMMA_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, computeStream()));
  synchronize();
}

void toHost(void *host, const void *buffer, size_t bytes) {
  copyAndWait(host, buffer, bytes, cudaMemcpyDeviceToHost);
}

void fromHost(void *buffer, const void *host, size_t bytes) {
  copyAndWait(buffer, host, bytes, cudaMemcpyHostToDevice);
}

/// Waits for the device (polling NCCL for errors) and resolves the
/// profile's pending events.
void settle() {
  synchronize();
  flushProfile();
}

const summa::rt::driver::Backend gpuBackend = {
    /*usageWhere=*/", on GPUs\n(libsumma_runtime_cuda.so)",
    /*usageEnvironment=*/
    "  SUMMA_ALLOW_TF32=1  let f32 GEMMs use TF32 tensor cores\n"
    "  SUMMA_GPU_COLLECTIVES=mpi  collectives over MPI through host memory, "
    "so that\n"
    "                      several ranks can share one GPU (testing only)\n",
    summa::rt::driver::anyElementSize,
    announce,
    allocateDevice,
    releaseDevice,
    fill,
    copy,
    toHost,
    fromHost,
    settle,
};
} // namespace

const char *summaRtKernelInfo(int32_t json) {
  static std::string line, object;
  const DeviceInfo &device = deviceInfo();
  line = std::string(device.name) + " (sm_" +
         std::to_string(device.computeCapability) + "), cuBLAS " +
         cublasVersionString(device.cublas);
  object =
      "{\"device\":\"" + std::string(device.name) +
      "\",\"compute_capability\":" + std::to_string(device.computeCapability) +
      ",\"cublas\":\"" + cublasVersionString(device.cublas) + "\"}";
  return json ? object.c_str() : line.c_str();
}

int summaRtMain(int argc, char **argv, const SummaProgramDesc *program) {
  return summa::rt::driver::run(argc, argv, program, gpuBackend);
}

int summaRtGenerate(int argc, char **argv, const SummaGenerateDesc *generator) {
  return summa::rt::driver::generate(argc, argv, generator, gpuBackend);
}

SummaModel *summaModelInit(const SummaProgramDesc *program, int64_t comm) {
  return summa::rt::driver::createModel(program, comm, gpuBackend);
}

SummaGenerator *summaGeneratorInit(const SummaGenerateDesc *generator,
                                   int64_t comm) {
  return summa::rt::driver::createGenerator(generator, comm, gpuBackend);
}
