//===- MatmulTest.cpp - summaRtMatmul against a naive loop ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cmath>
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

} // namespace

TYPED_TEST(MatmulTest, AllTransposesAccumulateAndOverwrite) {
  using T = TypeParam;
  const int64_t m = 7, n = 5, k = 9;
  for (int32_t transA : {0, 1}) {
    for (int32_t transB : {0, 1}) {
      for (int32_t accumulate : {0, 1}) {
        SCOPED_TRACE("transA " + std::to_string(transA) + ", transB " +
                     std::to_string(transB) + ", accumulate " +
                     std::to_string(accumulate));
        Matrix<T> a(transA ? k : m, transA ? m : k, 2, 3, 1);
        Matrix<T> b(transB ? n : k, transB ? k : n, 1, 4, 2);
        Matrix<T> c(m, n, 3, 5, 3);
        Matrix<T> original = c;
        summaRtMatmul(dtypeOf<T>(), a.base(), a.offset, a.ld, b.base(),
                      b.offset, b.ld, c.base(), c.offset, c.ld, m, n, k, transA,
                      transB, accumulate);
        double errSq = 0, refSq = 0;
        for (int64_t r = 0; r < m; ++r) {
          for (int64_t col = 0; col < n; ++col) {
            double sum = accumulate ? double(original.at(r, col)) : 0.0;
            for (int64_t p = 0; p < k; ++p)
              sum += double(transA ? a.at(p, r) : a.at(r, p)) *
                     double(transB ? b.at(col, p) : b.at(p, col));
            double diff = double(c.at(r, col)) - sum;
            errSq += diff * diff;
            refSq += sum * sum;
          }
        }
        EXPECT_LE(std::sqrt(errSq / refSq), tolerance<T>());
        // Padding between the rows of C and the elements before it are
        // untouched.
        for (int64_t e = 0; e < c.offset; ++e)
          EXPECT_EQ(c.data[e], original.data[e]);
        for (int64_t r = 0; r < m; ++r)
          for (int64_t col = n; col < c.ld; ++col)
            EXPECT_EQ(c.at(r, col), original.at(r, col));
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
