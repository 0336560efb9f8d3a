//===- MemrefCopyTest.cpp - strided copies of generated code ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cstdint>
#include <vector>

extern "C" void memrefCopy(int64_t elemSize, void *src, void *dst);

namespace {
/// The descriptor of a ranked memref, as MLIR's LLVM lowering lays it out.
template <int N>
struct Descriptor {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[N];
  int64_t strides[N];
};
struct Unranked {
  int64_t rank;
  void *descriptor;
};
} // namespace

TEST(MemrefCopyTest, IntoAStridedView) {
  // A [3, 4] source into columns 2..5 of a [3, 8] destination (a
  // tensor.concat or insert_slice after bufferization).
  std::vector<float> src(12), dst(24, -1.0f);
  for (int i = 0; i < 12; ++i)
    src[i] = float(i);
  Descriptor<2> s{src.data(), src.data(), 0, {3, 4}, {4, 1}};
  Descriptor<2> d{dst.data(), dst.data(), 2, {3, 4}, {8, 1}};
  Unranked us{2, &s}, ud{2, &d};
  memrefCopy(sizeof(float), &us, &ud);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 8; ++c) {
      float want = (c >= 2 && c < 6) ? float(r * 4 + c - 2) : -1.0f;
      EXPECT_EQ(dst[r * 8 + c], want) << "row " << r << " column " << c;
    }
}

TEST(MemrefCopyTest, TransposedSource) {
  // A source read through a transposed view: no dimension is contiguous in
  // both.
  std::vector<float> src(6), dst(6, 0.0f);
  for (int i = 0; i < 6; ++i)
    src[i] = float(i); // [2, 3] row-major
  Descriptor<2> s{src.data(), src.data(), 0, {3, 2}, {1, 3}};
  Descriptor<2> d{dst.data(), dst.data(), 0, {3, 2}, {2, 1}};
  Unranked us{2, &s}, ud{2, &d};
  memrefCopy(sizeof(float), &us, &ud);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j)
      EXPECT_EQ(dst[i * 2 + j], src[j * 3 + i]);
}

TEST(MemrefCopyTest, RankZeroAndEmpty) {
  float a = 3.5f, b = 0.0f;
  struct {
    float *allocated, *aligned;
    int64_t offset;
  } s{&a, &a, 0}, d{&b, &b, 0};
  Unranked us{0, &s}, ud{0, &d};
  memrefCopy(sizeof(float), &us, &ud);
  EXPECT_EQ(b, 3.5f);
  // An empty shape copies nothing.
  std::vector<float> x(4, 1.0f), y(4, 2.0f);
  Descriptor<2> se{x.data(), x.data(), 0, {0, 4}, {4, 1}};
  Descriptor<2> de{y.data(), y.data(), 0, {0, 4}, {4, 1}};
  Unranked use{2, &se}, ude{2, &de};
  memrefCopy(sizeof(float), &use, &ude);
  EXPECT_EQ(y[0], 2.0f);
}
