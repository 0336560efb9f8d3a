//===- KernelLaunch.cpp - the host ABI of MLIR's GPU lowering ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Programs compiled with `summa-compile --target=cuda` launch their kernels
// and allocate their buffers through the functions MLIR's `gpu-to-llvm`
// lowering and `finalize-memref-to-llvm{use-generic-functions}` call:
//
//   mgpuModuleLoad / mgpuModuleUnload     a kernel binary (fat binary, cubin
//                                         or PTX), from global constructors
//   mgpuModuleGetFunction                 a kernel by name
//   mgpuStreamCreate / Synchronize / Destroy
//   mgpuLaunchKernel
//   mgpuMemcpy                            a model's constant (a host global)
//                                         into a device buffer
//   _mlir_memref_to_llvm_alloc / _free    every memref.alloc / dealloc
//
// summa's versions fit them into the runtime:
//
// * Loading is lazy. The constructors run before main, before summaRtInit
//   has chosen the GPU, so mgpuModuleLoad only records the binary; the first
//   mgpuModuleGetFunction loads it (cudaLibraryLoadData) on the runtime's
//   device. Kernels are looked up once per name.
// * Every launch goes to the runtime's compute stream: mgpuStreamCreate
//   hands it out, so kernels are ordered with the runtime's GEMMs and
//   collectives by the stream alone, and mgpuStreamSynchronize /
//   mgpuStreamDestroy of it do nothing. The host waits only where it needs
//   a result (a collective in the one-GPU test mode, the driver's outputs),
//   never inside a layer.
// * Buffers come from the runtime's device pool (summaRtAlloc/summaRtFree),
//   freed in stream order.
//
//===----------------------------------------------------------------------===//

#include "GpuCheck.h"
#include "GpuContext.h"
#include "GpuRuntime.h"
#include "GridState.h"
#include "summa/Runtime/SummaRuntimeKernels.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace {

/// One kernel binary of a compiled program.
struct KernelModule {
  const void *data = nullptr;
  size_t size = 0;
  cudaLibrary_t library = nullptr;
  /// Looked up by the launch's `const char *` name without a copy.
  std::map<std::string, cudaKernel_t, std::less<>> kernels;
};

/// Modules live until the program ends (the unload at exit only drops the
/// CUDA library), so a kernel handle stays valid for every launch.
std::vector<std::unique_ptr<KernelModule>> &modules() {
  static auto *all = new std::vector<std::unique_ptr<KernelModule>>();
  return *all;
}

void load(KernelModule &module) {
  if (module.library)
    return;
  SUMMA_CUDA_CHECK(cudaLibraryLoadData(&module.library, module.data, nullptr,
                                       nullptr, 0, nullptr, nullptr, 0));
}

} // namespace

extern "C" {

SUMMA_RT_EXPORT void *mgpuModuleLoad(void *data, size_t size) {
  auto module = std::make_unique<KernelModule>();
  module->data = data;
  module->size = size;
  modules().push_back(std::move(module));
  return modules().back().get();
}

SUMMA_RT_EXPORT void mgpuModuleUnload(void *handle) {
  auto *module = static_cast<KernelModule *>(handle);
  if (!module || !module->library)
    return;
  // At exit the CUDA runtime may already be shutting down; nothing can be
  // launched any more, so a failure here changes nothing.
  (void)cudaLibraryUnload(module->library);
  (void)cudaGetLastError();
  module->library = nullptr;
  module->kernels.clear();
}

SUMMA_RT_EXPORT void *mgpuModuleGetFunction(void *handle, const char *name) {
  auto *module = static_cast<KernelModule *>(handle);
  // Called for every launch: the name is looked up without a copy, and the
  // message is only built for a launch before summaRtInit (no device is
  // chosen yet), which aborts naming the kernel.
  if (!summa::rt::grid().initialised)
    summa::gpu::context(
        (std::string("launch of kernel '") + name + "'").c_str());
  load(*module);
  auto it = module->kernels.find(std::string_view(name));
  if (it == module->kernels.end()) {
    cudaKernel_t kernel = nullptr;
    SUMMA_CUDA_CHECK(cudaLibraryGetKernel(&kernel, module->library, name));
    it = module->kernels.emplace(name, kernel).first;
  }
  return reinterpret_cast<void *>(it->second);
}

SUMMA_RT_EXPORT void *mgpuStreamCreate() { return summa::gpu::computeStream(); }

SUMMA_RT_EXPORT void mgpuStreamSynchronize(void *stream) {
  if (stream != summa::gpu::computeStream())
    SUMMA_CUDA_CHECK(cudaStreamSynchronize(static_cast<cudaStream_t>(stream)));
}

SUMMA_RT_EXPORT void mgpuStreamDestroy(void *stream) {
  if (stream != summa::gpu::computeStream())
    SUMMA_CUDA_CHECK(cudaStreamDestroy(static_cast<cudaStream_t>(stream)));
}

SUMMA_RT_EXPORT void
mgpuLaunchKernel(void *kernel, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                 intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                 int32_t sharedBytes, void *stream, void **params,
                 void ** /*extra*/, size_t /*paramsCount*/) {
  // An empty iteration space launches nothing (CUDA refuses a zero grid).
  if (gridX == 0 || gridY == 0 || gridZ == 0)
    return;
  dim3 grid(static_cast<unsigned>(gridX), static_cast<unsigned>(gridY),
            static_cast<unsigned>(gridZ));
  dim3 block(static_cast<unsigned>(blockX), static_cast<unsigned>(blockY),
             static_cast<unsigned>(blockZ));
  SUMMA_CUDA_CHECK(cudaLaunchKernel(
      static_cast<const void *>(kernel), grid, block, params,
      static_cast<size_t>(sharedBytes), static_cast<cudaStream_t>(stream)));
}

SUMMA_RT_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes,
                                void *stream) {
  if (!summa::rt::grid().initialised)
    summa::gpu::context("a copy of a constant to the device");
  // Host to device from pageable memory: the call returns once the source
  // is staged, ordered on the stream with the kernels that read the copy.
  SUMMA_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault,
                                   static_cast<cudaStream_t>(stream)));
}

SUMMA_RT_EXPORT void *_mlir_memref_to_llvm_alloc(size_t bytes) {
  return reinterpret_cast<void *>(summaRtAlloc(static_cast<int64_t>(bytes)));
}

SUMMA_RT_EXPORT void _mlir_memref_to_llvm_free(void *pointer) {
  summaRtFree(reinterpret_cast<intptr_t>(pointer));
}

} // extern "C"
