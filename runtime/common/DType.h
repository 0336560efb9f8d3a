//===- DType.h - element types of the CPU backend ---------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The CPU backend computes in f32 and f64 only. f16 and bf16 are valid ABI
// values but refused with a fatal error rather than computed wrongly.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_DTYPE_H
#define SUMMA_RUNTIME_COMMON_DTYPE_H

#include "ElementType.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace summa::rt {

struct DTypeInfo {
  MPI_Datatype mpiType;
  size_t size;
  const char *name;
};

/// Checks that the CPU backend supports `dtype` (f32 or f64) and returns its
/// MPI type and size; aborts with a message naming `caller` otherwise.
DTypeInfo checkDType(int32_t dtype, const char *caller);

/// Like checkDType, and also accepts the integer types (i64, i32): for data
/// that is only moved (collectives, the driver's inputs).
DTypeInfo checkDataDType(int32_t dtype, const char *caller);

} // namespace summa::rt

#endif // SUMMA_RUNTIME_COMMON_DTYPE_H
