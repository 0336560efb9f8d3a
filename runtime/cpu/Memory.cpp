//===- Memory.cpp - host code's reads of buffers, CPU backend ----*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summaRtLoadScalar of the CPU backend: buffers are host memory, read in
// place.
//
//===----------------------------------------------------------------------===//

#include "Error.h"

#include "summa/Runtime/SummaRuntime.h"

#include <cstring>

int64_t summaRtLoadScalar(intptr_t base, int64_t offset, int32_t dtype) {
  const char *at = reinterpret_cast<const char *>(base);
  if (dtype == SUMMA_DT_I64) {
    int64_t value;
    std::memcpy(&value, at + offset * 8, 8);
    return value;
  }
  if (dtype == SUMMA_DT_I32) {
    int32_t value;
    std::memcpy(&value, at + offset * 4, 4);
    return value;
  }
  summa::rt::fatal("summaRtLoadScalar: element type %d is not i64 or i32",
                   dtype);
}
