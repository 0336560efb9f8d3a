//===- InitAllSummaTranslations.h - down to LLVM IR and PTX -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The translations to LLVM IR that the tools which lower all the way need
// (summa-opt's lowering pipelines, summa-compile): the builtin and LLVM
// dialects for the host, NVVM and GPU for --target=cuda's kernels (the NVVM
// target compiles them, the offloading translation embeds and launches
// them). Apart from InitAllSumma.h because it links LLVM's back ends.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_INITALLSUMMATRANSLATIONS_H
#define SUMMA_INITALLSUMMATRANSLATIONS_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

namespace mlir::summa {

inline void registerAllSummaTranslations(DialectRegistry &registry) {
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerGPUDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
}

} // namespace mlir::summa

#endif // SUMMA_INITALLSUMMATRANSLATIONS_H
