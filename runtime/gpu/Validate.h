//===- Validate.h - argument checks of the GPU backend ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Every argument check of the GPU backend's entry points, as functions that
// return "" when the arguments are valid and otherwise the message the entry
// point prints (through summa::rt::fatal) before aborting all ranks. Keeping
// them free of CUDA, NCCL and of the runtime's state lets the unit tests check
// every message on a machine without a GPU. Messages follow the CPU
// backend's wording.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_VALIDATE_H
#define SUMMA_RUNTIME_GPU_VALIDATE_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace summa::gpu {

/// printf into a std::string.
std::string formatString(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

struct GpuDType {
  int32_t dtype;
  size_t size;
  const char *name;
};

/// Checks a SummaDType for the GPU backend. Matmul takes the four float
/// types; the collectives and the driver's tensors also i64 and i32
/// (allowInt).
std::string checkDType(const char *caller, int32_t dtype, GpuDType *info,
                       bool allowInt = false);

/// A (base, offset, count) buffer: count and offset non-negative, base not
/// null when count > 0.
std::string checkBuffer(const char *caller, const char *what, intptr_t base,
                        int64_t offset, int64_t count);

/// A group index: 0 <= root < groupSize.
std::string checkRoot(const char *caller, int64_t root, int64_t groupSize);

/// A SummaReduction value.
std::string checkReduction(const char *caller, int32_t kind);

/// An [outer, inner] block of an all-gather or reduce-scatter over a group of
/// `groupSize`: non-negative, and groupSize * outer * inner elements must
/// not overflow. Sets *block = outer * inner.
std::string checkBlock(const char *caller, int64_t outer, int64_t inner,
                       int64_t groupSize, int64_t *block);

/// All arguments of summaRtMatmul but the element type (see checkDType).
std::string checkMatmul(intptr_t aBase, int64_t aOffset, int64_t lda,
                        intptr_t bBase, int64_t bOffset, int64_t ldb,
                        intptr_t cBase, int64_t cOffset, int64_t ldc, int64_t m,
                        int64_t n, int64_t k, int32_t transA, int32_t transB,
                        int32_t accumulate);

/// All arguments of summaRtMatmulEpilogue but the element type, whose size
/// (elementSize bytes) tells whether R starts at D's first element.
std::string checkMatmulEpilogue(size_t elementSize, intptr_t aBase,
                                int64_t aOffset, int64_t lda, intptr_t bBase,
                                int64_t bOffset, int64_t ldb, intptr_t rBase,
                                int64_t rOffset, int64_t ldr, intptr_t biasBase,
                                int64_t biasOffset, intptr_t dBase,
                                int64_t dOffset, int64_t ldd, int64_t m,
                                int64_t n, int64_t k, int32_t transA,
                                int32_t transB, int32_t activation);

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_VALIDATE_H
