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

#include "summa/Runtime/SummaRuntimeKernels.h"

#include <climits>
#include <cmath>

using namespace summa::gpu;

TEST(ValidateTest, DTypes) {
  GpuDType info{};
  EXPECT_EQ(checkDType("f", SUMMA_DT_F32, true, &info), "");
  EXPECT_EQ(info.size, 4u);
  EXPECT_STREQ(info.name, "f32");
  EXPECT_EQ(checkDType("f", SUMMA_DT_BF16, true, &info), "");
  EXPECT_EQ(info.size, 2u);
  EXPECT_EQ(checkDType("f", SUMMA_DT_F16, false, &info), "");
  EXPECT_EQ(checkDType("f", SUMMA_DT_F64, true, &info), "");
  EXPECT_EQ(info.size, 8u);
  EXPECT_EQ(checkDType("summaRtAllReduce", 9, true, nullptr),
            "summaRtAllReduce: invalid element type 9 (expected a SummaDType "
            "value)");
  EXPECT_EQ(checkDType("summaRtKernelScale", SUMMA_DT_F64, false, nullptr),
            "summaRtKernelScale: element type f64 is not supported by the GPU "
            "kernels (f32, f16 and bf16 are)");
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
  // Valid forms: A B, A B^T, A^T B, with padding.
  EXPECT_EQ(checkMatmul(64, 0, 4, 64, 0, 5, 64, 0, 5, 3, 5, 4, 0, 0, 0), "");
  EXPECT_EQ(checkMatmul(64, 0, 4, 64, 0, 4, 64, 0, 8, 3, 5, 4, 0, 1, 1), "");
  EXPECT_EQ(checkMatmul(64, 0, 3, 64, 0, 5, 64, 0, 5, 3, 5, 4, 1, 0, 0), "");
  // Empty products need no A or B.
  EXPECT_EQ(checkMatmul(0, 0, 1, 0, 0, 5, 64, 0, 5, 3, 5, 0, 0, 0, 0), "");
  EXPECT_EQ(checkMatmul(64, 0, 2, 64, 0, 5, 64, 0, 5, 3, 5, 3, 0, 0, 0),
            "summaRtMatmul: leading dimension 2 of A is smaller than its 3 "
            "columns");
  EXPECT_EQ(checkMatmul(64, 0, 4, 64, 0, 5, 64, 0, 5, -3, 5, 4, 0, 0, 0),
            "summaRtMatmul: negative size m = -3, n = 5, k = 4");
  EXPECT_EQ(checkMatmul(64, 0, 4, 64, 0, 5, 64, 0, 5, 3, 5, 4, 2, 0, 0),
            "summaRtMatmul: transA = 2 and transB = 0 must be 0 or 1");
  EXPECT_EQ(checkMatmul(64, 0, 4, 64, 0, 5, 64, 0, 5, 3, 5, 4, 0, 0, 3),
            "summaRtMatmul: accumulate = 3 must be 0 or 1");
  EXPECT_EQ(checkMatmul(64, 0, 4, 0, 0, 5, 64, 0, 5, 3, 5, 4, 0, 0, 0),
            "summaRtMatmul: B is a null pointer but has 4 x 5 elements");
  EXPECT_EQ(checkMatmul(64, 0, 4, 64, -1, 5, 64, 0, 5, 3, 5, 4, 0, 0, 0),
            "summaRtMatmul: negative offset -1 for B");
  EXPECT_EQ(checkMatmul(64, 0, 4, 64, 0, 5, 64, 0, int64_t(INT_MAX) + 1, 3, 5,
                        4, 0, 0, 0),
            "summaRtMatmul: leading dimension 2147483648 of C exceeds the "
            "cuBLAS limit 2147483647");
  EXPECT_EQ(checkMatmul(64, 0, 4, 64, 0, 5, 64, 0, 5, int64_t(INT_MAX) + 1, 5,
                        4, 0, 0, 0),
            "summaRtMatmul: size m = 2147483648, n = 5, k = 4 exceeds the "
            "cuBLAS limit 2147483647");
}

TEST(ValidateTest, Kernels) {
  EXPECT_EQ(checkKernelPointer("f", "x", 64, 3), "");
  EXPECT_EQ(checkKernelPointer("f", "x", 0, 0), "");
  EXPECT_EQ(checkKernelPointer("summaRtKernelScale", "x", 0, 3),
            "summaRtKernelScale: x is a null pointer but has 3 elements");
  EXPECT_EQ(checkKernelShape("f", 0, 7), "");
  EXPECT_EQ(checkKernelShape("summaRtKernelSoftmax", -1, 7),
            "summaRtKernelSoftmax: negative shape [-1, 7]");
  EXPECT_EQ(checkKernelShape("summaRtKernelSoftmax", INT64_MAX / 2, 3),
            "summaRtKernelSoftmax: shape [4611686018427387903, 3] overflows");
  EXPECT_EQ(checkActivation("f", SUMMA_ACT_GELU_TANH, true), "");
  EXPECT_EQ(checkActivation("f", SUMMA_ACT_NONE, false), "");
  EXPECT_EQ(
      checkActivation("summaRtKernelActivationBackward", SUMMA_ACT_NONE, true),
      "summaRtKernelActivationBackward: activation 0 (none) has no "
      "backward kernel");
  EXPECT_EQ(checkActivation("summaRtKernelBiasActivation", 5, false),
            "summaRtKernelBiasActivation: invalid activation 5 (expected "
            "0 = none, 1 = gelu_tanh, 2 = relu)");
  EXPECT_EQ(checkScalar("f", "scale", -0.5, false), "");
  EXPECT_EQ(checkScalar("summaRtKernelLayerNorm", "eps", -1e-5, true),
            "summaRtKernelLayerNorm: eps = -1e-05 is negative");
  EXPECT_EQ(checkScalar("summaRtKernelSoftmax", "scale", NAN, false),
            "summaRtKernelSoftmax: scale is not finite");
}

TEST(ValidateTest, FormatString) {
  EXPECT_EQ(formatString("%s=%d", "x", 3), "x=3");
  std::string long_(1000, 'a');
  EXPECT_EQ(formatString("%s", long_.c_str()), long_);
}
