//===- DType.cpp - element types of the CPU backend -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "DType.h"
#include "Error.h"
#include "HostBlocks.h"

using namespace summa::rt;

namespace {
/// The CPU backend computes in f32 and f64 and, with `allowInt`, also moves
/// i64 and i32; anything else is fatal.
DTypeInfo check(int32_t dtype, const char *caller, bool allowInt) {
  bool computed = dtype == SUMMA_DT_F32 || dtype == SUMMA_DT_F64;
  bool moved = dtype == SUMMA_DT_I64 || dtype == SUMMA_DT_I32;
  if (computed || (allowInt && moved))
    return {mpiElementType(dtype), dtypeSize(dtype), dtypeName(dtype)};
  if (!dtypeName(dtype))
    fatal("%s: invalid element type %d (expected a SummaDType value)", caller,
          dtype);
  fatal("%s: element type %s is not supported by the CPU backend", caller,
        dtypeName(dtype));
}
} // namespace

DTypeInfo summa::rt::checkDType(int32_t dtype, const char *caller) {
  return check(dtype, caller, /*allowInt=*/false);
}

DTypeInfo summa::rt::checkDataDType(int32_t dtype, const char *caller) {
  return check(dtype, caller, /*allowInt=*/true);
}
