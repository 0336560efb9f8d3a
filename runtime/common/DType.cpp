//===- DType.cpp - element types of the CPU backend -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "DType.h"
#include "Error.h"

using namespace summa::rt;

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
