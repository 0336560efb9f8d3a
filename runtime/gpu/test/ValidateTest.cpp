//===- ValidateTest.cpp - argument checks and their messages ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The messages are the CPU backend's (runtime/test/CMakeLists.txt checks
// them there), so programs fail the same way on either backend.
//
//===----------------------------------------------------------------------===//

#include "Validate.h"
#include "HostTestUtil.h"

#include <array>
#include <climits>

using namespace summa::gpu;

TEST(ValidateTest, DTypes) {
  GpuDType info{};
  EXPECT_EQ(checkDType("f", SUMMA_DT_F32, &info), "");
  EXPECT_EQ(info.size, 4u);
  EXPECT_STREQ(info.name, "f32");
  EXPECT_EQ(checkDType("f", SUMMA_DT_BF16, &info), "");
  EXPECT_EQ(info.size, 2u);
  EXPECT_EQ(checkDType("f", SUMMA_DT_F16, &info), "");
  EXPECT_EQ(checkDType("f", SUMMA_DT_F64, &info), "");
  EXPECT_EQ(info.size, 8u);
  EXPECT_EQ(checkDType("summaRtAllReduce", 9, nullptr),
            "summaRtAllReduce: invalid element type 9 (expected a SummaDType "
            "value)");
  // Integers: data for the collectives and the driver, no GEMM.
  EXPECT_EQ(checkDType("f", SUMMA_DT_I32, &info, /*allowInt=*/true), "");
  EXPECT_EQ(info.size, 4u);
  EXPECT_EQ(checkDType("f", SUMMA_DT_I64, &info, /*allowInt=*/true), "");
  EXPECT_EQ(info.size, 8u);
  EXPECT_EQ(checkDType("summaRtMatmul", SUMMA_DT_I32, nullptr),
            "summaRtMatmul: element type i32 has no GPU GEMM (f32, f64, f16 "
            "and bf16 do)");
  EXPECT_EQ(summa::rt::dtypeName(SUMMA_DT_BF16), std::string("bf16"));
  EXPECT_EQ(summa::rt::dtypeName(7), nullptr);
}

TEST(ValidateTest, Buffers) {
  EXPECT_EQ(checkBuffer("f", "buffer", 64, 0, 4), "");
  EXPECT_EQ(checkBuffer("f", "buffer", 0, 0, 0), "");
  EXPECT_EQ(checkBuffer("summaRtBroadcast", "buffer", 64, 0, -1),
            "summaRtBroadcast: negative element count -1 for the buffer");
  EXPECT_EQ(checkBuffer("summaRtBroadcast", "buffer", 64, -2, 1),
            "summaRtBroadcast: negative offset -2 for the buffer");
  EXPECT_EQ(checkBuffer("summaRtAllGather", "source", 0, 0, 4),
            "summaRtAllGather: the source is a null pointer but has 4 "
            "elements");
}

TEST(ValidateTest, RootsReductionsBlocks) {
  EXPECT_EQ(checkRoot("f", 0, 1), "");
  EXPECT_EQ(checkRoot("f", 3, 4), "");
  EXPECT_EQ(checkRoot("summaRtReduce", 5, 2),
            "summaRtReduce: root 5 is outside the group of 2 ranks");
  EXPECT_NE(checkRoot("f", -1, 2), "");
  for (int32_t kind = SUMMA_RED_SUM; kind <= SUMMA_RED_PROD; ++kind)
    EXPECT_EQ(checkReduction("f", kind), "");
  EXPECT_EQ(checkReduction("summaRtAllReduce", 11),
            "summaRtAllReduce: invalid reduction kind 11 (expected 0 = sum, "
            "1 = max, 2 = min, 3 = prod)");
  int64_t block = -1;
  EXPECT_EQ(checkBlock("f", 3, 5, 4, &block), "");
  EXPECT_EQ(block, 15);
  EXPECT_EQ(checkBlock("f", 0, 5, 4, &block), "");
  EXPECT_EQ(block, 0);
  EXPECT_EQ(checkBlock("summaRtAllGather", -1, 5, 4, &block),
            "summaRtAllGather: negative shape [-1, 5]");
  EXPECT_EQ(checkBlock("summaRtAllGather", INT64_MAX / 2, 2, 2, &block),
            "summaRtAllGather: shape [4611686018427387903, 2] over 2 ranks "
            "overflows");
}

TEST(ValidateTest, Matmul) {
  // checkMatmul's arguments after the backend's name and the element size
  // (4 bytes): A's base, offset and leading dimension, B's, C's, m, n, k,
  // transA, transB, accumulate.
  struct Case {
    std::array<int64_t, 15> args;
    const char *message;
  };
  const Case cases[] = {
      // Valid forms: A B, A B^T, A^T B, with padding.
      {{4096, 0, 4, 8192, 0, 5, 12288, 0, 5, 3, 5, 4, 0, 0, 0}, ""},
      {{4096, 0, 4, 8192, 0, 4, 12288, 0, 8, 3, 5, 4, 0, 1, 1}, ""},
      {{4096, 0, 3, 8192, 0, 5, 12288, 0, 5, 3, 5, 4, 1, 0, 0}, ""},
      // Empty products need no A or B.
      {{0, 0, 1, 0, 0, 5, 12288, 0, 5, 3, 5, 0, 0, 0, 0}, ""},
      {{4096, 0, 2, 8192, 0, 5, 12288, 0, 5, 3, 5, 3, 0, 0, 0},
       "summaRtMatmul: leading dimension 2 of A is smaller than its 3 columns"},
      {{4096, 0, 4, 8192, 0, 5, 12288, 0, 5, -3, 5, 4, 0, 0, 0},
       "summaRtMatmul: negative size m = -3, n = 5, k = 4"},
      {{4096, 0, 4, 8192, 0, 5, 12288, 0, 5, 3, 5, 4, 2, 0, 0},
       "summaRtMatmul: transA = 2 and transB = 0 must be 0 or 1"},
      {{4096, 0, 4, 8192, 0, 5, 12288, 0, 5, 3, 5, 4, 0, 0, 3},
       "summaRtMatmul: accumulate = 3 must be 0 or 1"},
      {{4096, 0, 4, 0, 0, 5, 12288, 0, 5, 3, 5, 4, 0, 0, 0},
       "summaRtMatmul: B is a null pointer but has 4 x 5 elements"},
      // The arguments of summa-gpu-fatal-test's matmul-null case.
      {{0, 0, 3, 8192, 0, 4, 12288, 0, 4, 2, 4, 3, 0, 0, 0},
       "summaRtMatmul: A is a null pointer but has 2 x 3 elements"},
      {{4096, 0, 4, 8192, -1, 5, 12288, 0, 5, 3, 5, 4, 0, 0, 0},
       "summaRtMatmul: negative offset -1 for B"},
      {{4096, 0, 4, 8192, 0, 5, 12288, 0, int64_t(INT_MAX) + 1, 3, 5, 4, 0, 0,
        0},
       "summaRtMatmul: leading dimension 2147483648 of C exceeds the cuBLAS "
       "limit 2147483647"},
      {{4096, 0, 4, 8192, 0, 5, 12288, 0, 5, int64_t(INT_MAX) + 1, 5, 4, 0, 0,
        0},
       "summaRtMatmul: size m = 2147483648, n = 5, k = 4 exceeds the cuBLAS "
       "limit 2147483647"},
  };
  for (const Case &c : cases) {
    const std::array<int64_t, 15> &a = c.args;
    EXPECT_EQ(checkMatmul("cuBLAS", 4, a[0], a[1], a[2], a[3], a[4], a[5], a[6],
                          a[7], a[8], a[9], a[10], a[11], int32_t(a[12]),
                          int32_t(a[13]), int32_t(a[14])),
              c.message);
  }
}

TEST(ValidateTest, MatmulEpilogue) {
  // A [3, 4] at 64, B [4, 5] at 1024, R, bias and D [3, 5]; 4-byte
  // elements.
  struct Case {
    intptr_t r;
    int64_t rOffset, ldr;
    intptr_t bias;
    int64_t biasOffset;
    intptr_t d;
    int64_t ldd, k;
    int32_t activation;
    const char *message;
  };
  const Case cases[] = {
      {256, 0, 5, 512, 0, 128, 5, 4, 0, ""},
      {256, 0, 7, 512, 3, 128, 6, 4, 1, ""},
      // No R, no bias: their offsets and ldr are not looked at.
      {0, -1, 0, 0, -1, 128, 5, 4, 1, ""},
      // R is D: the same start and leading dimension.
      {128, 0, 6, 0, 0, 128, 6, 4, 0, ""},
      {256, 0, 5, 512, 0, 128, 5, 4, 2,
       "summaRtMatmulEpilogue: activation = 2 must be 0 (none) or 1 (GeLU)"},
      {256, 0, 4, 0, 0, 128, 5, 4, 0,
       "summaRtMatmulEpilogue: leading dimension 4 of R is smaller than its 5 "
       "columns"},
      {256, -2, 5, 0, 0, 128, 5, 4, 0,
       "summaRtMatmulEpilogue: negative offset -2 for R"},
      {0, 0, 5, 512, -1, 128, 5, 4, 0,
       "summaRtMatmulEpilogue: negative offset -1 for bias"},
      {0, 0, 5, 0, 0, 0, 5, 4, 0,
       "summaRtMatmulEpilogue: D is a null pointer but has 3 x 5 elements"},
      {0, 0, 5, 0, 0, 128, 4, 4, 0,
       "summaRtMatmulEpilogue: leading dimension 4 of D is smaller than its 5 "
       "columns"},
      // R starting at D's first element (as base 120 + 2 elements) with another
      // leading dimension.
      {120, 2, 7, 0, 0, 128, 6, 4, 0,
       "summaRtMatmulEpilogue: R starts at D's first element but its leading "
       "dimension 7 is not D's 6"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(checkMatmulEpilogue("cuBLAS", 4, 64, 0, c.k, 1024, 0, 5, c.r,
                                  c.rOffset, c.ldr, c.bias, c.biasOffset, c.d,
                                  0, c.ldd, 3, 5, c.k, 0, 0, c.activation),
              c.message);
  // summaRtMatmul's checks under the epilogue's name: A (base, leading
  // dimension), B's base, n, k, R, bias and the activation vary.
  auto checkProduct = [](intptr_t aBase, int64_t lda, intptr_t bBase, int64_t n,
                         int64_t k, intptr_t r, intptr_t bias,
                         int32_t activation) {
    return checkMatmulEpilogue("cuBLAS", 4, aBase, 0, lda, bBase, 0, 5, r, 0, 5,
                               bias, 0, 128, 0, 5, 3, n, k, 0, 0, activation);
  };
  EXPECT_EQ(checkProduct(64, 3, 1024, 5, 4, 0, 0, 0),
            "summaRtMatmulEpilogue: leading dimension 3 of A is smaller than "
            "its 4 columns");
  EXPECT_EQ(checkProduct(64, 4, 1024, -5, 4, 0, 0, 0),
            "summaRtMatmulEpilogue: negative size m = 3, n = -5, k = 4");
  EXPECT_EQ(checkProduct(0, 4, 1024, 5, 4, 0, 0, 0),
            "summaRtMatmulEpilogue: A is a null pointer but has 3 x 4 "
            "elements");
  // k = 0: D = act(R + bias), A and B need not exist.
  EXPECT_EQ(checkProduct(0, 1, 0, 5, 0, 256, 512, 1), "");
}

// A GEMM never writes memory it reads: cuBLAS and BLAS would read partly
// written operands. Overlap is decided element by element, so tiles side
// by side in one buffer (with a leading dimension of the whole) pass.
TEST(ValidateTest, MatmulOutputAliasing) {
  // [3, 5] = [3, 4] x [4, 5], 4-byte elements, C at 4096 unless moved.
  auto matmul = [](intptr_t a, int64_t aOffset, int64_t lda, intptr_t b,
                   int64_t ldb, intptr_t c, int64_t cOffset, int64_t ldc,
                   int64_t k = 4) {
    return checkMatmul("cuBLAS", 4, a, aOffset, lda, b, 0, ldb, c, cOffset, ldc,
                       3, 5, k, 0, 0, 1);
  };
  EXPECT_EQ(matmul(64, 0, 4, 1024, 5, 4096, 0, 5), "");
  EXPECT_EQ(matmul(4096, 0, 4, 1024, 5, 4096, 0, 5),
            "summaRtMatmul: C overlaps A in memory: the GEMM would read "
            "elements it writes (give C a buffer of its own)");
  EXPECT_EQ(matmul(64, 0, 4, 4096 - 8, 5, 4096, 0, 5),
            "summaRtMatmul: C overlaps B in memory: the GEMM would read "
            "elements it writes (give C a buffer of its own)");
  // One buffer of rows of 9: A in columns 0..3, C in columns 4..8 (no
  // shared element); C one column further left shares A's last column.
  EXPECT_EQ(matmul(4096, 0, 9, 1024, 5, 4096, 4, 9), "");
  EXPECT_EQ(matmul(4096, 0, 9, 1024, 5, 4096, 3, 9),
            "summaRtMatmul: C overlaps A in memory: the GEMM would read "
            "elements it writes (give C a buffer of its own)");
  // Interleaved rows: A's rows between C's (ld 10, A at offset 5 of each
  // row) pass; A starting one element earlier hits C's last column.
  EXPECT_EQ(matmul(4096, 5, 10, 1024, 5, 4096, 0, 10), "");
  EXPECT_EQ(matmul(4096, 4, 10, 1024, 5, 4096, 0, 10),
            "summaRtMatmul: C overlaps A in memory: the GEMM would read "
            "elements it writes (give C a buffer of its own)");
  // An empty product reads neither A nor B.
  EXPECT_EQ(matmul(0, 0, 1, 0, 5, 4096, 0, 5, 0), "");

  // The epilogue: D may be R itself, but shares no memory with A, B, the
  // bias or an R that is not D.
  auto epilogue = [](intptr_t a, intptr_t r, intptr_t bias, intptr_t d) {
    return checkMatmulEpilogue("cuBLAS", 4, a, 0, 4, 1024, 0, 5, r, 0, 5, bias,
                               0, d, 0, 5, 3, 5, 4, 0, 0, 0);
  };
  EXPECT_EQ(epilogue(64, 4096, 512, 4096), "");
  EXPECT_EQ(epilogue(4096, 0, 0, 4096),
            "summaRtMatmulEpilogue: D overlaps A in memory: the GEMM would "
            "read elements it writes (give D a buffer of its own)");
  EXPECT_EQ(epilogue(64, 0, 4096 + 20, 4096),
            "summaRtMatmulEpilogue: D overlaps bias in memory: the GEMM "
            "would read elements it writes (give D a buffer of its own)");
  EXPECT_EQ(epilogue(64, 4096 + 4, 0, 4096),
            "summaRtMatmulEpilogue: D overlaps R in memory: the GEMM would "
            "read elements it writes (give D a buffer of its own)");
}

// What the driver prints at start-up, and the refusal of an NCCL without
// ncclCommSplit (the loader may find another NCCL than the one built
// against).
TEST(ValidateTest, LibraryVersions) {
  EXPECT_EQ(ncclVersionString(22803), "2.28.3");
  EXPECT_EQ(ncclVersionString(2804), "2.8.4"); // before 2.9: X*1000+Y*100+Z
  EXPECT_EQ(cublasVersionString(130100), "13.1.0");
  EXPECT_EQ(cudaVersionString(13000), "13.0");
  EXPECT_EQ(cudaVersionString(12080), "12.8");
  EXPECT_EQ(checkNcclVersion("summaRtInit", 21800), "");
  EXPECT_EQ(checkNcclVersion("summaRtInit", 22803), "");
  EXPECT_EQ(checkNcclVersion("summaRtInit", 21703),
            "summaRtInit: NCCL 2.17.3 is loaded (libnccl.so.2), but the NCCL "
            "mode needs NCCL 2.18 or later for ncclCommSplit; put a newer "
            "libnccl.so.2 first on LD_LIBRARY_PATH (the nvidia-nccl wheel "
            "has one)");
}

TEST(ValidateTest, FormatString) {
  EXPECT_EQ(formatString("%s=%d", "x", 3), "x=3");
  std::string long_(1000, 'a');
  EXPECT_EQ(formatString("%s", long_.c_str()), long_);
}
