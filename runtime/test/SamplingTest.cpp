//===- SamplingTest.cpp - the sampler against a serial reference -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The Sampler on logits [4, 1, 1001] split as generation splits them (the
// batch over depth, the vocabulary unevenly over col, replicated over row)
// against a serial reference written from Hugging Face's warpers as they
// read: temperature, TopKLogitsWarper (the k largest), TopPLogitsWarper
// (sorted ascending, the tokens whose cumulative probability is at most
// 1 - p removed, the largest always kept), then the Gumbel-max draw of the
// same noise. Flat logits make top-p need more than the first candidates a
// rank sends, so the sampler's asking for more is exercised too.
//
//===----------------------------------------------------------------------===//

#include "Sampling.h"
#include "Backend.h"
#include "Tensor.h"

#include "summa/Runtime/SummaRuntime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

using namespace summa::rt;
using namespace summa::rt::driver;

namespace {
constexpr int64_t kRows = 4, kVocab = 1001;

/// The logit of (row, token): a smooth spread with a few peaks, and ties
/// (tokens 10 and 11 equal) for the first-of-equal rule.
double logitOf(int64_t row, int64_t token) {
  double v = std::sin(0.37 * token + row) * 2.0 + 0.001 * (token % 13);
  if (token == 11)
    return logitOf(row, 10);
  if (token == 100 + row)
    v += 6.0;
  return v;
}

/// Hugging Face's order, serially, on the whole row.
int64_t reference(int64_t row, const SamplingOptions &o, int64_t position) {
  std::vector<Candidate> all;
  for (int64_t t = 0; t < kVocab; ++t) {
    double logit = static_cast<float>(logitOf(row, t));
    all.push_back({row, t, o.temperature > 0 ? logit / o.temperature : logit});
  }
  std::stable_sort(all.begin(), all.end(), ranksBefore);
  if (o.temperature <= 0)
    return all.front().token;
  if (o.topK > 0)
    all.resize(std::min<size_t>(all.size(), o.topK));
  if (o.topP < 1.0) {
    // Ascending cumulative probabilities; remove those <= 1 - p, keep the
    // largest.
    double max = all.front().score, sum = 0;
    for (const Candidate &c : all)
      sum += std::exp(c.score - max);
    std::vector<double> probs;
    for (const Candidate &c : all)
      probs.push_back(std::exp(c.score - max) / sum);
    double cumulative = 0;
    std::vector<bool> removed(all.size(), false);
    for (size_t i = all.size(); i-- > 0;) {
      cumulative += probs[i];
      removed[i] = cumulative <= 1.0 - o.topP;
    }
    removed[0] = false;
    std::vector<Candidate> kept;
    for (size_t i = 0; i < all.size(); ++i)
      if (!removed[i])
        kept.push_back(all[i]);
    all = kept;
  }
  Candidate best = all.front();
  double bestKey = -INFINITY;
  for (const Candidate &c : all) {
    double key = c.score + gumbelNoise(o.seed, position, row, c.token);
    if (key > bestKey || (key == bestKey && c.token < best.token)) {
      bestKey = key;
      best = c;
    }
  }
  return best.token;
}

class SamplingTest : public ::testing::Test {
protected:
  void SetUp() override {
    q = summaRtGridSize(SUMMA_AXIS_ROW);
    d = summaRtGridSize(SUMMA_AXIS_DEPTH);
    for (int axis = 0; axis < 3; ++axis)
      coords[axis] = summaRtGridCoord(axis);
    desc.name = "logits";
    desc.rank = 3;
    desc.dtype = SUMMA_DT_F32;
    int64_t global[] = {kRows, 1, kVocab};
    // Rows over depth where it divides them, the vocabulary over col
    // (padded), replicated over row.
    bool rowsSplit = kRows % d == 0;
    int64_t local[] = {rowsSplit ? kRows / d : kRows, 1, (kVocab + q - 1) / q};
    for (int dim = 0; dim < 3; ++dim) {
      desc.globalShape[dim] = global[dim];
      desc.localShape[dim] = local[dim];
      desc.groups[dim] = 1;
      for (int k = 0; k < 3; ++k)
        desc.splitAxes[dim][k] = -1;
    }
    if (rowsSplit)
      desc.splitAxes[0][0] = SUMMA_AXIS_DEPTH;
    desc.splitAxes[2][0] = SUMMA_AXIS_COL;
    desc.scale = 1.0;
    tensor = analyseTensor(desc, "output", 0, hostBackend());
    tile.assign(tensor.localCount, 0.0f);
    tensor.forEachElement(coords, [&](int64_t local, int64_t global) {
      tile[local] =
          static_cast<float>(logitOf(global / kVocab, global % kVocab));
    });
  }

  void expectReference(const SamplingOptions &o) {
    Sampler sampler(tensor, coords, o, MPI_COMM_WORLD);
    for (int64_t position : {5, 6, 7}) {
      std::vector<int64_t> tokens = sampler.next(tile.data(), position);
      ASSERT_EQ(tokens.size(), static_cast<size_t>(kRows));
      for (int64_t row = 0; row < kRows; ++row)
        EXPECT_EQ(tokens[row], reference(row, o, position))
            << "row " << row << " at " << position << ", temperature "
            << o.temperature << ", top-k " << o.topK << ", top-p " << o.topP;
    }
  }

  int64_t q = 1, d = 1;
  int64_t coords[3] = {0, 0, 0};
  SummaTensorDesc desc = {};
  Tensor tensor;
  std::vector<float> tile;
};
} // namespace

TEST_F(SamplingTest, GreedyIsTheFirstLargest) {
  expectReference({0.0, 0, 1.0, 0});
}

TEST_F(SamplingTest, TemperatureDrawsFromEveryToken) {
  expectReference({0.7, 0, 1.0, 1});
  expectReference({3.0, 0, 1.0, 2});
}

TEST_F(SamplingTest, TopKKeepsTheKLargest) {
  expectReference({1.0, 1, 1.0, 3});
  expectReference({2.0, 40, 1.0, 4});
}

TEST_F(SamplingTest, TopPAsksForMoreWhereTheNucleusIsWide) {
  // Temperature 8 flattens the logits: the nucleus of 0.97 holds hundreds
  // of tokens, more than the first 64 a rank sends.
  expectReference({8.0, 0, 0.97, 5});
  expectReference({0.5, 0, 0.5, 6});
}

TEST_F(SamplingTest, TopKThenTopP) { expectReference({1.5, 200, 0.9, 7}); }

TEST(SamplingKept, TopPKeepsTheFirstAndStopsAtP) {
  // Probabilities 0.5, 0.3, 0.2: p = 0.6 keeps two (0.5 < 0.6), p = 0.5
  // keeps one (0.5 >= 0.5), as Hugging Face's cumulative test.
  std::vector<Candidate> sorted = {
      {0, 1, std::log(0.5)}, {0, 2, std::log(0.3)}, {0, 3, std::log(0.2)}};
  std::vector<Candidate> kept;
  SamplingOptions o{1.0, 0, 0.6, 0};
  EXPECT_TRUE(keptTokens(sorted, 3, o, 0.0, kept));
  EXPECT_EQ(kept.size(), 2u);
  o.topP = 0.5;
  EXPECT_TRUE(keptTokens(sorted, 3, o, 0.0, kept));
  EXPECT_EQ(kept.size(), 1u);
  // Only the first candidate known: p = 0.6 needs the second.
  o.topP = 0.6;
  EXPECT_FALSE(keptTokens(sorted, 1, o, 0.0, kept));
}
