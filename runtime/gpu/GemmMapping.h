//===- GemmMapping.h - row-major GEMM on cuBLAS -----------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summaRtMatmul computes, in row-major storage,
//   C[m, n] (+)= op(A) op(B),  op(A) = A[m, k] or A[k, m]^T, op(B) likewise.
// cuBLAS is column-major. A row-major [r, c] array with leading dimension ld
// is, byte for byte, the column-major [c, r] array with the same ld, its
// transpose. So C^T = op(B)^T op(A)^T is computed by the column-major call
//   gemm(opB, opA, n, m, k, B, ldb, A, lda, C, ldc)
// with the operands swapped and the transposition flags kept: no data is
// moved for any of the four combinations (A B, A B^T, A^T B, A^T B^T).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_GPU_GEMMMAPPING_H
#define SUMMA_RUNTIME_GPU_GEMMMAPPING_H

#include <cstdint>

namespace summa::gpu {

/// One column-major GEMM D = op(first) op(second) (+ C), in cuBLAS's terms.
struct ColumnMajorGemm {
  /// cuBLAS's transa / transb: whether op() transposes the first / second
  /// operand.
  bool transFirst = false;
  bool transSecond = false;
  /// cuBLAS's m, n, k: D is [m, n] column-major, op(first) [m, k],
  /// op(second) [k, n].
  int64_t m = 0, n = 0, k = 0;
  /// Whether the first operand is the row-major B (always, by the mapping
  /// above; kept explicit for the tests and the call sites).
  bool firstIsB = true;
  int64_t ldFirst = 0, ldSecond = 0, ldc = 0;
  /// The stored column-major shapes [rows, cols] (cuBLASLt's layouts).
  int64_t firstRows = 0, firstCols = 0;
  int64_t secondRows = 0, secondCols = 0;
  int64_t cRows = 0, cCols = 0;
};

inline ColumnMajorGemm mapRowMajorGemm(int64_t m, int64_t n, int64_t k,
                                       bool transA, bool transB, int64_t lda,
                                       int64_t ldb, int64_t ldc) {
  ColumnMajorGemm g;
  g.transFirst = transB;
  g.transSecond = transA;
  g.m = n;
  g.n = m;
  g.k = k;
  g.firstIsB = true;
  g.ldFirst = ldb;
  g.ldSecond = lda;
  g.ldc = ldc;
  // op(first) is [n, k]: stored [n, k] (no transpose) or [k, n].
  g.firstRows = transB ? k : n;
  g.firstCols = transB ? n : k;
  // op(second) is [k, m]: stored [k, m] or [m, k].
  g.secondRows = transA ? m : k;
  g.secondCols = transA ? k : m;
  g.cRows = n;
  g.cCols = m;
  return g;
}

} // namespace summa::gpu

#endif // SUMMA_RUNTIME_GPU_GEMMMAPPING_H
