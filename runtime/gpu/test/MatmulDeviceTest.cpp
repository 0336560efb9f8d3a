//===- MatmulDeviceTest.cpp - summaRtMatmul on the GPU ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// All four transposition combinations, accumulate or not, leading
// dimensions with padding and element offsets (unaligned pointers), in f32,
// f64, f16 and bf16, through cuBLASLt and through cublasGemmEx, against a
// double-precision product of the same rounded inputs. Padding columns of C
// must stay untouched. TF32 is off unless SUMMA_ALLOW_TF32=1, so f32 is
// compared tightly. An output that is not accumulated into (beta = 0,
// cuBLASLt's C = D) starts as NaN, as uninitialised pool memory may: a GEMM
// that read it would give NaN.
//
//===----------------------------------------------------------------------===//

#include "DeviceTestUtil.h"
#include "GpuContext.h"
#include "GpuRuntime.h"
#include "Profile.h"

using namespace summa::gputest;

namespace {
struct Case {
  int64_t m, n, k, pad, offset;
};

double tolerance(int32_t dtype, int64_t k) {
  switch (dtype) {
  case SUMMA_DT_F64:
    return 1e-12;
  case SUMMA_DT_F32:
    return 1e-6 * std::sqrt(double(k)) + 1e-6;
  case SUMMA_DT_F16:
    return 2e-3;
  default:
    return 1e-2;
  }
}

/// `values` (rows of `ld` elements) with the first `cols` of each of `rows`
/// rows NaN: an output the GEMM must write without reading it (beta = 0).
std::vector<double> withNaNRows(std::vector<double> values, int64_t rows,
                                int64_t cols, int64_t ld) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      values[i * ld + j] = std::nan("");
  return values;
}

/// op(A) op(B) in double, [m, n] without padding, for row-major A and B with
/// leading dimensions lda and ldb (op transposes where `trans` is set).
std::vector<double> referenceProduct(const std::vector<double> &a, int64_t lda,
                                     int transA, const std::vector<double> &b,
                                     int64_t ldb, int transB, int64_t m,
                                     int64_t n, int64_t k) {
  std::vector<double> product(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p)
        sum += (transA ? a[p * lda + i] : a[i * lda + p]) *
               (transB ? b[j * ldb + p] : b[p * ldb + j]);
      product[i * n + j] = sum;
    }
  return product;
}

void checkMatmul(int32_t dtype, const Case &t, int transA, int transB,
                 int accumulate) {
  SCOPED_TRACE(::testing::Message()
               << dtypeName(dtype) << " m=" << t.m << " n=" << t.n
               << " k=" << t.k << " pad=" << t.pad << " offset=" << t.offset
               << " transA=" << transA << " transB=" << transB
               << " accumulate=" << accumulate);
  int64_t aRows = transA ? t.k : t.m, aCols = transA ? t.m : t.k;
  int64_t bRows = transB ? t.n : t.k, bCols = transB ? t.k : t.n;
  int64_t lda = aCols + t.pad, ldb = bCols + t.pad, ldc = t.n + t.pad;
  std::vector<double> a = randomValues(aRows * lda, dtype, 21);
  std::vector<double> b = randomValues(bRows * ldb, dtype, 22);
  std::vector<double> c = randomValues(t.m * ldc, dtype, 23);
  if (!accumulate)
    c = withNaNRows(c, t.m, t.n, ldc);
  DeviceArray da(aRows * lda, dtype, t.offset),
      db(bRows * ldb, dtype, t.offset), dc(t.m * ldc, dtype, t.offset);
  da.upload(a, t.offset);
  db.upload(b, t.offset);
  dc.upload(c, t.offset);
  summaRtMatmul(dtype, da.at(), t.offset, lda, db.at(), t.offset, ldb, dc.at(),
                t.offset, ldc, t.m, t.n, t.k, transA, transB, accumulate);
  std::vector<double> out = dc.download(t.offset, t.m * ldc);

  std::vector<double> expected =
      referenceProduct(a, lda, transA, b, ldb, transB, t.m, t.n, t.k);
  std::vector<double> actual;
  for (int64_t i = 0; i < t.m; ++i) {
    for (int64_t j = 0; j < t.n; ++j) {
      if (accumulate)
        expected[i * t.n + j] += c[i * ldc + j];
      actual.push_back(out[i * ldc + j]);
    }
    for (int64_t j = t.n; j < ldc; ++j)
      ASSERT_EQ(out[i * ldc + j], c[i * ldc + j]) << "padding of C written";
  }
  EXPECT_TRUE(closeNorm(actual, expected, tolerance(dtype, t.k)));
}
} // namespace

TEST(MatmulDeviceTest, AllFormsAndTypes) {
  SUMMA_REQUIRE_DEVICE();
  const Case cases[] = {{3, 5, 4, 0, 0},    {64, 48, 32, 0, 0},
                        {37, 29, 53, 3, 1}, {128, 256, 64, 8, 0},
                        {1, 17, 300, 0, 3}, {200, 1, 7, 1, 0}};
  for (summa::gpu::GemmEngine engine :
       {summa::gpu::GemmEngine::CublasLt, summa::gpu::GemmEngine::Cublas}) {
    summa::gpu::setGemmEngine(engine);
    for (int32_t dtype :
         {SUMMA_DT_F32, SUMMA_DT_F64, SUMMA_DT_F16, SUMMA_DT_BF16})
      for (const Case &t : cases)
        for (int transA = 0; transA < 2; ++transA)
          for (int transB = 0; transB < 2; ++transB)
            for (int accumulate = 0; accumulate < 2; ++accumulate)
              checkMatmul(dtype, t, transA, transB, accumulate);
  }
  summa::gpu::setGemmEngine(summa::gpu::GemmEngine::CublasLt);
}

TEST(MatmulDeviceTest, EmptySums) {
  SUMMA_REQUIRE_DEVICE();
  // k = 0: C = 0 without accumulate (also from NaN), unchanged with it;
  // padding untouched.
  std::vector<double> c = randomValues(4 * 6, SUMMA_DT_F32, 24);
  DeviceArray dc(c, SUMMA_DT_F32);
  summaRtMatmul(SUMMA_DT_F32, 0, 0, 1, 0, 0, 5, dc.at(), 0, 6, 4, 5, 0, 0, 0,
                1);
  EXPECT_TRUE(sameValues(dc.download(), c));
  dc.upload(withNaNRows(c, 4, 5, 6));
  summaRtMatmul(SUMMA_DT_F32, 0, 0, 1, 0, 0, 5, dc.at(), 0, 6, 4, 5, 0, 0, 0,
                0);
  std::vector<double> out = dc.download();
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 6; ++j)
      EXPECT_EQ(out[i * 6 + j], j < 5 ? 0.0 : c[i * 6 + j]);
  // m = 0: nothing.
  summaRtMatmul(SUMMA_DT_BF16, 0, 0, 4, 0, 0, 5, 0, 0, 5, 0, 5, 4, 0, 0, 0);
  summaRtSynchronize();
}

TEST(MatmulDeviceTest, Tf32IsOptIn) {
  SUMMA_REQUIRE_DEVICE();
  // Inputs with low mantissa bits that TF32 (10-bit mantissa) drops.
  int64_t n = 64;
  std::vector<double> a(n * n), b(n * n);
  for (int64_t e = 0; e < n * n; ++e) {
    a[e] = 1.0 + std::ldexp(1.0, -20) * double(e % 7);
    b[e] = 1.0 - std::ldexp(1.0, -19) * double(e % 5);
  }
  DeviceArray da(a, SUMMA_DT_F32), db(b, SUMMA_DT_F32),
      dc(std::vector<double>(n * n, std::nan("")), SUMMA_DT_F32);
  std::vector<double> expected = referenceProduct(a, n, 0, b, n, 0, n, n, n);
  bool previous = summa::gpu::tf32Allowed();
  summa::gpu::setTf32Allowed(false);
  summaRtMatmul(SUMMA_DT_F32, da.at(), 0, n, db.at(), 0, n, dc.at(), 0, n, n, n,
                n, 0, 0, 0);
  EXPECT_TRUE(closeNorm(dc.download(), expected, 1e-6));
  summa::gpu::setTf32Allowed(previous);
}

TEST(MatmulDeviceTest, ProfileCountsFlops) {
  SUMMA_REQUIRE_DEVICE();
  // Counted per call as 2 m n k (timed only with SUMMA_PROFILE).
  DeviceArray a(6 * 4, SUMMA_DT_F32), b(4 * 5, SUMMA_DT_F32),
      c(6 * 5, SUMMA_DT_F32);
  summa::gpu::flushProfile();
  summa::rt::ProfileSnapshot before = summa::rt::profileSnapshot();
  summaRtMatmul(SUMMA_DT_F32, a.at(), 0, 4, b.at(), 0, 5, c.at(), 0, 5, 6, 5, 4,
                0, 0, 0);
  summaRtSynchronize();
  summa::gpu::flushProfile();
  summa::rt::ProfileSnapshot after = summa::rt::profileSnapshot();
  EXPECT_EQ(after.matmul.count, before.matmul.count + 1);
  EXPECT_EQ(after.matmul.flops, before.matmul.flops + 2 * 6 * 5 * 4);
}

// summaRtMatmulBatched (cublasGemmStridedBatchedEx) is its members run one
// by one through summaRtMatmul (cuBLASLt: another algorithm, so equal up to
// the summation order and one rounding of the output type): f32, bf16 and f16,
// a transposed B, the members' C interleaved by rows (attention's context per
// head), and the profile counts one GEMM per member.
TEST(MatmulDeviceTest, BatchedIsItsMembers) {
  SUMMA_REQUIRE_DEVICE();
  constexpr int64_t batch = 5, m = 7, n = 6, k = 9;
  for (int32_t dtype : {SUMMA_DT_F32, SUMMA_DT_BF16, SUMMA_DT_F16}) {
    SCOPED_TRACE(dtype);
    // A members [m, k] one after the other; B members stored [n, k]
    // (transB) one after the other; C [m, batch·n], member i at column i·n.
    std::vector<double> a = randomValues(batch * m * k, dtype, 31);
    std::vector<double> b = randomValues(batch * n * k, dtype, 32);
    std::vector<double> c = randomValues(m * batch * n, dtype, 33);
    DeviceArray da(a, dtype), db(b, dtype), one(c, dtype), all(c, dtype);
    for (int64_t i = 0; i < batch; ++i)
      summaRtMatmul(dtype, da.at(), i * m * k, k, db.at(), i * n * k, k,
                    one.at(), i * n, batch * n, m, n, k, 0, 1, 1);
    summa::gpu::flushProfile();
    summa::rt::ProfileSnapshot before = summa::rt::profileSnapshot();
    summaRtMatmulBatched(dtype, da.at(), 0, k, m * k, db.at(), 0, k, n * k,
                         all.at(), 0, batch * n, n, m, n, k, batch, 0, 1, 1);
    summaRtSynchronize();
    summa::gpu::flushProfile();
    summa::rt::ProfileSnapshot after = summa::rt::profileSnapshot();
    EXPECT_EQ(after.matmul.count, before.matmul.count + batch);
    EXPECT_EQ(after.matmul.flops, before.matmul.flops + 2 * m * n * k * batch);
    double tol = dtype == SUMMA_DT_F32   ? 1e-5
                 : dtype == SUMMA_DT_F16 ? 2e-3
                                         : 1e-2;
    EXPECT_TRUE(closeNorm(all.download(), one.download(), tol));
  }
}

namespace {
/// One summaRtMatmulEpilogue call: the shape, the padding of every leading
/// dimension (R gets one column more than D), the element offset of every
/// operand (1: pointers, the bias among them, not 16-byte aligned, so the
/// bias epilogue takes the cublasGemmEx path), and the optional parts.
struct EpilogueCase {
  const char *name;
  int64_t m, n, k, pad, offset;
  int transA, transB;
  bool residual, inPlace, bias;
  int activation;
};

double geluReference(double x) {
  return 0.5 * x *
         (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

/// Runs `t` and compares D with a double-precision reference of the same
/// rounded inputs; D's padding stays untouched. With k = 0, A and B are
/// null.
void checkEpilogue(int32_t dtype, const EpilogueCase &t) {
  SCOPED_TRACE(::testing::Message() << dtypeName(dtype) << " " << t.name);
  int64_t aRows = t.transA ? t.k : t.m, aCols = t.transA ? t.m : t.k;
  int64_t bRows = t.transB ? t.n : t.k, bCols = t.transB ? t.k : t.n;
  int64_t lda = aCols + t.pad, ldb = bCols + t.pad, ldd = t.n + t.pad,
          ldr = ldd + 1;
  int64_t aCount = std::max<int64_t>(aRows * lda, 1),
          bCount = std::max<int64_t>(bRows * ldb, 1);
  std::vector<double> a = randomValues(aCount, dtype, 41);
  std::vector<double> b = randomValues(bCount, dtype, 42);
  std::vector<double> r = randomValues(t.m * ldr, dtype, 43);
  std::vector<double> d = randomValues(t.m * ldd, dtype, 44);
  // D is read only as the residual in place; otherwise it starts as NaN.
  if (!(t.residual && t.inPlace))
    d = withNaNRows(d, t.m, t.n, ldd);
  std::vector<double> bias = randomValues(t.n, dtype, 45);
  DeviceArray da(aCount, dtype, t.offset), db(bCount, dtype, t.offset),
      dr(t.m * ldr, dtype, t.offset), dd(t.m * ldd, dtype, t.offset),
      dbias(t.n, dtype, t.offset);
  da.upload(a, t.offset);
  db.upload(b, t.offset);
  dr.upload(r, t.offset);
  dd.upload(d, t.offset);
  dbias.upload(bias, t.offset);

  const DeviceArray &residual = t.inPlace ? dd : dr;
  int64_t residualLd = t.inPlace ? ldd : ldr;
  summaRtMatmulEpilogue(dtype, t.k > 0 ? da.at() : 0, t.offset, lda,
                        t.k > 0 ? db.at() : 0, t.offset, ldb,
                        t.residual ? residual.at() : 0, t.offset, residualLd,
                        t.bias ? dbias.at() : 0, t.offset, dd.at(), t.offset,
                        ldd, t.m, t.n, t.k, t.transA, t.transB, t.activation);
  std::vector<double> out = dd.download(t.offset, t.m * ldd);

  std::vector<double> expected =
      referenceProduct(a, lda, t.transA, b, ldb, t.transB, t.m, t.n, t.k);
  std::vector<double> actual;
  for (int64_t i = 0; i < t.m; ++i) {
    for (int64_t j = 0; j < t.n; ++j) {
      double &value = expected[i * t.n + j];
      if (t.residual)
        value += t.inPlace ? d[i * ldd + j] : r[i * ldr + j];
      if (t.bias)
        value += bias[j];
      if (t.activation == 1)
        value = geluReference(value);
      actual.push_back(out[i * ldd + j]);
    }
    for (int64_t j = t.n; j < ldd; ++j)
      ASSERT_EQ(out[i * ldd + j], d[i * ldd + j]) << "padding of D written";
  }
  // 16-bit types: the cublasGemmEx path rounds D after the GEMM, after the
  // bias and after GeLU.
  double tol = dtype == SUMMA_DT_F16    ? 4e-3
               : dtype == SUMMA_DT_BF16 ? 2e-2
                                        : tolerance(dtype, t.k);
  EXPECT_TRUE(closeNorm(actual, expected, tol));
}
} // namespace

// summaRtMatmulEpilogue through cuBLASLt's epilogues (BIAS, GELU,
// GELU_BIAS, with R as C) and through cublasGemmEx plus the kernel of
// Epilogue.cu, in every element type, against the tanh form of GeLU.
TEST(MatmulDeviceTest, EpilogueAgainstReference) {
  SUMMA_REQUIRE_DEVICE();
  // name, m, n, k, pad, offset, transA, transB, residual, in place, bias,
  // activation
  const EpilogueCase cases[] = {
      {"bias", 37, 32, 53, 0, 0, 0, 0, false, false, true, 0},
      {"residual", 64, 48, 32, 0, 0, 0, 0, true, false, false, 0},
      {"residual in place", 64, 48, 32, 0, 0, 0, 1, true, true, false, 0},
      {"bias and residual", 128, 256, 64, 8, 0, 1, 0, true, false, true, 0},
      {"all in place", 64, 48, 32, 0, 0, 0, 0, true, true, true, 1},
      {"GeLU with bias", 64, 128, 96, 0, 0, 0, 1, false, false, true, 1},
      {"GeLU alone", 32, 64, 16, 0, 0, 0, 0, false, false, false, 1},
      {"no epilogue", 32, 64, 16, 2, 0, 0, 0, false, false, false, 0},
      {"transposed", 40, 24, 56, 8, 0, 1, 1, true, false, true, 1},
      {"unaligned", 37, 29, 53, 3, 1, 1, 0, true, false, true, 1},
      {"k = 0", 5, 7, 0, 1, 0, 0, 0, true, false, true, 1},
      {"k = 0 in place", 5, 7, 0, 1, 1, 0, 0, true, true, true, 0},
      {"k = 0 alone", 5, 7, 0, 1, 0, 0, 0, false, false, false, 0},
  };
  for (summa::gpu::GemmEngine engine :
       {summa::gpu::GemmEngine::CublasLt, summa::gpu::GemmEngine::Cublas}) {
    summa::gpu::setGemmEngine(engine);
    for (int32_t dtype :
         {SUMMA_DT_F32, SUMMA_DT_F64, SUMMA_DT_F16, SUMMA_DT_BF16})
      for (const EpilogueCase &t : cases)
        checkEpilogue(dtype, t);
  }
  summa::gpu::setGemmEngine(summa::gpu::GemmEngine::CublasLt);
}

TEST(MatmulDeviceTest, EpilogueCountsAsOneMatmul) {
  SUMMA_REQUIRE_DEVICE();
  DeviceArray a(6 * 4, SUMMA_DT_F32), b(4 * 5, SUMMA_DT_F32),
      bias(5, SUMMA_DT_F32), d(6 * 5, SUMMA_DT_F32);
  summa::gpu::flushProfile();
  summa::rt::ProfileSnapshot before = summa::rt::profileSnapshot();
  summaRtMatmulEpilogue(SUMMA_DT_F32, a.at(), 0, 4, b.at(), 0, 5, d.at(), 0, 5,
                        bias.at(), 0, d.at(), 0, 5, 6, 5, 4, 0, 0, 1);
  summaRtSynchronize();
  summa::gpu::flushProfile();
  summa::rt::ProfileSnapshot after = summa::rt::profileSnapshot();
  EXPECT_EQ(after.matmul.count, before.matmul.count + 1);
  EXPECT_EQ(after.matmul.flops, before.matmul.flops + 2 * 6 * 5 * 4);
}
