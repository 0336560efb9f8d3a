//===- Matmul.cpp - summaRtMatmul with cuBLASLt and cuBLAS ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Row-major C (+)= op(A) op(B) as one column-major GEMM with the operands
// swapped (GemmMapping.h), on the compute stream, without moving data for
// any of the SUMMA forms A B, A B^T and A^T B.
//
// summaRtMatmulEpilogue, D = act(op(A) op(B) + R + bias), is the same GEMM
// with cuBLASLt's epilogue: R is its C (beta = 1, a layout of its own), the
// row-major bias[j] is cuBLASLt's bias over the rows of the column-major
// D^T, and GeLU (the tanh form) its GELU epilogue. Without a cuBLASLt
// algorithm, with SUMMA_GEMM=cublas and for k = 0, R is copied into D,
// cublasGemmEx adds the product and a kernel of Epilogue.cu adds the bias
// and applies GeLU.
//
// Types: f32 (TF32 tensor cores only with SUMMA_ALLOW_TF32=1), f16 and bf16
// with f32 accumulation and f32 alpha/beta, f64. cuBLASLt is the default: a
// plan (descriptors and the heuristic's first algorithm) is cached per
// shape, leading dimensions, pointer alignment and type, so a SUMMA loop
// pays for the heuristic once; where cuBLASLt offers no algorithm, and with
// SUMMA_GEMM=cublas, cublasGemmEx computes it.
//
//===----------------------------------------------------------------------===//

#include "DeviceEpilogue.h"
#include "Error.h"
#include "GemmMapping.h"
#include "GpuCheck.h"
#include "GpuContext.h"
#include "MatmulBatch.h"
#include "Profile.h"
#include "Validate.h"

#include "summa/Runtime/SummaRuntime.h"

#include <climits>
#include <map>
#include <tuple>
#include <utility>

using namespace summa::gpu;

namespace {

cudaDataType_t cudaType(int32_t dtype) {
  switch (dtype) {
  case SUMMA_DT_F64:
    return CUDA_R_64F;
  case SUMMA_DT_F16:
    return CUDA_R_16F;
  case SUMMA_DT_BF16:
    return CUDA_R_16BF;
  default:
    return CUDA_R_32F;
  }
}

cublasComputeType_t computeType(int32_t dtype, bool allowTf32) {
  if (dtype == SUMMA_DT_F64)
    return CUBLAS_COMPUTE_64F;
  if (dtype == SUMMA_DT_F32 && allowTf32)
    return CUBLAS_COMPUTE_32F_FAST_TF32;
  // f32 without TF32, and f16 / bf16 inputs with f32 accumulation.
  return CUBLAS_COMPUTE_32F;
}

/// The largest power of two (at most 16) that divides the address.
uint32_t alignmentOf(const void *pointer) {
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  uint32_t alignment = 16;
  while (alignment > 1 && address % alignment != 0)
    alignment /= 2;
  return alignment;
}

struct PlanKey {
  int32_t dtype;
  bool tf32;
  bool transFirst, transSecond;
  int64_t m, n, k, ldFirst, ldSecond, ldc, ldd;
  uint32_t alignFirst, alignSecond, alignC, alignD;
  /// A cublasLtEpilogue_t.
  uint32_t epilogue;

  bool operator<(const PlanKey &other) const {
    auto tie = [](const PlanKey &key) {
      return std::make_tuple(
          key.dtype, key.tf32, key.transFirst, key.transSecond, key.m, key.n,
          key.k, key.ldFirst, key.ldSecond, key.ldc, key.ldd, key.alignFirst,
          key.alignSecond, key.alignC, key.alignD, key.epilogue);
    };
    return tie(*this) < tie(other);
  }
};

struct Plan {
  bool usable = false;
  cublasLtMatmulDesc_t desc = nullptr;
  /// d is c itself when C and D share their leading dimension.
  cublasLtMatrixLayout_t first = nullptr, second = nullptr, c = nullptr,
                         d = nullptr;
  cublasLtMatmulAlgo_t algo;
  size_t workspaceBytes = 0;
};

std::map<PlanKey, Plan> plans;

bool hasBias(uint32_t epilogue) {
  return epilogue == CUBLASLT_EPILOGUE_BIAS ||
         epilogue == CUBLASLT_EPILOGUE_GELU_BIAS;
}

/// `bias` is the bias vector of the call that makes the plan (null without
/// a bias epilogue): the heuristic reads its alignment from the pointer.
Plan makePlan(const Context &ctx, const PlanKey &key, const ColumnMajorGemm &g,
              const void *bias) {
  Plan plan;
  cudaDataType_t dataType = cudaType(key.dtype);
  cudaDataType_t scaleType =
      key.dtype == SUMMA_DT_F64 ? CUDA_R_64F : CUDA_R_32F;
  SUMMA_CUBLAS_CHECK(cublasLtMatmulDescCreate(
      &plan.desc, computeType(key.dtype, key.tf32), scaleType));
  cublasOperation_t opFirst = g.transFirst ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opSecond = g.transSecond ? CUBLAS_OP_T : CUBLAS_OP_N;
  SUMMA_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(
      plan.desc, CUBLASLT_MATMUL_DESC_TRANSA, &opFirst, sizeof(opFirst)));
  SUMMA_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(
      plan.desc, CUBLASLT_MATMUL_DESC_TRANSB, &opSecond, sizeof(opSecond)));
  if (key.epilogue != CUBLASLT_EPILOGUE_DEFAULT) {
    // The bias, when there is one, has D's element type (the default of
    // CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE) and D's row count, n.
    SUMMA_CUBLAS_CHECK(
        cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                       &key.epilogue, sizeof(key.epilogue)));
    if (hasBias(key.epilogue))
      SUMMA_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(
          plan.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)));
  }
  SUMMA_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(
      &plan.first, dataType, g.firstRows, g.firstCols, g.ldFirst));
  SUMMA_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(
      &plan.second, dataType, g.secondRows, g.secondCols, g.ldSecond));
  SUMMA_CUBLAS_CHECK(
      cublasLtMatrixLayoutCreate(&plan.c, dataType, g.cRows, g.cCols, key.ldc));
  if (key.ldd == key.ldc)
    plan.d = plan.c;
  else
    SUMMA_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&plan.d, dataType, g.cRows,
                                                  g.cCols, key.ldd));

  cublasLtMatmulPreference_t preference = nullptr;
  SUMMA_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&preference));
  uint64_t workspace = ctx.gemmWorkspaceBytes;
  SUMMA_CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(
      preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
      sizeof(workspace)));
  // The pointers of later calls with this key have the same alignment.
  const std::pair<cublasLtMatmulPreferenceAttributes_t, const uint32_t *>
      alignments[] = {
          {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, &key.alignFirst},
          {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, &key.alignSecond},
          {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, &key.alignC},
          {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, &key.alignD}};
  for (auto [attribute, bytes] : alignments)
    SUMMA_CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(
        preference, attribute, bytes, sizeof(*bytes)));

  cublasLtMatmulHeuristicResult_t result = {};
  int found = 0;
  cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(
      ctx.lt, plan.desc, plan.first, plan.second, plan.c, plan.d, preference, 1,
      &result, &found);
  SUMMA_CUBLAS_CHECK(cublasLtMatmulPreferenceDestroy(preference));
  // No algorithm (CUBLAS_STATUS_NOT_SUPPORTED, none found, or a shape or
  // epilogue cuBLASLt refuses) is not an error: cublasGemmEx takes every
  // valid shape, and reports a real error itself.
  if (status == CUBLAS_STATUS_SUCCESS && found > 0) {
    plan.usable = true;
    plan.algo = result.algo;
    plan.workspaceBytes = result.workspaceSize;
  }
  return plan;
}

void destroyPlan(Plan &plan) {
  if (plan.d && plan.d != plan.c)
    SUMMA_CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(plan.d));
  if (plan.c)
    SUMMA_CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(plan.c));
  if (plan.second)
    SUMMA_CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(plan.second));
  if (plan.first)
    SUMMA_CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(plan.first));
  if (plan.desc)
    SUMMA_CUBLAS_CHECK(cublasLtMatmulDescDestroy(plan.desc));
  plan = Plan();
}

/// The operands of one cuBLASLt call: D = epilogue(alpha op(first)
/// op(second) + beta C (+ bias)), D with the leading dimension of the
/// mapped GEMM (ColumnMajorGemm::ldc), C with ldc. Without an epilogue and
/// with c == d this is summaRtMatmul's GEMM.
struct LtOperands {
  const void *first = nullptr, *second = nullptr;
  const void *c = nullptr;
  int64_t ldc = 0;
  void *d = nullptr;
  /// n elements; read with CUBLASLT_EPILOGUE_BIAS and GELU_BIAS only.
  const void *bias = nullptr;
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
};

/// Runs the GEMM with cuBLASLt; false if cuBLASLt has no algorithm for it.
bool runLt(Context &ctx, int32_t dtype, const ColumnMajorGemm &g,
           const LtOperands &ops, const void *alpha, const void *beta) {
  PlanKey key{dtype,
              ctx.allowTf32 && dtype == SUMMA_DT_F32,
              g.transFirst,
              g.transSecond,
              g.m,
              g.n,
              g.k,
              g.ldFirst,
              g.ldSecond,
              ops.ldc,
              g.ldc,
              alignmentOf(ops.first),
              alignmentOf(ops.second),
              alignmentOf(ops.c),
              alignmentOf(ops.d),
              static_cast<uint32_t>(ops.epilogue)};
  auto found = plans.find(key);
  if (found == plans.end())
    found = plans.emplace(key, makePlan(ctx, key, g, ops.bias)).first;
  const Plan &plan = found->second;
  if (!plan.usable)
    return false;
  // The descriptor is read when the call is queued, so the next call may
  // set another bias pointer.
  if (hasBias(key.epilogue))
    SUMMA_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(
        plan.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &ops.bias,
        sizeof(ops.bias)));
  SUMMA_CUBLAS_CHECK(cublasLtMatmul(
      ctx.lt, plan.desc, alpha, ops.first, plan.first, ops.second, plan.second,
      beta, ops.c, plan.c, ops.d, plan.d, &plan.algo, ctx.gemmWorkspace,
      ctx.gemmWorkspaceBytes, ctx.compute));
  return true;
}

/// cuBLAS's scalars alpha = 1 and beta = accumulate: f64 for f64 GEMMs,
/// f32 otherwise (f16 and bf16 accumulate in f32).
class GemmScalars {
public:
  GemmScalars(int32_t dtype, bool accumulate)
      : f64(dtype == SUMMA_DT_F64), beta64(accumulate ? 1.0 : 0.0),
        beta32(accumulate ? 1.0f : 0.0f) {}
  const void *alpha() const {
    return f64 ? static_cast<const void *>(&alpha64) : &alpha32;
  }
  const void *beta() const {
    return f64 ? static_cast<const void *>(&beta64) : &beta32;
  }

private:
  bool f64;
  double alpha64 = 1.0, beta64;
  float alpha32 = 1.0f, beta32;
};

void runGemmEx(Context &ctx, int32_t dtype, const ColumnMajorGemm &g,
               const void *first, const void *second, void *c,
               const void *alpha, const void *beta) {
  cudaDataType_t dataType = cudaType(dtype);
  SUMMA_CUBLAS_CHECK(cublasGemmEx(
      ctx.cublas, g.transFirst ? CUBLAS_OP_T : CUBLAS_OP_N,
      g.transSecond ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(g.m),
      static_cast<int>(g.n), static_cast<int>(g.k), alpha, first, dataType,
      static_cast<int>(g.ldFirst), second, dataType,
      static_cast<int>(g.ldSecond), beta, c, dataType, static_cast<int>(g.ldc),
      computeType(dtype, ctx.allowTf32 && dtype == SUMMA_DT_F32),
      CUBLAS_GEMM_DEFAULT));
}
} // namespace

void summa::gpu::releaseGemmPlans() {
  for (auto &entry : plans)
    destroyPlan(entry.second);
  plans.clear();
}

namespace {
/// D = act(op(A) op(B) + R + bias) on checked operands of either entry
/// point (summaRtMatmul is the call without bias or activation, R = C when
/// it accumulates), on the compute stream.
void gemmWithEpilogue(Context &ctx, int32_t dtype, int64_t size, intptr_t aBase,
                      int64_t aOffset, int64_t lda, intptr_t bBase,
                      int64_t bOffset, int64_t ldb, const char *r, int64_t ldr,
                      const char *bias, char *d, int64_t ldd, int64_t m,
                      int64_t n, int64_t k, int32_t transA, int32_t transB,
                      bool gelu) {
  if (m == 0 || n == 0)
    return; // Nothing to compute.
  ColumnMajorGemm g = mapRowMajorGemm(m, n, k, transA, transB, lda, ldb, ldd);
  // The first cuBLAS operand is the row-major B.
  const char *first = reinterpret_cast<const char *>(bBase) + bOffset * size;
  const char *second = reinterpret_cast<const char *>(aBase) + aOffset * size;
  GemmScalars scalars(dtype, /*accumulate=*/r != nullptr);
  bool done = false;
  // cuBLASLt: C = R (R may be D itself; the leading dimensions then agree
  // wherever D has more than one row), or C = D with beta = 0. Its bias
  // epilogue only with a 16-byte aligned bias: the heuristic judges the
  // alignment from the pointer the plan was made with, and later calls
  // must not be less aligned.
  if (ctx.engine == GemmEngine::CublasLt && k > 0 &&
      (!bias || alignmentOf(bias) == 16)) {
    LtOperands ops;
    ops.first = first;
    ops.second = second;
    ops.c = r ? r : d;
    ops.ldc = r && r != d ? ldr : ldd;
    ops.d = d;
    ops.bias = bias;
    ops.epilogue =
        bias ? (gelu ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_BIAS)
             : (gelu ? CUBLASLT_EPILOGUE_GELU : CUBLASLT_EPILOGUE_DEFAULT);
    done = runLt(ctx, dtype, g, ops, scalars.alpha(), scalars.beta());
  }
  if (done)
    return;
  // D = R, D += op(A) op(B) (or D = op(A) op(B)), then bias and GeLU.
  if (r && r != d)
    SUMMA_CUDA_CHECK(cudaMemcpy2DAsync(d, ldd * size, r, ldr * size, n * size,
                                       m, cudaMemcpyDeviceToDevice,
                                       ctx.compute));
  if (k > 0)
    runGemmEx(ctx, dtype, g, first, second, d, scalars.alpha(), scalars.beta());
  else if (!r)
    // The empty sum.
    SUMMA_CUDA_CHECK(
        cudaMemset2DAsync(d, ldd * size, 0, n * size, m, ctx.compute));
  if (bias || gelu)
    applyEpilogueOnDevice(d, ldd, bias, m, n, dtype, gelu, ctx.compute);
}

/// The context of the GEMM entry point `caller`, once its element type
/// `dtype` is valid; `type` receives the type's size and name.
Context &gemmContext(const char *caller, int32_t dtype, GpuDType &type) {
  Context &ctx = context(caller);
  requireValid(checkDType(caller, dtype, &type));
  return ctx;
}
} // namespace

void summaRtMatmul(int32_t dtype, intptr_t aBase, int64_t aOffset, int64_t lda,
                   intptr_t bBase, int64_t bOffset, int64_t ldb, intptr_t cBase,
                   int64_t cOffset, int64_t ldc, int64_t m, int64_t n,
                   int64_t k, int32_t transA, int32_t transB,
                   int32_t accumulate) {
  const char *caller = "summaRtMatmul";
  GpuDType type;
  Context &ctx = gemmContext(caller, dtype, type);
  requireValid(checkMatmul("cuBLAS", type.size, aBase, aOffset, lda, bBase,
                           bOffset, ldb, cBase, cOffset, ldc, m, n, k, transA,
                           transB, accumulate));

  ProfileSpan span(ctx.compute);
  int64_t size = static_cast<int64_t>(type.size);
  char *c = reinterpret_cast<char *>(cBase) + cOffset * size;
  gemmWithEpilogue(ctx, dtype, size, aBase, aOffset, lda, bBase, bOffset, ldb,
                   accumulate ? c : nullptr, ldc, /*bias=*/nullptr, c, ldc, m,
                   n, k, transA, transB, /*gelu=*/false);
  span.endMatmul(2 * m * n * k);
}

void summaRtMatmulEpilogue(int32_t dtype, intptr_t aBase, int64_t aOffset,
                           int64_t lda, intptr_t bBase, int64_t bOffset,
                           int64_t ldb, intptr_t rBase, int64_t rOffset,
                           int64_t ldr, intptr_t biasBase, int64_t biasOffset,
                           intptr_t dBase, int64_t dOffset, int64_t ldd,
                           int64_t m, int64_t n, int64_t k, int32_t transA,
                           int32_t transB, int32_t activation) {
  const char *caller = "summaRtMatmulEpilogue";
  GpuDType type;
  Context &ctx = gemmContext(caller, dtype, type);
  requireValid(checkMatmulEpilogue("cuBLAS", type.size, aBase, aOffset, lda,
                                   bBase, bOffset, ldb, rBase, rOffset, ldr,
                                   biasBase, biasOffset, dBase, dOffset, ldd, m,
                                   n, k, transA, transB, activation));

  ProfileSpan span(ctx.compute);
  auto [r, bias, d] = summa::rt::epilogueBuffers(
      type.size, rBase, rOffset, biasBase, biasOffset, dBase, dOffset);
  gemmWithEpilogue(ctx, dtype, static_cast<int64_t>(type.size), aBase, aOffset,
                   lda, bBase, bOffset, ldb, r, ldr, bias, d, ldd, m, n, k,
                   transA, transB, /*gelu=*/activation == 1);
  span.endMatmul(2 * m * n * k);
}

void summaRtMatmulBatched(int32_t dtype, intptr_t aBase, int64_t aOffset,
                          int64_t lda, int64_t strideA, intptr_t bBase,
                          int64_t bOffset, int64_t ldb, int64_t strideB,
                          intptr_t cBase, int64_t cOffset, int64_t ldc,
                          int64_t strideC, int64_t m, int64_t n, int64_t k,
                          int64_t batch, int32_t transA, int32_t transB,
                          int32_t accumulate) {
  const char *caller = "summaRtMatmulBatched";
  GpuDType type;
  Context &ctx = gemmContext(caller, dtype, type);
  summa::rt::MatmulOffsets last = summa::rt::lastBatchMember(
      caller, batch, {aOffset, bOffset, cOffset}, {strideA, strideB, strideC});
  if (batch == 0)
    return;
  // Counted among the local GEMMs (Profile.h).
  summa::rt::LocalMatmulScope local;
  // The first and the last member bound every other one.
  requireValid(checkMatmul("cuBLAS", type.size, aBase, aOffset, lda, bBase,
                           bOffset, ldb, cBase, cOffset, ldc, m, n, k, transA,
                           transB, accumulate));
  requireValid(checkMatmul("cuBLAS", type.size, aBase, last.a, lda, bBase,
                           last.b, ldb, cBase, last.c, ldc, m, n, k, transA,
                           transB, accumulate));
  if (batch > INT_MAX || m == 0 || n == 0 || k == 0) {
    // Empty products (C cleared or left, as summaRtMatmul does) and batches
    // beyond cuBLAS's int count: one GEMM at a time.
    for (int64_t i = 0; i < batch; ++i)
      summaRtMatmul(dtype, aBase, aOffset + i * strideA, lda, bBase,
                    bOffset + i * strideB, ldb, cBase, cOffset + i * strideC,
                    ldc, m, n, k, transA, transB, accumulate);
    return;
  }

  ProfileSpan span(ctx.compute);
  int64_t size = static_cast<int64_t>(type.size);
  const char *a = reinterpret_cast<const char *>(aBase) + aOffset * size;
  const char *b = reinterpret_cast<const char *>(bBase) + bOffset * size;
  char *c = reinterpret_cast<char *>(cBase) + cOffset * size;
  // As summaRtMatmul: one column-major GEMM per member with the operands
  // swapped (the first cuBLAS operand is the row-major B), no data moved.
  ColumnMajorGemm g = mapRowMajorGemm(m, n, k, transA, transB, lda, ldb, ldc);
  GemmScalars scalars(dtype, accumulate);
  cudaDataType_t dataType = cudaType(dtype);
  SUMMA_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
      ctx.cublas, g.transFirst ? CUBLAS_OP_T : CUBLAS_OP_N,
      g.transSecond ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(g.m),
      static_cast<int>(g.n), static_cast<int>(g.k), scalars.alpha(), b,
      dataType, static_cast<int>(g.ldFirst), strideB, a, dataType,
      static_cast<int>(g.ldSecond), strideA, scalars.beta(), c, dataType,
      static_cast<int>(g.ldc), strideC, static_cast<int>(batch),
      computeType(dtype, ctx.allowTf32 && dtype == SUMMA_DT_F32),
      CUBLAS_GEMM_DEFAULT));
  // The profile counts one GEMM per member, as the CPU backend does; the
  // call's time goes to the last.
  for (int64_t i = 0; i + 1 < batch; ++i)
    summa::rt::recordMatmul(2 * m * n * k, 0.0);
  span.endMatmul(2 * m * n * k);
}
