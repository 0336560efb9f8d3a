//===- Blas.cpp - local matrix multiplication through CBLAS -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summaRtMatmul and summaRtMatmulEpilogue on top of cblas_sgemm /
// cblas_dgemm (row-major) of the BLAS library the runtime loads
// (BlasLibrary.h: one thread per rank, the kernels of the CPU's vectors).
//
//===----------------------------------------------------------------------===//

#include "BlasLibrary.h"
#include "DType.h"
#include "Error.h"
#include "GeluTanh.h"
#include "GemmChecks.h"
#include "GridState.h"
#include "MatmulBatch.h"
#include "Profile.h"

#include "summa/Runtime/SummaRuntime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace summa::rt;

void summa::rt::startBlas() {
  // Loads the BLAS with one thread per rank (several ranks share the cores,
  // and threaded BLAS inside each of them would oversubscribe the machine)
  // and the kernels of the CPU's vectors (BlasLibrary.h).
  (void)blasLibrary();
}

void summa::rt::warnAboutBlas(int rank) {
  const BlasLibrary &blas = blasLibrary();
  if (rank != 0 || !blas.narrower)
    return;
  std::fprintf(stderr,
               "summa: warning: the BLAS runs kernels for narrower vectors "
               "than this CPU has: %s. Products are several times slower "
               "than they could be; %s.\n",
               describeBlas(blas).c_str(),
               blas.chosenBy == "OPENBLAS_CORETYPE"
                   ? "unset OPENBLAS_CORETYPE to let summa choose from the "
                     "CPU's flags"
                   : "set OPENBLAS_CORETYPE (SkylakeX, Haswell, Zen, ...) "
                     "before the process starts, as an OpenBLAS loaded "
                     "before summa's start reads it only then");
  std::fflush(stderr);
}

const char *summaRtKernelInfo(int32_t json) {
  static const std::string line = describeBlas(blasLibrary());
  static const std::string object = blasJson(blasLibrary());
  return json ? object.c_str() : line.c_str();
}

namespace {
/// Reports a failed check of GemmChecks.h.
void requireValid(const std::string &error) {
  if (!error.empty())
    fatal("%s", error.c_str());
}

/// The rows of A up to which a product goes through matrix-vector
/// products (few rows: a decode step's token per sequence).
constexpr int64_t kGemvRows = 8;
/// The bytes of B a block of those products reads, for every row of A,
/// while it stays in the cache.
constexpr int64_t kGemvBlockBytes = 256 * 1024;

/// C (+)= op(A) op(B) on checked, non-empty row-major operands of element
/// type T through `gemm` (cblas_sgemm or cblas_dgemm), or, for at most
/// kGemvRows rows of A, `gemv` (cblas_sgemv or cblas_dgemv). With so few
/// rows a product is bound by reading B, and OpenBLAS's GEMM packs B first
/// (a transposed B, nn.Linear's [n, k] weight, at half the memory rate);
/// the matrix-vector products read B once, a block at a time for every row
/// of A.
template <typename T, typename Gemm, typename Gemv>
void rowMajorGemm(Gemm gemm, Gemv gemv, intptr_t aBase, int64_t aOffset,
                  int64_t lda, intptr_t bBase, int64_t bOffset, int64_t ldb,
                  char *c, int64_t ldc, int64_t m, int64_t n, int64_t k,
                  int32_t transA, int32_t transB, int32_t accumulate) {
  const T *a = reinterpret_cast<const T *>(aBase) + aOffset;
  const T *b = reinterpret_cast<const T *>(bBase) + bOffset;
  T *out = reinterpret_cast<T *>(c);
  if (!transA && m <= kGemvRows) {
    if (transB) {
      // C[i, j0:j1] = B[j0:j1, :] · A[i, :]: dot products along B's rows.
      int64_t block = std::max<int64_t>(1, kGemvBlockBytes / (k * sizeof(T)));
      for (int64_t j0 = 0; j0 < n; j0 += block) {
        int64_t rows = std::min(block, n - j0);
        for (int64_t i = 0; i < m; ++i)
          gemv(CblasRowMajor, CblasNoTrans, static_cast<int>(rows),
               static_cast<int>(k), T(1), b + j0 * ldb, static_cast<int>(ldb),
               a + i * lda, 1, accumulate ? T(1) : T(0), out + i * ldc + j0, 1);
      }
      return;
    }
    // C[i, :] (+)= Σ over blocks of B's rows of A[i, k0:k1] · B[k0:k1, :].
    int64_t block = std::max<int64_t>(1, kGemvBlockBytes / (n * sizeof(T)));
    for (int64_t k0 = 0; k0 < k; k0 += block) {
      int64_t rows = std::min(block, k - k0);
      for (int64_t i = 0; i < m; ++i)
        gemv(CblasRowMajor, CblasTrans, static_cast<int>(rows),
             static_cast<int>(n), T(1), b + k0 * ldb, static_cast<int>(ldb),
             a + i * lda + k0, 1, k0 > 0 || accumulate ? T(1) : T(0),
             out + i * ldc, 1);
    }
    return;
  }
  gemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
       transB ? CblasTrans : CblasNoTrans, static_cast<int>(m),
       static_cast<int>(n), static_cast<int>(k), T(1), a, static_cast<int>(lda),
       b, static_cast<int>(ldb), accumulate ? T(1) : T(0),
       reinterpret_cast<T *>(c), static_cast<int>(ldc));
}

/// The GEMM of summaRtMatmul and summaRtMatmulEpilogue on checked,
/// non-empty ([m, n] with m, n > 0) operands of element type T. D is first set
/// to R + bias, R, bias or (neither) left as it is, one row at a time; the GEMM
/// then adds the product with beta = 1, or overwrites D with beta = 0 when
/// nothing was set. The bias thus rides on the pass that OpenBLAS's beta = 0
/// would spend clearing D. r == d (R is D) adds D's old content in place.
template <typename T, typename Gemm, typename Gemv>
void epilogueGemm(Gemm gemm, Gemv gemv, intptr_t aBase, int64_t aOffset,
                  int64_t lda, intptr_t bBase, int64_t bOffset, int64_t ldb,
                  const T *r, int64_t ldr, const T *bias, T *d, int64_t ldd,
                  int64_t m, int64_t n, int64_t k, int32_t transA,
                  int32_t transB, int32_t activation) {
  bool prefilled = r || bias;
  for (int64_t row = 0; row < m; ++row) {
    T *out = d + row * ldd;
    const T *residual = r ? r + row * ldr : nullptr;
    if (residual && bias) {
      for (int64_t col = 0; col < n; ++col)
        out[col] = residual[col] + bias[col];
    } else if (residual) {
      if (residual != out)
        std::memcpy(out, residual, n * sizeof(T));
    } else if (bias) {
      std::memcpy(out, bias, n * sizeof(T));
    } else if (k == 0) {
      // The empty sum.
      std::memset(out, 0, n * sizeof(T));
    }
  }
  if (k > 0)
    rowMajorGemm<T>(gemm, gemv, aBase, aOffset, lda, bBase, bOffset, ldb,
                    reinterpret_cast<char *>(d), ldd, m, n, k, transA, transB,
                    prefilled);
  if (activation == 1)
    for (int64_t row = 0; row < m; ++row) {
      T *out = d + row * ldd;
      for (int64_t col = 0; col < n; ++col)
        out[col] = geluTanh(out[col]);
    }
}

/// D = act(op(A) op(B) + R + bias) on checked operands of either entry
/// point (summaRtMatmul is the call without bias or activation, R = C when
/// it accumulates): the element type's epilogueGemm.
void gemmWithEpilogue(int32_t dtype, intptr_t aBase, int64_t aOffset,
                      int64_t lda, intptr_t bBase, int64_t bOffset, int64_t ldb,
                      const char *r, int64_t ldr, const char *bias, char *d,
                      int64_t ldd, int64_t m, int64_t n, int64_t k,
                      int32_t transA, int32_t transB, int32_t activation) {
  if (m == 0 || n == 0)
    return; // Nothing to compute.
  const BlasLibrary &blas = blasLibrary();
  if (dtype == SUMMA_DT_F32)
    epilogueGemm<float>(blas.sgemm, blas.sgemv, aBase, aOffset, lda, bBase,
                        bOffset, ldb, reinterpret_cast<const float *>(r), ldr,
                        reinterpret_cast<const float *>(bias),
                        reinterpret_cast<float *>(d), ldd, m, n, k, transA,
                        transB, activation);
  else
    epilogueGemm<double>(blas.dgemm, blas.dgemv, aBase, aOffset, lda, bBase,
                         bOffset, ldb, reinterpret_cast<const double *>(r), ldr,
                         reinterpret_cast<const double *>(bias),
                         reinterpret_cast<double *>(d), ldd, m, n, k, transA,
                         transB, activation);
}
} // namespace

void summaRtMatmul(int32_t dtype, intptr_t aBase, int64_t aOffset, int64_t lda,
                   intptr_t bBase, int64_t bOffset, int64_t ldb, intptr_t cBase,
                   int64_t cOffset, int64_t ldc, int64_t m, int64_t n,
                   int64_t k, int32_t transA, int32_t transB,
                   int32_t accumulate) {
  const char *caller = "summaRtMatmul";
  DTypeInfo type = checkDType(dtype, caller);
  requireValid(checkMatmul("BLAS", type.size, aBase, aOffset, lda, bBase,
                           bOffset, ldb, cBase, cOffset, ldc, m, n, k, transA,
                           transB, accumulate));

  double start = profileClock();
  char *c = reinterpret_cast<char *>(cBase) +
            cOffset * static_cast<int64_t>(type.size);
  gemmWithEpilogue(dtype, aBase, aOffset, lda, bBase, bOffset, ldb,
                   accumulate ? c : nullptr, ldc, /*bias=*/nullptr, c, ldc, m,
                   n, k, transA, transB, /*activation=*/0);
  recordMatmul(2 * m * n * k, profileClock() - start);
}

void summaRtMatmulEpilogue(int32_t dtype, intptr_t aBase, int64_t aOffset,
                           int64_t lda, intptr_t bBase, int64_t bOffset,
                           int64_t ldb, intptr_t rBase, int64_t rOffset,
                           int64_t ldr, intptr_t biasBase, int64_t biasOffset,
                           intptr_t dBase, int64_t dOffset, int64_t ldd,
                           int64_t m, int64_t n, int64_t k, int32_t transA,
                           int32_t transB, int32_t activation) {
  const char *caller = "summaRtMatmulEpilogue";
  DTypeInfo type = checkDType(dtype, caller);
  requireValid(checkMatmulEpilogue("BLAS", type.size, aBase, aOffset, lda,
                                   bBase, bOffset, ldb, rBase, rOffset, ldr,
                                   biasBase, biasOffset, dBase, dOffset, ldd, m,
                                   n, k, transA, transB, activation));
  auto [r, bias, d] = epilogueBuffers(type.size, rBase, rOffset, biasBase,
                                      biasOffset, dBase, dOffset);

  double start = profileClock();
  gemmWithEpilogue(dtype, aBase, aOffset, lda, bBase, bOffset, ldb, r, ldr,
                   bias, d, ldd, m, n, k, transA, transB, activation);
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
