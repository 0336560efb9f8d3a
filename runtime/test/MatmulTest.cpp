//===- MatmulTest.cpp - summaRtMatmul against a naive loop ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "Profile.h"
#include "TestUtil.h"

#include <cmath>
#include <limits>
#include <vector>

using namespace summa::test;

namespace {

template <typename T>
class MatmulTest : public ::testing::Test {};
using ElementTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(MatmulTest, ElementTypes);

/// A row-major [rows, cols] matrix with leading dimension ld >= cols, stored
/// after `offset` elements of padding, filled with deterministic values.
template <typename T>
struct Matrix {
  int64_t rows, cols, ld, offset;
  std::vector<T> data;

  Matrix(int64_t rows, int64_t cols, int64_t padding, int64_t offset,
         int32_t tensor)
      : rows(rows), cols(cols), ld(cols + padding), offset(offset),
        data(offset + rows * (cols + padding) + 1) {
    for (size_t e = 0; e < data.size(); ++e)
      data[e] = T(summaRtInputValue(7, tensor, static_cast<int64_t>(e)));
  }
  T &at(int64_t r, int64_t c) { return data[offset + r * ld + c]; }
  intptr_t base() const { return address(data.data()); }
};

template <typename T>
double tolerance() {
  return sizeof(T) == 4 ? 1e-5 : 1e-13;
}

/// GeLU in the tanh form of SummaRuntime.h, in double.
double geluReference(double x) {
  return 0.5 * x *
         (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

/// op(A) op(B)[i, j] in double.
template <typename T>
double referenceProduct(Matrix<T> &a, Matrix<T> &b, int64_t i, int64_t j,
                        int64_t k, int32_t transA, int32_t transB) {
  double sum = 0;
  for (int64_t p = 0; p < k; ++p)
    sum += double(transA ? a.at(p, i) : a.at(i, p)) *
           double(transB ? b.at(j, p) : b.at(p, j));
  return sum;
}

/// `result` matches `expected` (row-major [rows, cols]) within the element
/// type's tolerance, and its padding and the elements before it are those of
/// `original`, untouched.
template <typename T>
void expectResult(Matrix<T> &result, Matrix<T> &original,
                  const std::vector<double> &expected) {
  double errSq = 0, refSq = 0;
  for (int64_t i = 0; i < result.rows; ++i)
    for (int64_t j = 0; j < result.cols; ++j) {
      double want = expected[i * result.cols + j];
      double diff = double(result.at(i, j)) - want;
      errSq += diff * diff;
      refSq += want * want;
    }
  EXPECT_GT(refSq, 0.0);
  EXPECT_LE(std::sqrt(errSq / refSq), tolerance<T>());
  for (int64_t e = 0; e < result.offset; ++e)
    EXPECT_EQ(result.data[e], original.data[e]);
  for (int64_t i = 0; i < result.rows; ++i)
    for (int64_t j = result.cols; j < result.ld; ++j)
      EXPECT_EQ(result.at(i, j), original.at(i, j));
}

/// One summaRtMatmulEpilogue call: the shape, which optional parts it has
/// and the padding of every leading dimension (R gets one column more, so
/// that its leading dimension differs from D's).
struct EpilogueCase {
  const char *name;
  int64_t m, n, k;
  int32_t transA, transB;
  bool residual, inPlace, bias;
  int32_t activation;
  int64_t padding;
};

/// Runs `t` and compares D with a double-precision reference computed from
/// the same inputs; D's padding and the elements before it stay untouched.
/// With k = 0, A and B are null.
template <typename T>
void checkEpilogue(const EpilogueCase &t) {
  SCOPED_TRACE(t.name);
  const int64_t m = t.m, n = t.n, k = t.k;
  Matrix<T> a(t.transA ? k : m, t.transA ? m : k, t.padding, 3, 11);
  Matrix<T> b(t.transB ? n : k, t.transB ? k : n, t.padding, 4, 12);
  Matrix<T> r(m, n, t.padding + 1, 2, 13);
  Matrix<T> d(m, n, t.padding, 5, 14);
  Matrix<T> bias(1, n, 0, 6, 15);
  Matrix<T> original = d;

  std::vector<double> expected(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = referenceProduct(a, b, i, j, k, t.transA, t.transB);
      if (t.residual)
        sum += double(t.inPlace ? d.at(i, j) : r.at(i, j));
      if (t.bias)
        sum += double(bias.at(0, j));
      expected[i * n + j] = t.activation == 1 ? geluReference(sum) : sum;
    }

  const Matrix<T> &residual = t.inPlace ? d : r;
  summaRtMatmulEpilogue(
      dtypeOf<T>(), k > 0 ? a.base() : 0, a.offset, a.ld, k > 0 ? b.base() : 0,
      b.offset, b.ld, t.residual ? residual.base() : 0, residual.offset,
      residual.ld, t.bias ? bias.base() : 0, bias.offset, d.base(), d.offset,
      d.ld, m, n, k, t.transA, t.transB, t.activation);

  expectResult(d, original, expected);
}

} // namespace

TYPED_TEST(MatmulTest, AllTransposesAccumulateAndOverwrite) {
  using T = TypeParam;
  // 7 rows (the CPU backend's matrix-vector products for few rows, one
  // block of B), 40 rows (its GEMM), and 3 rows by a B of several blocks
  // (256 KiB of B a block: 164 or 218 of its rows in f32, 82 or 109 in
  // f64).
  for (auto [m, n, k] : {std::tuple<int64_t, int64_t, int64_t>{7, 5, 9},
                         {40, 6, 11},
                         {3, 300, 400}})
    for (int32_t transA : {0, 1}) {
      for (int32_t transB : {0, 1}) {
        for (int32_t accumulate : {0, 1}) {
          SCOPED_TRACE("[" + std::to_string(m) + ", " + std::to_string(n) +
                       ", " + std::to_string(k) + "], transA " +
                       std::to_string(transA) + ", transB " +
                       std::to_string(transB) + ", accumulate " +
                       std::to_string(accumulate));
          Matrix<T> a(transA ? k : m, transA ? m : k, 2, 3, 1);
          Matrix<T> b(transB ? n : k, transB ? k : n, 1, 4, 2);
          Matrix<T> c(m, n, 3, 5, 3);
          Matrix<T> original = c;
          summaRtMatmul(dtypeOf<T>(), a.base(), a.offset, a.ld, b.base(),
                        b.offset, b.ld, c.base(), c.offset, c.ld, m, n, k,
                        transA, transB, accumulate);
          std::vector<double> expected(m * n);
          for (int64_t r = 0; r < m; ++r)
            for (int64_t col = 0; col < n; ++col)
              expected[r * n + col] =
                  (accumulate ? double(original.at(r, col)) : 0.0) +
                  referenceProduct(a, b, r, col, k, transA, transB);
          expectResult(c, original, expected);
        }
      }
    }
}

TYPED_TEST(MatmulTest, OverwriteIgnoresNaNInC) {
  using T = TypeParam;
  T a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, c[4];
  for (T &value : c)
    value = std::nan("");
  summaRtMatmul(dtypeOf<T>(), address(a), 0, 2, address(b), 0, 2, address(c), 0,
                2, 2, 2, 2, 0, 0, 0);
  for (int e = 0; e < 4; ++e)
    EXPECT_EQ(c[e], a[e]);
}

TYPED_TEST(MatmulTest, EmptySizes) {
  using T = TypeParam;
  // Calls with null A and B, one after the other on the same C, and what C
  // holds after each.
  struct EmptyCall {
    int64_t lda, ldb, offsetC, ldc, m, n, k;
    int32_t accumulate;
    double after[6];
  };
  const EmptyCall calls[] = {
      // k = 0 with accumulate: C += 0 leaves C unchanged.
      {1, 3, 0, 3, 2, 3, 0, 1, {1, 2, 3, 4, 5, 6}},
      // m = 0 and n = 0: nothing to write.
      {4, 3, 0, 3, 0, 3, 4, 0, {1, 2, 3, 4, 5, 6}},
      {4, 1, 0, 1, 2, 0, 4, 0, {1, 2, 3, 4, 5, 6}},
      // k = 0 overwriting: C = the empty sum = 0, within its leading
      // dimension.
      {1, 2, 1, 3, 2, 2, 0, 0, {1, 0, 0, 4, 0, 0}},
  };
  T c[6] = {1, 2, 3, 4, 5, 6};
  for (const EmptyCall &call : calls) {
    SCOPED_TRACE(::testing::Message()
                 << "m " << call.m << ", n " << call.n << ", k " << call.k
                 << ", accumulate " << call.accumulate);
    summaRtMatmul(dtypeOf<T>(), 0, 0, call.lda, 0, 0, call.ldb, address(c),
                  call.offsetC, call.ldc, call.m, call.n, call.k, 0, 0,
                  call.accumulate);
    for (int e = 0; e < 6; ++e)
      EXPECT_EQ(c[e], T(call.after[e]));
  }
}

// summaRtMatmulBatched is its members one by one, also when the C of the
// members interleave by rows (attention's context: per head, rows of d
// elements every heads·d) and with a transposed operand.
TYPED_TEST(MatmulTest, BatchedIsItsMembers) {
  using T = TypeParam;
  constexpr int batch = 3, m = 4, n = 2, k = 5;
  // A members stored [k, m] (transA) one after the other; B [k, n] with row
  // stride batch·n, member i at column offset i·n; C likewise interleaved.
  std::vector<T> a(batch * k * m), b(k * batch * n), c(m * batch * n),
      expected(m * batch * n);
  for (size_t e = 0; e < a.size(); ++e)
    a[e] = T(int(e % 7) - 3);
  for (size_t e = 0; e < b.size(); ++e)
    b[e] = T(int(e % 5) - 2);
  for (size_t e = 0; e < c.size(); ++e)
    c[e] = expected[e] = T(int(e % 3));
  for (int i = 0; i < batch; ++i)
    summaRtMatmul(dtypeOf<T>(), address(a.data()), i * k * m, m,
                  address(b.data()), i * n, batch * n, address(expected.data()),
                  i * n, batch * n, m, n, k, 1, 0, 1);
  summaRtMatmulBatched(dtypeOf<T>(), address(a.data()), 0, m, k * m,
                       address(b.data()), 0, batch * n, n, address(c.data()), 0,
                       batch * n, n, m, n, k, batch, 1, 0, 1);
  for (size_t e = 0; e < c.size(); ++e)
    EXPECT_EQ(c[e], expected[e]) << "element " << e;
  // An empty batch writes nothing.
  std::vector<T> before = c;
  summaRtMatmulBatched(dtypeOf<T>(), 0, 0, m, k * m, 0, 0, n, 0,
                       address(c.data()), 0, n, 0, m, n, k, 0, 0, 0, 0);
  EXPECT_EQ(c, before);
}

TYPED_TEST(MatmulTest, EpilogueAgainstReference) {
  // name, m, n, k, transA, transB, residual, in place, bias, activation,
  // padding
  const EpilogueCase cases[] = {
      {"bias only", 7, 5, 9, 0, 0, false, false, true, 0, 0},
      {"residual only", 7, 5, 9, 0, 0, true, false, false, 0, 0},
      {"residual in place", 7, 5, 9, 0, 0, true, true, false, 0, 0},
      {"bias and residual", 6, 8, 4, 0, 0, true, false, true, 0, 0},
      {"bias and residual in place", 6, 8, 4, 0, 0, true, true, true, 0, 2},
      {"GeLU with bias", 7, 5, 9, 0, 0, false, false, true, 1, 0},
      {"GeLU with bias and residual", 5, 6, 3, 0, 1, true, false, true, 1, 1},
      {"GeLU alone", 4, 3, 6, 0, 0, false, false, false, 1, 0},
      {"no epilogue", 4, 3, 6, 0, 0, false, false, false, 0, 1},
      {"transposed A", 7, 5, 9, 1, 0, true, false, true, 0, 0},
      {"transposed B", 7, 5, 9, 0, 1, true, false, true, 0, 0},
      {"transposed A and B", 7, 5, 9, 1, 1, true, true, true, 1, 0},
      {"strided", 6, 4, 5, 0, 0, true, false, true, 0, 3},
      {"strided transposed", 6, 4, 5, 1, 1, true, true, true, 1, 3},
      {"k = 0 with bias and residual", 3, 4, 0, 0, 0, true, false, true, 0, 1},
      {"k = 0 in place with GeLU", 3, 4, 0, 0, 0, true, true, true, 1, 1},
      {"k = 0 with bias", 3, 4, 0, 1, 1, false, false, true, 0, 1},
      {"k = 0 with GeLU of R", 3, 4, 0, 0, 0, true, false, false, 1, 1},
  };
  for (const EpilogueCase &t : cases)
    checkEpilogue<TypeParam>(t);
}

TYPED_TEST(MatmulTest, EpilogueGeluValues) {
  using T = TypeParam;
  // D = gelu(1 * x + 0) for x in {-3, -1, 0, 0.5, 2}: A = [x]^T, B = [1].
  const double x[5] = {-3, -1, 0, 0.5, 2};
  T a[5], b[1] = {1}, d[5];
  for (int e = 0; e < 5; ++e)
    a[e] = T(x[e]);
  summaRtMatmulEpilogue(dtypeOf<T>(), address(a), 0, 1, address(b), 0, 1, 0, 0,
                        1, 0, 0, address(d), 0, 1, 5, 1, 1, 0, 0, 1);
  // gelu(0) = 0, gelu(x) - gelu(-x) = x, and gelu(2) = 1.9545976...
  EXPECT_EQ(d[2], T(0));
  EXPECT_NEAR(double(d[4]), 1.954597694087775, 10 * tolerance<T>());
  for (int e = 0; e < 5; ++e)
    EXPECT_NEAR(double(d[e]), geluReference(x[e]), 2 * tolerance<T>());
}

TYPED_TEST(MatmulTest, EpilogueWithoutSumsIgnoresNaNInD) {
  using T = TypeParam;
  T a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, d[4];
  for (T &value : d)
    value = std::numeric_limits<T>::quiet_NaN();
  summaRtMatmulEpilogue(dtypeOf<T>(), address(a), 0, 2, address(b), 0, 2, 0, 0,
                        2, 0, 0, address(d), 0, 2, 2, 2, 2, 0, 0, 0);
  for (int e = 0; e < 4; ++e)
    EXPECT_EQ(d[e], a[e]);
  // k = 0 without R or bias: the empty sum.
  for (T &value : d)
    value = std::numeric_limits<T>::quiet_NaN();
  summaRtMatmulEpilogue(dtypeOf<T>(), 0, 0, 1, 0, 0, 2, 0, 0, 2, 0, 0,
                        address(d), 0, 2, 2, 2, 0, 0, 0, 0);
  for (int e = 0; e < 4; ++e)
    EXPECT_EQ(d[e], T(0));
  // m = 0: nothing is read or written.
  summaRtMatmulEpilogue(dtypeOf<T>(), 0, 0, 3, 0, 0, 2, 0, 0, 2, 0, 0, 0, 0, 2,
                        0, 2, 3, 0, 0, 1);
}

TYPED_TEST(MatmulTest, EpilogueCountsAsOneMatmul) {
  using T = TypeParam;
  T a[6 * 4] = {0}, b[4 * 5] = {0}, bias[5] = {0}, d[6 * 5] = {0};
  summa::rt::ProfileSnapshot before = summa::rt::profileSnapshot();
  summaRtMatmulEpilogue(dtypeOf<T>(), address(a), 0, 4, address(b), 0, 5,
                        address(d), 0, 5, address(bias), 0, address(d), 0, 5, 6,
                        5, 4, 0, 0, 1);
  summa::rt::ProfileSnapshot after = summa::rt::profileSnapshot();
  EXPECT_EQ(after.matmul.count, before.matmul.count + 1);
  EXPECT_EQ(after.matmul.flops, before.matmul.flops + 2 * 6 * 5 * 4);
}
