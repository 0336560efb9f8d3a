//===- RuntimeDType.h - MLIR element types as the runtime's codes -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The one map from MLIR element types to the runtime's element type codes
// (SummaDType in summa/Runtime/SummaRuntime.h): the lowering's calls, the
// generated main's tensor tables and the tensor files the driver writes all
// use it.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_SUPPORT_RUNTIMEDTYPE_H
#define SUMMA_SUPPORT_RUNTIMEDTYPE_H

#include "summa/Runtime/SummaRuntime.h"

#include "mlir/IR/Types.h"

namespace mlir::summa {

/// The runtime's code for a floating-point element type (the types its
/// GEMMs compute in), or -1.
inline int32_t getFloatDTypeCode(Type t) {
  if (t.isF32())
    return SUMMA_DT_F32;
  if (t.isF64())
    return SUMMA_DT_F64;
  if (t.isF16())
    return SUMMA_DT_F16;
  if (t.isBF16())
    return SUMMA_DT_BF16;
  return -1;
}

/// The runtime's code for an element type its tensors hold (and its
/// collectives move): the floating-point ones and the signless integers
/// i64 and i32; or -1.
inline int32_t getDataDTypeCode(Type t) {
  if (t.isSignlessInteger(64))
    return SUMMA_DT_I64;
  if (t.isSignlessInteger(32))
    return SUMMA_DT_I32;
  return getFloatDTypeCode(t);
}

/// The C name of a code ("SUMMA_DT_F32"), or null for -1 and unknown ones.
inline const char *getDTypeCodeName(int32_t code) {
  switch (code) {
  case SUMMA_DT_F32:
    return "SUMMA_DT_F32";
  case SUMMA_DT_F64:
    return "SUMMA_DT_F64";
  case SUMMA_DT_F16:
    return "SUMMA_DT_F16";
  case SUMMA_DT_BF16:
    return "SUMMA_DT_BF16";
  case SUMMA_DT_I64:
    return "SUMMA_DT_I64";
  case SUMMA_DT_I32:
    return "SUMMA_DT_I32";
  default:
    return nullptr;
  }
}

} // namespace mlir::summa

#endif // SUMMA_SUPPORT_RUNTIMEDTYPE_H
