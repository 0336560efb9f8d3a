//===- Blas.cpp - local matrix multiplication through CBLAS -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summaRtMatmul on top of cblas_sgemm / cblas_dgemm (row-major), and the
// pinning of BLAS to one thread per rank: several ranks share the cores, and
// threaded BLAS inside each of them would oversubscribe the machine.
//
//===----------------------------------------------------------------------===//

#include "DType.h"
#include "Error.h"
#include "Grid.h"
#include "MatmulBatch.h"
#include "Profile.h"

#include "summa/Runtime/SummaRuntime.h"

#include <cblas.h>

#include <climits>
#include <cstdlib>
#include <cstring>

using namespace summa::rt;

void summa::rt::pinBlasThreads() {
  if (std::getenv("OPENBLAS_NUM_THREADS"))
    return;
  // OpenBLAS reads the variable when it is loaded, which has already
  // happened; set it anyway for BLAS libraries (and child processes) that
  // read it later, and tell a loaded OpenBLAS directly.
  setenv("OPENBLAS_NUM_THREADS", "1", /*overwrite=*/0);
#ifdef SUMMA_HAVE_OPENBLAS_SET_NUM_THREADS
  openblas_set_num_threads(1);
#endif
}

namespace {
/// Checks a row-major [rows, cols] operand with leading dimension `ld`;
/// `accessed` says whether the call reads or writes it at all.
void checkMatrix(const char *name, intptr_t base, int64_t offset, int64_t rows,
                 int64_t cols, int64_t ld, bool accessed) {
  const char *caller = "summaRtMatmul";
  if (offset < 0)
    fatal("%s: negative offset %lld for %s", caller, (long long)offset, name);
  if (ld < 1 || ld < cols)
    fatal("%s: leading dimension %lld of %s is smaller than its %lld columns",
          caller, (long long)ld, name, (long long)cols);
  if (ld > INT_MAX)
    fatal("%s: leading dimension %lld of %s exceeds the BLAS limit %d", caller,
          (long long)ld, name, INT_MAX);
  if (accessed && rows > 0 && cols > 0 && base == 0)
    fatal("%s: %s is a null pointer but has %lld x %lld elements", caller, name,
          (long long)rows, (long long)cols);
}

/// C (+)= op(A) op(B) on checked, non-empty row-major operands of element
/// type T through `gemm` (cblas_sgemm or cblas_dgemm).
template <typename T, typename Gemm>
void rowMajorGemm(Gemm gemm, intptr_t aBase, int64_t aOffset, int64_t lda,
                  intptr_t bBase, int64_t bOffset, int64_t ldb, char *c,
                  int64_t ldc, int64_t m, int64_t n, int64_t k, int32_t transA,
                  int32_t transB, int32_t accumulate) {
  const T *a = reinterpret_cast<const T *>(aBase) + aOffset;
  const T *b = reinterpret_cast<const T *>(bBase) + bOffset;
  gemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
       transB ? CblasTrans : CblasNoTrans, static_cast<int>(m),
       static_cast<int>(n), static_cast<int>(k), T(1), a, static_cast<int>(lda),
       b, static_cast<int>(ldb), accumulate ? T(1) : T(0),
       reinterpret_cast<T *>(c), static_cast<int>(ldc));
}
} // namespace

void summaRtMatmul(int32_t dtype, intptr_t aBase, int64_t aOffset, int64_t lda,
                   intptr_t bBase, int64_t bOffset, int64_t ldb, intptr_t cBase,
                   int64_t cOffset, int64_t ldc, int64_t m, int64_t n,
                   int64_t k, int32_t transA, int32_t transB,
                   int32_t accumulate) {
  const char *caller = "summaRtMatmul";
  DTypeInfo type = checkDType(dtype, caller);
  if (m < 0 || n < 0 || k < 0)
    fatal("%s: negative size m = %lld, n = %lld, k = %lld", caller,
          (long long)m, (long long)n, (long long)k);
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX)
    fatal("%s: size m = %lld, n = %lld, k = %lld exceeds the BLAS limit %d",
          caller, (long long)m, (long long)n, (long long)k, INT_MAX);
  if ((transA != 0 && transA != 1) || (transB != 0 && transB != 1))
    fatal("%s: transA = %d and transB = %d must be 0 or 1", caller, transA,
          transB);
  if (accumulate != 0 && accumulate != 1)
    fatal("%s: accumulate = %d must be 0 or 1", caller, accumulate);
  // A is stored [m, k] or, transposed, [k, m]; B is [k, n] or [n, k].
  // A and B are read only when the product is not empty, C is written
  // unless it is empty itself.
  bool product = m > 0 && n > 0 && k > 0;
  checkMatrix("A", aBase, aOffset, transA ? k : m, transA ? m : k, lda,
              product);
  checkMatrix("B", bBase, bOffset, transB ? n : k, transB ? k : n, ldb,
              product);
  checkMatrix("C", cBase, cOffset, m, n, ldc, true);

  double start = profileClock();
  char *c = reinterpret_cast<char *>(cBase) +
            cOffset * static_cast<int64_t>(type.size);
  if (m == 0 || n == 0) {
    // Nothing to compute.
  } else if (k == 0) {
    // An empty sum: C += 0 leaves C alone, C = 0 clears it.
    if (!accumulate)
      for (int64_t row = 0; row < m; ++row)
        std::memset(c + row * ldc * static_cast<int64_t>(type.size), 0,
                    n * type.size);
  } else if (dtype == SUMMA_DT_F32) {
    rowMajorGemm<float>(cblas_sgemm, aBase, aOffset, lda, bBase, bOffset, ldb,
                        c, ldc, m, n, k, transA, transB, accumulate);
  } else {
    rowMajorGemm<double>(cblas_dgemm, aBase, aOffset, lda, bBase, bOffset, ldb,
                         c, ldc, m, n, k, transA, transB, accumulate);
  }
  recordMatmul(2 * m * n * k, profileClock() - start);
}

void summaRtMatmulBatched(int32_t dtype, intptr_t aBase, int64_t aOffset,
                          int64_t lda, int64_t strideA, intptr_t bBase,
                          int64_t bOffset, int64_t ldb, int64_t strideB,
                          intptr_t cBase, int64_t cOffset, int64_t ldc,
                          int64_t strideC, int64_t m, int64_t n, int64_t k,
                          int64_t batch, int32_t transA, int32_t transB,
                          int32_t accumulate) {
  lastBatchMember("summaRtMatmulBatched", batch, {aOffset, bOffset, cOffset},
                  {strideA, strideB, strideC});
  // One GEMM per member, each checked as summaRtMatmul checks it and
  // counted among the local GEMMs.
  LocalMatmulScope local;
  for (int64_t i = 0; i < batch; ++i)
    summaRtMatmul(dtype, aBase, aOffset + i * strideA, lda, bBase,
                  bOffset + i * strideB, ldb, cBase, cOffset + i * strideC, ldc,
                  m, n, k, transA, transB, accumulate);
}
