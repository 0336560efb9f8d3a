//===- GemmChecks.cpp - the GEMM functions' argument checks -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "GemmChecks.h"

#include <algorithm>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <initializer_list>

using namespace summa::rt;

std::string summa::rt::formatString(const char *format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  int length = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string text;
  if (length < 0) {
    text = format;
  } else {
    text.resize(static_cast<size_t>(length) + 1);
    std::vsnprintf(text.data(), text.size(), format, args);
    text.resize(static_cast<size_t>(length));
  }
  va_end(args);
  return text;
}

namespace {
std::string checkMatrix(const char *caller, const char *library,
                        const char *name, intptr_t base, int64_t offset,
                        int64_t rows, int64_t cols, int64_t ld, bool accessed) {
  if (offset < 0)
    return formatString("%s: negative offset %lld for %s", caller,
                        (long long)offset, name);
  if (ld < 1 || ld < cols)
    return formatString("%s: leading dimension %lld of %s is smaller than "
                        "its %lld columns",
                        caller, (long long)ld, name, (long long)cols);
  if (ld > INT_MAX)
    return formatString("%s: leading dimension %lld of %s exceeds the %s "
                        "limit %d",
                        caller, (long long)ld, name, library, INT_MAX);
  if (accessed && rows > 0 && cols > 0 && base == 0)
    return formatString("%s: %s is a null pointer but has %lld x %lld "
                        "elements",
                        caller, name, (long long)rows, (long long)cols);
  return "";
}

/// A row-major matrix in memory: `rows` rows of `cols` elements, `ld`
/// elements apart, from `base` + `offset` elements.
struct Matrix {
  const char *name;
  intptr_t base;
  int64_t offset, rows, cols, ld;
};

int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/// Whether `x` and `y` share an element (`size` bytes each): exact for any
/// leading dimensions, so tiles side by side in one buffer (columns of a
/// fused QKV) do not overlap, while a panel read from the buffer it is
/// written to does. Linear in the rows of one of them, and only where their
/// first and last bytes interleave.
bool overlap(const Matrix &x, const Matrix &y, int64_t size) {
  if (x.rows <= 0 || x.cols <= 0 || y.rows <= 0 || y.cols <= 0 || !x.base ||
      !y.base)
    return false;
  auto start = [&](const Matrix &a) {
    return static_cast<int64_t>(a.base) + a.offset * size;
  };
  auto end = [&](const Matrix &a) {
    return start(a) + ((a.rows - 1) * a.ld + a.cols) * size;
  };
  if (end(x) <= start(y) || end(y) <= start(x))
    return false;
  const Matrix &few = x.rows <= y.rows ? x : y;
  const Matrix &many = x.rows <= y.rows ? y : x;
  int64_t stride = many.ld * size, width = many.cols * size;
  for (int64_t row = 0; row < few.rows; ++row) {
    // Bytes [first, last] of this row, relative to `many`'s start: the rows
    // i of `many` with i*stride <= last and i*stride + width - 1 >= first.
    int64_t first = start(few) + row * few.ld * size - start(many);
    int64_t last = first + few.cols * size - 1;
    int64_t lo = std::max<int64_t>(0, -floorDiv(width - 1 - first, stride));
    int64_t hi = std::min(many.rows - 1, floorDiv(last, stride));
    if (lo <= hi)
      return true;
  }
  return false;
}

/// The diagnostic of an output that shares memory with an operand read
/// while it is written, or "".
std::string checkDisjoint(const char *caller, const Matrix &out,
                          std::initializer_list<Matrix> operands,
                          size_t elementSize) {
  for (const Matrix &operand : operands)
    if (overlap(out, operand, static_cast<int64_t>(elementSize)))
      return formatString("%s: %s overlaps %s in memory: the GEMM would "
                          "read elements it writes (give %s a buffer of "
                          "its own)",
                          caller, out.name, operand.name, out.name);
  return "";
}

/// What summaRtMatmul and summaRtMatmulEpilogue share: the sizes, the
/// transposition flags and the operands A and B (read only when the product
/// is not empty).
std::string checkProduct(const char *caller, const char *library,
                         intptr_t aBase, int64_t aOffset, int64_t lda,
                         intptr_t bBase, int64_t bOffset, int64_t ldb,
                         int64_t m, int64_t n, int64_t k, int32_t transA,
                         int32_t transB) {
  if (m < 0 || n < 0 || k < 0)
    return formatString("%s: negative size m = %lld, n = %lld, k = %lld",
                        caller, (long long)m, (long long)n, (long long)k);
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX)
    return formatString("%s: size m = %lld, n = %lld, k = %lld exceeds the "
                        "%s limit %d",
                        caller, (long long)m, (long long)n, (long long)k,
                        library, INT_MAX);
  if ((transA != 0 && transA != 1) || (transB != 0 && transB != 1))
    return formatString("%s: transA = %d and transB = %d must be 0 or 1",
                        caller, transA, transB);
  bool product = m > 0 && n > 0 && k > 0;
  std::string error = checkMatrix(caller, library, "A", aBase, aOffset,
                                  transA ? k : m, transA ? m : k, lda, product);
  if (error.empty())
    error = checkMatrix(caller, library, "B", bBase, bOffset, transB ? n : k,
                        transB ? k : n, ldb, product);
  return error;
}
} // namespace

std::string summa::rt::checkMatmul(const char *library, size_t elementSize,
                                   intptr_t aBase, int64_t aOffset, int64_t lda,
                                   intptr_t bBase, int64_t bOffset, int64_t ldb,
                                   intptr_t cBase, int64_t cOffset, int64_t ldc,
                                   int64_t m, int64_t n, int64_t k,
                                   int32_t transA, int32_t transB,
                                   int32_t accumulate) {
  const char *caller = "summaRtMatmul";
  std::string error = checkProduct(caller, library, aBase, aOffset, lda, bBase,
                                   bOffset, ldb, m, n, k, transA, transB);
  if (!error.empty())
    return error;
  if (accumulate != 0 && accumulate != 1)
    return formatString("%s: accumulate = %d must be 0 or 1", caller,
                        accumulate);
  // C is written unless it is empty itself.
  error = checkMatrix(caller, library, "C", cBase, cOffset, m, n, ldc, true);
  if (!error.empty() || k == 0)
    return error;
  return checkDisjoint(
      caller, {"C", cBase, cOffset, m, n, ldc},
      {{"A", aBase, aOffset, transA ? k : m, transA ? m : k, lda},
       {"B", bBase, bOffset, transB ? n : k, transB ? k : n, ldb}},
      elementSize);
}

std::string summa::rt::checkMatmulEpilogue(
    const char *library, size_t elementSize, intptr_t aBase, int64_t aOffset,
    int64_t lda, intptr_t bBase, int64_t bOffset, int64_t ldb, intptr_t rBase,
    int64_t rOffset, int64_t ldr, intptr_t biasBase, int64_t biasOffset,
    intptr_t dBase, int64_t dOffset, int64_t ldd, int64_t m, int64_t n,
    int64_t k, int32_t transA, int32_t transB, int32_t activation) {
  const char *caller = "summaRtMatmulEpilogue";
  std::string error = checkProduct(caller, library, aBase, aOffset, lda, bBase,
                                   bOffset, ldb, m, n, k, transA, transB);
  if (!error.empty())
    return error;
  if (activation != 0 && activation != 1)
    return formatString("%s: activation = %d must be 0 (none) or 1 (GeLU)",
                        caller, activation);
  // R and bias are optional (a null base), D is written unless empty.
  if (rBase != 0) {
    error = checkMatrix(caller, library, "R", rBase, rOffset, m, n, ldr, true);
    if (!error.empty())
      return error;
  }
  if (biasBase != 0 && biasOffset < 0)
    return formatString("%s: negative offset %lld for bias", caller,
                        (long long)biasOffset);
  error = checkMatrix(caller, library, "D", dBase, dOffset, m, n, ldd, true);
  if (!error.empty())
    return error;
  EpilogueBuffers at = epilogueBuffers(elementSize, rBase, rOffset, biasBase,
                                       biasOffset, dBase, dOffset);
  if (at.r == at.d && ldr != ldd && m > 1)
    return formatString("%s: R starts at D's first element but its leading "
                        "dimension %lld is not D's %lld",
                        caller, (long long)ldr, (long long)ldd);
  // D may be R itself (in place), nothing else it reads.
  Matrix out{"D", dBase, dOffset, m, n, ldd};
  if (k > 0) {
    error = checkDisjoint(
        caller, out,
        {{"A", aBase, aOffset, transA ? k : m, transA ? m : k, lda},
         {"B", bBase, bOffset, transB ? n : k, transB ? k : n, ldb}},
        elementSize);
    if (!error.empty())
      return error;
  }
  if (biasBase != 0) {
    error = checkDisjoint(
        caller, out, {{"bias", biasBase, biasOffset, 1, n, n}}, elementSize);
    if (!error.empty())
      return error;
  }
  if (rBase != 0 && at.r != at.d)
    return checkDisjoint(caller, out, {{"R", rBase, rOffset, m, n, ldr}},
                         elementSize);
  return "";
}

EpilogueBuffers summa::rt::epilogueBuffers(size_t elementSize, intptr_t rBase,
                                           int64_t rOffset, intptr_t biasBase,
                                           int64_t biasOffset, intptr_t dBase,
                                           int64_t dOffset) {
  int64_t size = static_cast<int64_t>(elementSize);
  auto at = [&](intptr_t base, int64_t offset) -> char * {
    return base ? reinterpret_cast<char *>(base) + offset * size : nullptr;
  };
  return {at(rBase, rOffset), at(biasBase, biasOffset), at(dBase, dOffset)};
}
