//===- Generator.h - a compiled generator on this rank's tiles --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The object behind both doors of a generator (summa-compile --generate):
// the executable's driver (summaRtGenerate, Generate.cpp) and the library's
// C API (summaGenerator*, SummaModel.h). It holds the prefill and the decode
// step with their tiles, loads the weights once (into the decode step's
// tiles; the prefill reads them where its layout is the same), hands the
// prefill's state (position, caches) to the decode step tile to tile, and
// chooses the next tokens from the last call's logits where they are split
// (Sampling.h). generate() is the whole loop: prefill, the rest of a longer
// prompt and every new token through the decode step, EOS, padding.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_GENERATOR_H
#define SUMMA_RUNTIME_TOOLING_GENERATOR_H

#include "Model.h"
#include "Sampling.h"

#include "summa/Runtime/SummaModel.h"
#include "summa/Runtime/SummaRuntime.h"

#include <memory>
#include <string>
#include <vector>

namespace summa::rt::driver {

struct Backend;
class TensorSource;

/// What generate() did: the sequences [rows, length] (the prompt, then the
/// new tokens), the time and the bytes (per collective kind, the largest
/// over the ranks) of each phase, and the logits each new token was chosen
/// from, [generated, rows, V], where asked for.
struct Generation {
  std::vector<int64_t> sequences;
  int64_t length = 0;
  int64_t generated = 0;
  /// Decode calls: the prompt's tokens after the prefill's and the new
  /// tokens after the first.
  int64_t decodeCalls = 0;
  double prefillSeconds = 0.0, decodeSeconds = 0.0;
  std::vector<int64_t> prefillBytes, decodeBytes;
  std::vector<float> scores;
};

class Generator {
public:
  /// Allocates the steps' tiles (the runtime must be initialised for the
  /// generator's grid). Fatal, naming what is wrong, on an invalid
  /// description.
  Generator(const SummaGenerateDesc &desc, const Backend &backend);

  int64_t rows() const { return numRows; }
  /// The prefill's tokens per row (summa-compile --prompt-length).
  int64_t promptLength() const { return compiled; }
  /// The longest sequence, prompt and new tokens (the export's).
  int64_t maxLength() const { return desc.maxLength; }
  int64_t vocabulary() const;
  /// Whether the steps take each row's start (rows of different lengths).
  bool takesStarts() const { return startInput >= 0; }

  /// Loads every weight from `source`, matched by name; returns the names
  /// it lacks, quoted ("" when none).
  std::string load(TensorSource &source);
  /// Sets the weight `name` from the whole tensor (host memory of its
  /// element type, row-major, on every rank). False when no weight has
  /// that name.
  bool setWeight(const std::string &name, const void *whole);

  /// The prefill on ids [rows, promptLength()] of rows that start at
  /// `starts` (left padding; all 0 for rows of one length); then the next
  /// token is at promptLength(). False (with `error`) on a prompt it cannot
  /// take.
  bool prefill(const std::vector<int64_t> &ids,
               const std::vector<int64_t> &starts, std::string &error);
  /// One decode step on the tokens [rows] at position(). False (with
  /// `error`) before a prefill or past the longest sequence.
  bool decode(const std::vector<int64_t> &tokens, std::string &error);
  /// The position of the next token: the tokens of each row so far.
  int64_t position() const { return next; }
  /// The next token of each row from the last call's logits, the same on
  /// every rank. Collective.
  std::vector<int64_t> sample(const SamplingOptions &options);
  /// The last call's logits [rows, V] as f32, whole on every rank.
  /// Collective.
  std::vector<float> logits();
  /// Frees the prefill's tiles; a later prefill is refused.
  void releasePrefill();
  const Backend &backendOf() const { return backend; }

  /// Whether `promptLength` tokens per row and `newTokens` more fit (-1:
  /// as many as fit, set); `error` says why not.
  bool fits(int64_t promptLength, int64_t &newTokens, std::string &error) const;
  /// The whole loop from `prompt` [rows, promptLength] (rows starting at
  /// `starts`): the prefill on its first promptLength() tokens, the rest
  /// through the decode step, then up to `newTokens` new tokens (after
  /// fits()), a row ending at `eos` (>= 0) and padded with `pad` after it,
  /// until every row has. With `keepLogits`, the logits of every new token
  /// on rank 0; with `release`, the prefill's tiles go back after it.
  Generation generate(const std::vector<int64_t> &prompt, int64_t promptLength,
                      const std::vector<int64_t> &starts, int64_t newTokens,
                      const SamplingOptions &options, int64_t eos, int64_t pad,
                      bool keepLogits, bool release);

private:
  /// The sampler of `model`'s logits with `options`, made again only when
  /// they change.
  const Sampler &samplerFor(const Model &model, const SamplingOptions &options);
  /// `whole` (host, the whole tensor) into input `i` of `model`.
  void setWhole(Model &model, size_t i, const void *whole);

  const SummaGenerateDesc &desc;
  const Backend &backend;
  Model decodeModel;
  std::unique_ptr<Model> prefillModel;
  int64_t numRows = 0;
  int64_t compiled = 0;
  /// The decode step's inputs its outputs update (position, caches).
  std::vector<bool> state;
  /// The decode step's and the prefill's `start` inputs, or -1.
  int startInput = -1;
  int prefillStart = -1;
  /// Which prefill inputs read the decode step's tiles.
  std::vector<bool> shared;
  /// The model whose logits are the last call's; null before a prefill (and
  /// after its tiles are freed, until a decode call).
  const Model *last = nullptr;
  int64_t next = 0;
  std::unique_ptr<Sampler> sampler;
  const Model *samplerModel = nullptr;
  SamplingOptions samplerOptions;
};

/// Each row's start (the slot of its first token) from its attention mask
/// [rows, columns]: 0s, then 1s, at least one (left padding, as Hugging
/// Face pads prompts for generation). False, naming the row, otherwise.
bool startsFromMask(const std::vector<int64_t> &mask, int64_t rows,
                    int64_t columns, std::vector<int64_t> &starts,
                    std::string &error);

/// summaGeneratorInit of a backend: starts the runtime on `comm` (see
/// SummaModel.h) and makes the generator.
SummaGenerator *createGenerator(const SummaGenerateDesc *generator,
                                int64_t comm, const Backend &backend);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_GENERATOR_H
