//===- ElementType.h - the ABI's element types: names and sizes -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// What every part of the runtime knows of a SummaDType value, whatever the
// backend computes in: its name and its size in host or device memory.
// Header-only and free of MPI and CUDA, so that the host-only GPU logic and
// the tests use it too. Which types a backend computes in is its own check
// (DType.h on the CPU, gpu/Validate.h on the GPU).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_COMMON_ELEMENTTYPE_H
#define SUMMA_RUNTIME_COMMON_ELEMENTTYPE_H

#include "summa/Runtime/SummaRuntime.h"

#include <cstddef>
#include <cstdint>

namespace summa::rt {

/// The name of an element type ("f32", "bf16", ...) or nullptr if `dtype` is
/// not a SummaDType value.
inline const char *dtypeName(int32_t dtype) {
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

/// The size in bytes of one element of `dtype`, or 0 if `dtype` is not a
/// SummaDType value.
inline size_t dtypeSize(int32_t dtype) {
  switch (dtype) {
  case SUMMA_DT_F64:
  case SUMMA_DT_I64:
    return 8;
  case SUMMA_DT_F32:
  case SUMMA_DT_I32:
    return 4;
  case SUMMA_DT_F16:
  case SUMMA_DT_BF16:
    return 2;
  default:
    return 0;
  }
}

} // namespace summa::rt

#endif // SUMMA_RUNTIME_COMMON_ELEMENTTYPE_H
