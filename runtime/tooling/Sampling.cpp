//===- Sampling.cpp - the next token from logits split on the grid -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "Sampling.h"

#include "Error.h"
#include "Profile.h"
#include "SplitMix64.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace summa::rt;
using namespace summa::rt::driver;

double summa::rt::driver::gumbelNoise(uint64_t seed, int64_t position,
                                      int64_t row, int64_t token) {
  uint64_t hash = splitMix64(seed);
  hash = splitMix64(hash ^ static_cast<uint64_t>(position));
  hash = splitMix64(hash ^ static_cast<uint64_t>(row));
  hash = splitMix64(hash ^ static_cast<uint64_t>(token));
  // The top 53 bits, centred in their interval: u in (0, 1).
  double u = (static_cast<double>(hash >> 11) + 0.5) * 0x1p-53;
  return -std::log(-std::log(u));
}

bool summa::rt::driver::keptTokens(const std::vector<Candidate> &sorted,
                                   size_t complete,
                                   const SamplingOptions &options, double logZ,
                                   std::vector<Candidate> &kept) {
  kept.clear();
  size_t count = sorted.size();
  if (options.topK > 0) {
    // The k best are all known: the softmax of top-p is over them.
    count = std::min<size_t>(count, options.topK);
    complete = count;
    if (options.topP < 1.0 && count > 0) {
      double sum = 0.0;
      for (size_t i = 0; i < count; ++i)
        sum += std::exp(sorted[i].score - sorted[0].score);
      logZ = sorted[0].score + std::log(sum);
    }
  }
  if (options.topP >= 1.0) {
    kept.assign(sorted.begin(), sorted.begin() + count);
    return true;
  }
  // A token is kept while the probability of the ones before it is below p
  // (Hugging Face's TopPLogitsWarper, which always keeps the first).
  double before = 0.0;
  for (size_t i = 0; i < count; ++i) {
    if (before >= options.topP)
      return true;
    if (i >= complete)
      return false;
    kept.push_back(sorted[i]);
    before += std::exp(sorted[i].score - logZ);
  }
  // Every candidate kept: complete only if they are the whole row.
  return complete >= count;
}

Sampler::Sampler(const Tensor &logits, const int64_t coords[3],
                 const SamplingOptions &options, MPI_Comm comm)
    : logits(logits), coords(coords), options(options), comm(comm) {
  if (logits.rank != 3 || logits.desc->globalShape[1] != 1)
    fatal("summaRtGenerate: the logits are %s, not [batch, 1, vocabulary]",
          logits.name.c_str());
  rows = logits.desc->globalShape[0];
  vocab = logits.desc->globalShape[2];
  // One copy of each block takes part: the lowest rank that holds it.
  int size = 0, rank = 0;
  SUMMA_MPI_CHECK(MPI_Comm_size(comm, &size));
  SUMMA_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  int64_t key = logits.blockKey(coords);
  std::vector<int64_t> keys(size);
  SUMMA_MPI_CHECK(
      MPI_Allgather(&key, 1, MPI_INT64_T, keys.data(), 1, MPI_INT64_T, comm));
  for (int r = 0; r < rank; ++r)
    primary &= keys[r] != key;
}

std::vector<std::vector<Candidate>> Sampler::localRows(const void *tile) const {
  std::vector<std::vector<Candidate>> byRow(rows);
  if (!primary)
    return byRow;
  double temperature = options.temperature > 0 ? options.temperature : 1.0;
  logits.forEachElement(coords, [&](int64_t local, int64_t global) {
    int64_t row = global / vocab;
    double score = logits.load(tile, local) / temperature;
    byRow[row].push_back({row, global % vocab, score});
  });
  return byRow;
}

std::vector<Candidate>
Sampler::gather(const std::vector<Candidate> &mine) const {
  static_assert(sizeof(Candidate) == 24, "a candidate is three 8-byte words");
  int size = 0;
  SUMMA_MPI_CHECK(MPI_Comm_size(comm, &size));
  int bytes = static_cast<int>(mine.size() * sizeof(Candidate));
  std::vector<int> counts(size), offsets(size);
  double start = MPI_Wtime();
  SUMMA_MPI_CHECK(
      MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, comm));
  int64_t total = 0;
  for (int r = 0; r < size; ++r) {
    offsets[r] = static_cast<int>(total);
    total += counts[r];
  }
  if (total > std::numeric_limits<int>::max())
    fatal("summaRtGenerate: %lld bytes of candidates do not fit one "
          "MPI_Allgatherv",
          (long long)total);
  std::vector<Candidate> all(total / sizeof(Candidate));
  SUMMA_MPI_CHECK(MPI_Allgatherv(mine.data(), bytes, MPI_BYTE, all.data(),
                                 counts.data(), offsets.data(), MPI_BYTE,
                                 comm));
  recordCollective(CollectiveKind::AllGather, 7, bytes, MPI_Wtime() - start);
  sent += static_cast<int64_t>(mine.size());
  return all;
}

std::vector<int64_t> Sampler::next(const void *tile, int64_t position) const {
  std::vector<std::vector<Candidate>> byRow = localRows(tile);
  std::vector<int64_t> tokens(rows, 0);
  auto byScore = [](std::vector<Candidate> &list, size_t keep) {
    keep = std::min(keep, list.size());
    std::partial_sort(list.begin(), list.begin() + keep, list.end(),
                      ranksBefore);
    list.resize(keep);
  };
  // Merges every rank's candidates of each row, in order.
  auto merged = [&](const std::vector<Candidate> &mine) {
    std::vector<std::vector<Candidate>> rowsOf(rows);
    for (const Candidate &c : gather(mine))
      rowsOf[c.row].push_back(c);
    for (std::vector<Candidate> &list : rowsOf)
      std::sort(list.begin(), list.end(), ranksBefore);
    return rowsOf;
  };
  auto noisy = [&](const Candidate &c) {
    return Candidate{c.row, c.token,
                     c.score +
                         gumbelNoise(options.seed, position, c.row, c.token)};
  };

  bool greedy = options.temperature <= 0;
  if (greedy || (options.topK == 0 && options.topP >= 1.0)) {
    // One candidate per row: the largest logit, or the largest score plus
    // its noise (a draw from the softmax of every logit).
    std::vector<Candidate> mine;
    for (const std::vector<Candidate> &list : byRow) {
      if (list.empty())
        continue;
      Candidate best = greedy ? list[0] : noisy(list[0]);
      for (const Candidate &c : list) {
        Candidate candidate = greedy ? c : noisy(c);
        if (ranksBefore(candidate, best))
          best = candidate;
      }
      mine.push_back(best);
    }
    std::vector<std::vector<Candidate>> all = merged(mine);
    for (int64_t row = 0; row < rows; ++row)
      tokens[row] = all[row].front().token;
    return tokens;
  }

  // The softmax's log-sum over the whole vocabulary (top-p without top-k):
  // each row's maximum, then the sum of exp(score - max), over the ranks.
  std::vector<double> logZ(rows, 0.0);
  if (options.topK == 0) {
    std::vector<double> max(rows, -std::numeric_limits<double>::infinity());
    for (int64_t row = 0; row < rows; ++row)
      for (const Candidate &c : byRow[row])
        max[row] = std::max(max[row], c.score);
    SUMMA_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, max.data(),
                                  static_cast<int>(rows), MPI_DOUBLE, MPI_MAX,
                                  comm));
    std::vector<double> sum(rows, 0.0);
    for (int64_t row = 0; row < rows; ++row)
      for (const Candidate &c : byRow[row])
        sum[row] += std::exp(c.score - max[row]);
    SUMMA_MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, sum.data(),
                                  static_cast<int>(rows), MPI_DOUBLE, MPI_SUM,
                                  comm));
    for (int64_t row = 0; row < rows; ++row)
      logZ[row] = max[row] + std::log(sum[row]);
  }

  // Each rank sends its best `m` of each row (top-k: k); a row whose
  // candidates stop short of the nucleus asks every rank for more. A rank
  // that holds more than m of a row sends its m-th score as a bound
  // (token -1): what it did not send scores no higher.
  int64_t m = options.topK > 0 ? options.topK : 64;
  int64_t largest = 0;
  for (const std::vector<Candidate> &list : byRow)
    largest = std::max<int64_t>(largest, list.size());
  SUMMA_MPI_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_INT64_T, MPI_MAX, comm));
  for (;;) {
    std::vector<Candidate> mine;
    for (std::vector<Candidate> list : byRow) {
      bool more = static_cast<int64_t>(list.size()) > m;
      byScore(list, m);
      mine.insert(mine.end(), list.begin(), list.end());
      if (more)
        mine.push_back({list.back().row, -1, list.back().score});
    }
    std::vector<std::vector<Candidate>> all = merged(mine);
    bool done = true;
    std::vector<Candidate> kept;
    for (int64_t row = 0; row < rows && done; ++row) {
      std::vector<Candidate> sorted;
      double bound = -std::numeric_limits<double>::infinity();
      for (const Candidate &c : all[row]) {
        if (c.token < 0)
          bound = std::max(bound, c.score);
        else
          sorted.push_back(c);
      }
      // Candidates above every bound are the row's best, in order.
      size_t complete = 0;
      while (complete < sorted.size() && sorted[complete].score > bound)
        ++complete;
      if (options.topK > 0)
        complete = sorted.size();
      if (!keptTokens(sorted, complete, options, logZ[row], kept)) {
        done = false;
        break;
      }
      Candidate best = noisy(kept.front());
      for (const Candidate &c : kept)
        if (ranksBefore(noisy(c), best))
          best = noisy(c);
      tokens[row] = best.token;
    }
    if (done)
      return tokens;
    if (m >= largest)
      fatal("summaRtGenerate: top-p found no nucleus among all %lld "
            "candidates (the logits are not finite?)",
            (long long)largest);
    m *= 8;
  }
}
