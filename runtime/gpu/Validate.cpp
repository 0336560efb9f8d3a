//===- Validate.cpp - argument checks of the GPU backend --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "Validate.h"
#include "ElementType.h"

#include "summa/Runtime/SummaRuntime.h"

#include <cstdint>

using namespace summa::gpu;

std::string summa::gpu::checkDType(const char *caller, int32_t dtype,
                                   GpuDType *info, bool allowInt) {
  size_t size = summa::rt::dtypeSize(dtype);
  if (size == 0)
    return formatString("%s: invalid element type %d (expected a SummaDType "
                        "value)",
                        caller, dtype);
  if ((dtype == SUMMA_DT_I64 || dtype == SUMMA_DT_I32) && !allowInt)
    return formatString("%s: element type %s has no GPU GEMM "
                        "(f32, f64, f16 and bf16 do)",
                        caller, summa::rt::dtypeName(dtype));
  if (info)
    *info = {dtype, size, summa::rt::dtypeName(dtype)};
  return "";
}

std::string summa::gpu::ncclVersionString(int code) {
  // NCCL_VERSION(X, Y, Z): X * 1000 + Y * 100 + Z before 2.9, X * 10000 +
  // Y * 100 + Z since.
  int major = code >= 10000 ? code / 10000 : code / 1000;
  int minor = code >= 10000 ? code / 100 % 100 : code / 100 % 10;
  return formatString("%d.%d.%d", major, minor, code % 100);
}

std::string summa::gpu::cublasVersionString(int code) {
  return formatString("%d.%d.%d", code / 10000, code / 100 % 100, code % 100);
}

std::string summa::gpu::cudaVersionString(int code) {
  return formatString("%d.%d", code / 1000, code % 1000 / 10);
}

std::string summa::gpu::checkNcclVersion(const char *caller, int code) {
  if (code >= kMinNcclVersion)
    return "";
  return formatString("%s: NCCL %s is loaded (libnccl.so.2), but the NCCL "
                      "mode needs NCCL 2.18 or later for ncclCommSplit; put "
                      "a newer libnccl.so.2 first on LD_LIBRARY_PATH (the "
                      "nvidia-nccl wheel has one)",
                      caller, ncclVersionString(code).c_str());
}

std::string summa::gpu::checkBuffer(const char *caller, const char *what,
                                    intptr_t base, int64_t offset,
                                    int64_t count) {
  if (count < 0)
    return formatString("%s: negative element count %lld for the %s", caller,
                        (long long)count, what);
  if (offset < 0)
    return formatString("%s: negative offset %lld for the %s", caller,
                        (long long)offset, what);
  if (count > 0 && base == 0)
    return formatString("%s: the %s is a null pointer but has %lld elements",
                        caller, what, (long long)count);
  return "";
}

std::string summa::gpu::checkRoot(const char *caller, int64_t root,
                                  int64_t groupSize) {
  if (root < 0 || root >= groupSize)
    return formatString("%s: root %lld is outside the group of %lld ranks",
                        caller, (long long)root, (long long)groupSize);
  return "";
}

std::string summa::gpu::checkReduction(const char *caller, int32_t kind) {
  if (kind < SUMMA_RED_SUM || kind > SUMMA_RED_PROD)
    return formatString("%s: invalid reduction kind %d (expected 0 = sum, "
                        "1 = max, 2 = min, 3 = prod)",
                        caller, kind);
  return "";
}

std::string summa::gpu::checkBlock(const char *caller, int64_t outer,
                                   int64_t inner, int64_t groupSize,
                                   int64_t *block) {
  if (outer < 0 || inner < 0)
    return formatString("%s: negative shape [%lld, %lld]", caller,
                        (long long)outer, (long long)inner);
  if (inner != 0 && outer > INT64_MAX / inner / groupSize)
    return formatString("%s: shape [%lld, %lld] over %lld ranks overflows",
                        caller, (long long)outer, (long long)inner,
                        (long long)groupSize);
  if (block)
    *block = outer * inner;
  return "";
}
