//===- DType.cpp - element types of the CPU backend -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "DType.h"
#include "Error.h"

using namespace summa::rt;

const char *summa::rt::dtypeName(int32_t dtype) {
  switch (dtype) {
  case SUMMA_DT_F32:
    return "f32";
  case SUMMA_DT_F64:
    return "f64";
  case SUMMA_DT_F16:
    return "f16";
  case SUMMA_DT_BF16:
    return "bf16";
  case SUMMA_DT_I64:
    return "i64";
  case SUMMA_DT_I32:
    return "i32";
  default:
    return nullptr;
  }
}

DTypeInfo summa::rt::checkDType(int32_t dtype, const char *caller) {
  switch (dtype) {
  case SUMMA_DT_F32:
    return {MPI_FLOAT, sizeof(float), "f32"};
  case SUMMA_DT_F64:
    return {MPI_DOUBLE, sizeof(double), "f64"};
  case SUMMA_DT_F16:
  case SUMMA_DT_BF16:
  case SUMMA_DT_I64:
  case SUMMA_DT_I32:
    fatal("%s: element type %s is not supported by the CPU backend", caller,
          dtypeName(dtype));
  default:
    fatal("%s: invalid element type %d (expected a SummaDType value)", caller,
          dtype);
  }
}

DTypeInfo summa::rt::checkDataDType(int32_t dtype, const char *caller) {
  switch (dtype) {
  case SUMMA_DT_I64:
    return {MPI_INT64_T, sizeof(int64_t), "i64"};
  case SUMMA_DT_I32:
    return {MPI_INT32_T, sizeof(int32_t), "i32"};
  default:
    return checkDType(dtype, caller);
  }
}
