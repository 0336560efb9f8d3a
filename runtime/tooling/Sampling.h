//===- Sampling.h - the next token from logits split on the grid -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The sampler of summaRtGenerate: the next token of every sequence from the
// logits [B, 1, V] as the compiled step leaves them, each rank holding its
// tile (the vocabulary split, uneven blocks padded). No rank gathers the
// logits: each sends the few candidates of its rows (greedy: one per row;
// top-k: k per row; top-p: its best ones until the nucleus is known) and
// every rank merges the same list and takes the same tokens. What it moves
// is O(B·k) per rank, never O(B·V).
//
// Sampling follows Hugging Face's order: the logits divided by the
// temperature, the k best kept (top-k), then the fewest best whose
// probabilities (a softmax over what top-k kept, or over the whole
// vocabulary) reach p (top-p: a token is kept while the probability of the
// tokens before it is below p), and one token drawn from the softmax of what
// is kept. The draw is the Gumbel-max trick: the kept token with the largest
// score + G, where G = -log(-log(u)) and u is a hash of (seed, position,
// row, token). The noise of a token depends on nothing the grid changes, so
// a seed gives the same tokens on every grid (up to logits that differ in
// their last bits between partitionings and fall on a boundary).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_SAMPLING_H
#define SUMMA_RUNTIME_TOOLING_SAMPLING_H

#include "Tensor.h"

#include "summa/Runtime/SummaRuntime.h"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace summa::rt::driver {

struct SamplingOptions {
  /// 0: greedy (the largest logit, the first of equal ones, as
  /// torch.argmax); otherwise the logits are divided by it and sampled.
  double temperature = 0.0;
  /// 0: no top-k filter.
  int64_t topK = 0;
  /// 1: no top-p filter; in (0, 1].
  double topP = 1.0;
  uint64_t seed = 0;
};

/// A candidate token of one row: its index in the vocabulary and its score
/// (the logit over the temperature).
struct Candidate {
  int64_t row;
  int64_t token;
  double score;
};

/// The uniform noise of the draw: G = -log(-log(u)), u in (0, 1) a hash of
/// (seed, position, row, token).
SUMMA_RT_EXPORT double gumbelNoise(uint64_t seed, int64_t position, int64_t row,
                                   int64_t token);

/// The ordering of candidates: the larger score first, then the smaller
/// token (torch.argmax's first of equal logits).
inline bool ranksBefore(const Candidate &a, const Candidate &b) {
  return a.score > b.score || (a.score == b.score && a.token < b.token);
}

/// What the merged candidates of one row give, where they are complete: the
/// tokens top-k and top-p keep, in order (`sorted` sorted by ranksBefore,
/// at least topK of them with top-k; `logZ` the log of the softmax's sum
/// over the whole vocabulary, for top-p without top-k). `complete` is how
/// many of `sorted` are known to be the row's best; returns false where
/// top-p needs more than that.
SUMMA_RT_EXPORT bool keptTokens(const std::vector<Candidate> &sorted,
                                size_t complete, const SamplingOptions &options,
                                double logZ, std::vector<Candidate> &kept);

/// The next tokens from logits laid out as `logits` says.
class SUMMA_RT_EXPORT Sampler {
public:
  /// `logits`: the step's output [B, 1, V], a floating-point type. Every
  /// rank of `comm` (the world) must construct it, collectively.
  Sampler(const Tensor &logits, const int64_t coords[3],
          const SamplingOptions &options, MPI_Comm comm);

  /// The token of each of the B rows, the same on every rank, chosen from
  /// this rank's tile `tile` (host memory) for the token at `position` of
  /// each sequence. Collective.
  std::vector<int64_t> next(const void *tile, int64_t position) const;

  /// Candidates this rank sent in all calls so far (the profile's count).
  int64_t sentCandidates() const { return sent; }

private:
  /// This rank's rows: (row, token, score) of every element it holds, by
  /// row; empty on a rank whose block another rank with a lower rank holds
  /// too (one copy of each logit takes part).
  std::vector<std::vector<Candidate>> localRows(const void *tile) const;
  std::vector<Candidate> gather(const std::vector<Candidate> &mine) const;

  const Tensor &logits;
  const int64_t *coords;
  SamplingOptions options;
  MPI_Comm comm;
  int64_t rows, vocab;
  bool primary = true;
  mutable int64_t sent = 0;
};

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_SAMPLING_H
