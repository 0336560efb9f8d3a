//===- GemmMappingTest.cpp - row-major GEMM on cuBLAS -----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Interprets the column-major call that mapRowMajorGemm produces exactly as
// cuBLAS defines it (and checks every parameter against cuBLAS's argument
// rules), on row-major data with padding and offsets, for all four
// transposition combinations; compares with a plain row-major product.
//
//===----------------------------------------------------------------------===//

#include "GemmMapping.h"
#include "HostTestUtil.h"

#include <random>

using namespace summa::gpu;

namespace {
/// cuBLAS: C[m,n] = alpha op(A) op(B) + beta C, all column-major:
/// element (r, c) of a matrix with leading dimension ld is at r + c*ld.
void columnMajorGemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
                     const double *a, int64_t lda, const double *b, int64_t ldb,
                     double beta, double *c, int64_t ldc) {
  for (int64_t col = 0; col < n; ++col)
    for (int64_t row = 0; row < m; ++row) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) {
        double av = transA ? a[p + row * lda] : a[row + p * lda];
        double bv = transB ? b[col + p * ldb] : b[p + col * ldb];
        sum += av * bv;
      }
      c[row + col * ldc] = sum + beta * c[row + col * ldc];
    }
}

struct Case {
  int64_t m, n, k;
  int64_t padA, padB, padC;
};
} // namespace

TEST(GemmMappingTest, AllTranspositionsMatchRowMajorProduct) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1, 1);
  const Case cases[] = {{3, 5, 4, 0, 0, 0}, {3, 5, 4, 2, 1, 3},
                        {1, 7, 2, 0, 3, 0}, {6, 1, 5, 1, 0, 2},
                        {4, 4, 1, 0, 0, 1}, {8, 3, 9, 5, 2, 0}};
  for (const Case &t : cases)
    for (int transA = 0; transA < 2; ++transA)
      for (int transB = 0; transB < 2; ++transB)
        for (int accumulate = 0; accumulate < 2; ++accumulate) {
          SCOPED_TRACE(::testing::Message()
                       << "m=" << t.m << " n=" << t.n << " k=" << t.k
                       << " transA=" << transA << " transB=" << transB
                       << " accumulate=" << accumulate);
          // Row-major storage: A is [m, k] or [k, m], B [k, n] or [n, k].
          int64_t aRows = transA ? t.k : t.m, aCols = transA ? t.m : t.k;
          int64_t bRows = transB ? t.n : t.k, bCols = transB ? t.k : t.n;
          int64_t lda = aCols + t.padA, ldb = bCols + t.padB,
                  ldc = t.n + t.padC;
          const int64_t offset = 3;
          std::vector<double> a(offset + aRows * lda), b(offset + bRows * ldb),
              c(offset + t.m * ldc);
          for (double &v : a)
            v = uniform(random);
          for (double &v : b)
            v = uniform(random);
          for (double &v : c)
            v = uniform(random);
          std::vector<double> expected = c;
          auto A = [&](int64_t i, int64_t p) {
            return transA ? a[offset + p * lda + i] : a[offset + i * lda + p];
          };
          auto B = [&](int64_t p, int64_t j) {
            return transB ? b[offset + j * ldb + p] : b[offset + p * ldb + j];
          };
          for (int64_t i = 0; i < t.m; ++i)
            for (int64_t j = 0; j < t.n; ++j) {
              double sum = 0;
              for (int64_t p = 0; p < t.k; ++p)
                sum += A(i, p) * B(p, j);
              double &out = expected[offset + i * ldc + j];
              out = sum + (accumulate ? out : 0.0);
            }

          ColumnMajorGemm g =
              mapRowMajorGemm(t.m, t.n, t.k, transA, transB, lda, ldb, ldc);
          // cuBLAS's argument rules: ld >= max(1, stored rows).
          EXPECT_GE(g.ldFirst, std::max<int64_t>(1, g.firstRows));
          EXPECT_GE(g.ldSecond, std::max<int64_t>(1, g.secondRows));
          EXPECT_GE(g.ldc, std::max<int64_t>(1, g.m));
          EXPECT_EQ(g.firstRows, g.transFirst ? g.k : g.m);
          EXPECT_EQ(g.secondRows, g.transSecond ? g.n : g.k);
          EXPECT_EQ(g.cRows, g.m);
          EXPECT_EQ(g.cCols, g.n);
          ASSERT_TRUE(g.firstIsB);
          std::vector<double> actual = c;
          columnMajorGemm(g.transFirst, g.transSecond, g.m, g.n, g.k,
                          b.data() + offset, g.ldFirst, a.data() + offset,
                          g.ldSecond, accumulate ? 1.0 : 0.0,
                          actual.data() + offset, g.ldc);
          for (size_t e = 0; e < actual.size(); ++e)
            ASSERT_NEAR(actual[e], expected[e], 1e-12) << "element " << e;
        }
}

TEST(GemmMappingTest, SummaForms) {
  // A B: cuBLAS gemm(N, N, n, m, k, B, ldb, A, lda, C, ldc).
  ColumnMajorGemm ab = mapRowMajorGemm(128, 64, 32, false, false, 32, 64, 64);
  EXPECT_FALSE(ab.transFirst);
  EXPECT_FALSE(ab.transSecond);
  EXPECT_EQ(ab.m, 64);
  EXPECT_EQ(ab.n, 128);
  EXPECT_EQ(ab.k, 32);
  EXPECT_EQ(ab.ldFirst, 64);
  EXPECT_EQ(ab.ldSecond, 32);
  // A B^T (backward, dX = dY W^T): gemm(T, N, ...), B stored [n, k].
  ColumnMajorGemm abt = mapRowMajorGemm(128, 64, 32, false, true, 32, 32, 64);
  EXPECT_TRUE(abt.transFirst);
  EXPECT_FALSE(abt.transSecond);
  EXPECT_EQ(abt.firstRows, 32);
  EXPECT_EQ(abt.firstCols, 64);
  // A^T B (backward, dW = X^T dY): gemm(N, T, ...), A stored [k, m].
  ColumnMajorGemm atb = mapRowMajorGemm(128, 64, 32, true, false, 128, 64, 64);
  EXPECT_FALSE(atb.transFirst);
  EXPECT_TRUE(atb.transSecond);
  EXPECT_EQ(atb.secondRows, 128);
  EXPECT_EQ(atb.secondCols, 32);
}
