//===- GemmChecks.h - the GEMM functions' argument checks -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The checks of summaRtMatmul's and summaRtMatmulEpilogue's arguments that do
// not depend on the backend, written once for both: each returns the
// diagnostic (the C-ABI function's name first) or "" when the arguments are
// valid; the CPU backend reports it with fatal(), the GPU backend with
// requireValid(). `library` names the GEMM library whose int limits apply
// ("BLAS", "cuBLAS"). Element types are each backend's own check. Also
// where the epilogue's operands start, for both backends and the checks.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_GEMMCHECKS_H
#define SUMMA_RUNTIME_COMMON_GEMMCHECKS_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace summa::rt {

/// printf into a std::string.
std::string formatString(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

/// summaRtMatmul: C[m,n] (+)= op(A) op(B), `accumulate` 0 or 1, elements
/// of `elementSize` bytes; C must not share memory with A or B.
std::string checkMatmul(const char *library, size_t elementSize, intptr_t aBase,
                        int64_t aOffset, int64_t lda, intptr_t bBase,
                        int64_t bOffset, int64_t ldb, intptr_t cBase,
                        int64_t cOffset, int64_t ldc, int64_t m, int64_t n,
                        int64_t k, int32_t transA, int32_t transB,
                        int32_t accumulate);

/// summaRtMatmulEpilogue: D = act(op(A) op(B) + R + bias), elements of
/// `elementSize` bytes (R may be D itself only with D's leading dimension;
/// D shares no other memory with R, A, B or the bias).
std::string checkMatmulEpilogue(const char *library, size_t elementSize,
                                intptr_t aBase, int64_t aOffset, int64_t lda,
                                intptr_t bBase, int64_t bOffset, int64_t ldb,
                                intptr_t rBase, int64_t rOffset, int64_t ldr,
                                intptr_t biasBase, int64_t biasOffset,
                                intptr_t dBase, int64_t dOffset, int64_t ldd,
                                int64_t m, int64_t n, int64_t k, int32_t transA,
                                int32_t transB, int32_t activation);

/// Where summaRtMatmulEpilogue's R, bias and D start (R and bias null where
/// their base is).
struct EpilogueBuffers {
  const char *r, *bias;
  char *d;
};
EpilogueBuffers epilogueBuffers(size_t elementSize, intptr_t rBase,
                                int64_t rOffset, intptr_t biasBase,
                                int64_t biasOffset, intptr_t dBase,
                                int64_t dOffset);

} // namespace summa::rt

#endif // SUMMA_RUNTIME_COMMON_GEMMCHECKS_H
