//===- Generator.cpp - a compiled generator on this rank's tiles ---------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "Generator.h"
#include "Backend.h"
#include "Inputs.h"
#include "TensorFile.h"
#include "Tiles.h"

#include "Error.h"
#include "GridState.h"
#include "Profile.h"

#include <mpi.h>

#include <algorithm>
#include <cstring>

using namespace summa::rt;
using namespace summa::rt::driver;

namespace {
const char *const kCaller = "summaRtGenerate";

/// Whether two tensors are laid out alike: a tile of one is a tile of the
/// other.
bool sameLayout(const Tensor &a, const Tensor &b) {
  const SummaTensorDesc &x = *a.desc, &y = *b.desc;
  if (x.rank != y.rank || x.dtype != y.dtype)
    return false;
  for (int dim = 0; dim < x.rank; ++dim) {
    if (x.globalShape[dim] != y.globalShape[dim] ||
        x.localShape[dim] != y.localShape[dim] ||
        x.groups[dim] != y.groups[dim])
      return false;
    for (int k = 0; k < 3; ++k) {
      if (x.splitAxes[dim][k] != y.splitAxes[dim][k])
        return false;
      if (x.splitAxes[dim][k] < 0)
        break;
    }
  }
  return true;
}

/// `from`'s tile (`fromTile`) as `to`'s (`toTile`): copied where the
/// layouts agree, else through the whole tensor.
void relayTile(const Backend &backend, const Tensor &from, const void *fromTile,
               const Tensor &to, void *toTile) {
  if (sameLayout(from, to)) {
    backend.copy(toTile, fromTile, to.localBytes());
    return;
  }
  HostBuffer gathered = gatherWhole(backend, from, fromTile, "generation");
  HostBuffer whole(from.globalBytes(), "the whole of '" + from.name + "'");
  if (grid().worldRank == 0)
    std::memcpy(whole.data(), gathered.data(), from.globalBytes());
  broadcastFromRoot(whole.data(), from.globalBytes());
  uploadTile(backend, to, grid().coords, whole.data(), toTile);
}

/// Integer ids (whole, host) into an integer input's tile.
void setIds(const Backend &backend, const Tensor &input, void *tile,
            const std::vector<int64_t> &ids) {
  HostBuffer whole(input.globalBytes(), "the ids of '" + input.name + "'");
  for (size_t i = 0; i < ids.size(); ++i)
    input.store(whole.data(), static_cast<int64_t>(i),
                static_cast<double>(ids[i]));
  uploadTile(backend, input, grid().coords, whole.data(), tile);
}

void checkIdsInput(const Tensor &t, int64_t rows, int64_t columns,
                   const char *what) {
  int32_t dtype = t.desc->dtype;
  if (t.rank != 2 || t.desc->globalShape[0] != rows ||
      (columns > 0 && t.desc->globalShape[1] != columns) ||
      (dtype != SUMMA_DT_I64 && dtype != SUMMA_DT_I32))
    fatal("%s: the %s's input 0 '%s' is not integer ids [%lld, %s]", kCaller,
          what, t.name.c_str(), (long long)rows,
          columns > 0 ? std::to_string(columns).c_str() : "P");
}

/// The bytes this rank's collectives moved since `before`, by kind; the
/// largest over the ranks on rank 0.
std::vector<int64_t> movedSince(const ProfileSnapshot &before) {
  std::vector<int64_t> local(kNumCollectiveKinds, 0),
      largest(kNumCollectiveKinds, 0);
  collectiveBytesBetween(before, profileSnapshot(), local.data());
  SUMMA_MPI_CHECK(MPI_Reduce(local.data(), largest.data(), kNumCollectiveKinds,
                             MPI_INT64_T, MPI_MAX, 0, grid().world));
  return largest;
}
} // namespace

Generator::Generator(const SummaGenerateDesc &desc, const Backend &backend)
    : desc(desc), backend(backend), decodeModel(*desc.decode, backend) {
  const SummaProgramDesc &prefillDesc = *desc.prefill;
  if (prefillDesc.q != desc.decode->q || prefillDesc.d != desc.decode->d ||
      prefillDesc.numInputs < 1 || desc.decode->numInputs < 2 ||
      prefillDesc.numOutputs < 1 || desc.decode->numOutputs < 1)
    fatal("%s: invalid generator description", kCaller);
  const Tensor &tokenInput = decodeModel.inputs[0];
  numRows = tokenInput.desc->globalShape[0];
  checkIdsInput(tokenInput, numRows, 1, "decode step");
  const Tensor &posInput = decodeModel.inputs[1];
  if (posInput.rank != 0 || posInput.desc->dtype != SUMMA_DT_I64)
    fatal("%s: the decode step's input 1 '%s' is not a position (i64 [])",
          kCaller, posInput.name.c_str());
  state.assign(decodeModel.inputs.size(), false);
  for (size_t o = 0; o < decodeModel.outputs.size(); ++o) {
    int32_t updates = decodeModel.outputs[o].desc->updates;
    if (updates <= 0)
      continue;
    state[updates - 1] = true;
    // The caches are updated in place: the step writes the token's keys
    // and values into its argument and returns it, so its result is the
    // argument's tile, never copied per token.
    if (decodeModel.inputs[updates - 1].rank > 0)
      decodeModel.aliasOutput(o);
  }
  if (!state[1])
    fatal("%s: the decode step does not update its position", kCaller);
  startInput = decodeModel.findInput("start");
  if (startInput >= 0) {
    const Tensor &t = decodeModel.inputs[startInput];
    if (t.rank != 1 || t.desc->globalShape[0] != numRows ||
        t.desc->dtype != SUMMA_DT_I64 || state[startInput])
      fatal("%s: the decode step's input 'start' is not the rows' starts "
            "(i64 [%lld])",
            kCaller, (long long)numRows);
  }

  prefillModel = std::make_unique<Model>(prefillDesc, backend);
  Model &prefill = *prefillModel;
  compiled = prefill.inputs[0].desc->globalShape[1];
  checkIdsInput(prefill.inputs[0], numRows, compiled, "prefill");
  shared.assign(prefill.inputs.size(), false);
  for (size_t i = 1; i < prefill.inputs.size(); ++i) {
    const Tensor &input = prefill.inputs[i];
    int j = decodeModel.findInput(input.fileName);
    if (j >= 0 && j == startInput) {
      prefillStart = static_cast<int>(i);
      continue;
    }
    // The weights laid out alike are the decode step's tiles.
    if (j >= 2 && !state[j] && sameLayout(input, decodeModel.inputs[j])) {
      prefill.shareInput(i, decodeModel.inputTile(j));
      shared[i] = true;
    }
  }
  if ((prefillStart >= 0) != (startInput >= 0))
    fatal("%s: one of the prefill and the decode step takes the rows' "
          "starts and the other does not",
          kCaller);
}

int64_t Generator::vocabulary() const {
  return decodeModel.outputs[0].desc->globalShape[2];
}

std::string Generator::load(TensorSource &source) {
  std::string missing;
  // The inputs of `model` from `first` on that `loads` accepts.
  auto loadInto = [&](Model &model, size_t first, auto loads) {
    Placement tiles{backend, model.pointers, grid().coords};
    for (size_t i = first; i < model.inputs.size(); ++i) {
      if (!loads(i))
        continue;
      const Tensor &input = model.inputs[i];
      if (const StoredTensor *stored = findStored(source, input)) {
        loadStored(source, *stored, input, tiles, i);
        continue;
      }
      std::string quoted = "'" + input.fileName + "'";
      if (missing.find(quoted) == std::string::npos)
        missing += (missing.empty() ? "" : ", ") + quoted;
    }
  };
  // The decode step's weights (not its token, position, starts or state);
  // the prefill's that do not read them.
  loadInto(decodeModel, 2, [&](size_t i) {
    return !state[i] && static_cast<int>(i) != startInput;
  });
  if (prefillModel)
    loadInto(*prefillModel, 1, [&](size_t i) {
      return !shared[i] && static_cast<int>(i) != prefillStart;
    });
  return missing;
}

void Generator::setWhole(Model &model, size_t i, const void *whole) {
  uploadTile(backend, model.inputs[i], grid().coords, whole,
             model.inputTile(i));
}

bool Generator::setWeight(const std::string &name, const void *whole) {
  bool found = false;
  int j = decodeModel.findInput(name);
  if (j >= 2 && !state[j] && j != startInput) {
    setWhole(decodeModel, j, whole);
    found = true;
  }
  if (prefillModel) {
    int i = prefillModel->findInput(name);
    if (i >= 1 && i != prefillStart) {
      if (!shared[i])
        setWhole(*prefillModel, i, whole);
      found = true;
    }
  }
  return found;
}

bool Generator::prefill(const std::vector<int64_t> &ids,
                        const std::vector<int64_t> &starts,
                        std::string &error) {
  if (!prefillModel) {
    error = "the prefill's tiles were freed";
    return false;
  }
  if (static_cast<int64_t>(ids.size()) != numRows * compiled ||
      static_cast<int64_t>(starts.size()) != numRows) {
    error = "the prefill takes ids [" + std::to_string(numRows) + ", " +
            std::to_string(compiled) + "] and starts [" +
            std::to_string(numRows) + "]";
    return false;
  }
  for (int64_t s : starts)
    if (s < 0 || (s != 0 && startInput < 0)) {
      error = s < 0 ? "a row's start is negative"
                    : "rows of different lengths: this generator takes no "
                      "rows' starts (derived without left-padding)";
      return false;
    }
  Model &prefill = *prefillModel;
  setIds(backend, prefill.inputs[0], prefill.inputTile(0), ids);
  if (startInput >= 0) {
    setIds(backend, prefill.inputs[prefillStart],
           prefill.inputTile(prefillStart), starts);
    setIds(backend, decodeModel.inputs[startInput],
           decodeModel.inputTile(startInput), starts);
  }
  prefill.call();
  // Its state (position, caches) into the decode step's tiles.
  for (size_t i = 0; i < decodeModel.inputs.size(); ++i) {
    if (!state[i])
      continue;
    int o = -1;
    for (size_t k = 1; k < prefill.outputs.size(); ++k)
      if (prefill.outputs[k].fileName == decodeModel.inputs[i].fileName)
        o = static_cast<int>(k);
    if (o < 1)
      fatal("%s: the prefill has no output '%s' for the decode step", kCaller,
            decodeModel.inputs[i].fileName.c_str());
    relayTile(backend, prefill.outputs[o], prefill.outputTile(o),
              decodeModel.inputs[i], decodeModel.inputTile(i));
  }
  last = &prefill;
  next = compiled;
  return true;
}

bool Generator::decode(const std::vector<int64_t> &tokens, std::string &error) {
  if (next == 0) {
    error = "no prefill yet";
    return false;
  }
  if (next >= desc.maxLength) {
    error = "the sequences are full (" + std::to_string(desc.maxLength) +
            " tokens, the export's length)";
    return false;
  }
  if (static_cast<int64_t>(tokens.size()) != numRows) {
    error = "the decode step takes one token per row (" +
            std::to_string(numRows) + ")";
    return false;
  }
  setIds(backend, decodeModel.inputs[0], decodeModel.inputTile(0), tokens);
  decodeModel.call();
  decodeModel.feedBack();
  last = &decodeModel;
  ++next;
  return true;
}

const Sampler &Generator::samplerFor(const Model &model,
                                     const SamplingOptions &options) {
  if (!sampler || samplerModel != &model ||
      samplerOptions.temperature != options.temperature ||
      samplerOptions.topK != options.topK ||
      samplerOptions.topP != options.topP ||
      samplerOptions.seed != options.seed) {
    sampler = std::make_unique<Sampler>(model.outputs[0], grid().coords,
                                        options, grid().world);
    samplerModel = &model;
    samplerOptions = options;
  }
  return *sampler;
}

std::vector<int64_t> Generator::sample(const SamplingOptions &options) {
  if (!last)
    fatal("%s: no logits to sample from before a prefill", kCaller);
  const Sampler &s = samplerFor(*last, options);
  HostView tile(backend, last->outputTile(0), last->outputs[0].localBytes(),
                "the logits");
  return s.next(tile.data(), next);
}

std::vector<float> Generator::logits() {
  if (!last)
    fatal("%s: no logits before a prefill", kCaller);
  const Tensor &t = last->outputs[0];
  HostBuffer whole = gatherWhole(backend, t, last->outputTile(0), "logits");
  std::vector<float> values(t.globalCount);
  if (grid().worldRank == 0)
    for (int64_t i = 0; i < t.globalCount; ++i)
      values[i] = static_cast<float>(t.load(whole.data(), i));
  broadcastFromRoot(values.data(), values.size() * sizeof(float));
  return values;
}

void Generator::releasePrefill() {
  if (last == prefillModel.get())
    last = nullptr;
  if (samplerModel == prefillModel.get()) {
    sampler.reset();
    samplerModel = nullptr;
  }
  prefillModel.reset();
}

bool Generator::fits(int64_t promptLength, int64_t &newTokens,
                     std::string &error) const {
  if (promptLength < compiled) {
    error = "the prompt has " + std::to_string(promptLength) +
            " tokens per row; this generator's prefill takes " +
            std::to_string(compiled) +
            " (summa-compile --prompt-length): give at least as many";
    return false;
  }
  int64_t room = desc.maxLength - promptLength;
  if (room < 1) {
    error = "the prompt has " + std::to_string(promptLength) +
            " tokens per row; the program's sequences hold " +
            std::to_string(desc.maxLength) + ", prompt and new tokens";
    return false;
  }
  if (newTokens < 0)
    newTokens = room;
  if (newTokens > room) {
    error = "--max-new-tokens " + std::to_string(newTokens) + ": the " +
            "prompt's " + std::to_string(promptLength) +
            " tokens leave room for " + std::to_string(room) +
            " in the program's sequences of " + std::to_string(desc.maxLength) +
            " (the export's sequence length)";
    return false;
  }
  return true;
}

Generation Generator::generate(const std::vector<int64_t> &prompt,
                               int64_t promptLength,
                               const std::vector<int64_t> &starts,
                               int64_t newTokens,
                               const SamplingOptions &options, int64_t eos,
                               int64_t pad, bool keepLogits, bool release) {
  const GridState &g = grid();
  Generation run;
  int64_t width = promptLength + newTokens;
  run.sequences.assign(numRows * width, 0);
  for (int64_t r = 0; r < numRows; ++r)
    std::copy(prompt.begin() + r * promptLength,
              prompt.begin() + (r + 1) * promptLength,
              run.sequences.begin() + r * width);
  auto keep = [&] {
    std::vector<float> values = logits();
    if (g.worldRank == 0)
      run.scores.insert(run.scores.end(), values.begin(), values.end());
  };
  std::string error;
  auto check = [&](bool ok) {
    if (!ok)
      fatal("%s: %s", kCaller, error.c_str());
  };

  // The prefill on the first `compiled` tokens.
  std::vector<int64_t> ids(numRows * compiled);
  for (int64_t r = 0; r < numRows; ++r)
    std::copy(prompt.begin() + r * promptLength,
              prompt.begin() + r * promptLength + compiled,
              ids.begin() + r * compiled);
  settle(backend);
  SUMMA_MPI_CHECK(MPI_Barrier(g.world));
  ProfileSnapshot before = profileSnapshot();
  double start = MPI_Wtime();
  check(prefill(ids, starts, error));
  std::vector<int64_t> chosen = sample(options);
  run.prefillSeconds = MPI_Wtime() - start;
  run.prefillBytes = movedSince(before);
  if (compiled == promptLength && keepLogits)
    keep();
  if (release)
    releasePrefill();

  SUMMA_MPI_CHECK(MPI_Barrier(g.world));
  before = profileSnapshot();
  start = MPI_Wtime();
  // The rest of the prompt, one token at a time.
  std::vector<int64_t> tokens(numRows);
  for (int64_t at = compiled; at < promptLength; ++at) {
    for (int64_t r = 0; r < numRows; ++r)
      tokens[r] = prompt[r * promptLength + at];
    check(decode(tokens, error));
    chosen = sample(options);
    ++run.decodeCalls;
    if (at + 1 == promptLength && keepLogits)
      keep();
  }
  std::vector<bool> ended(numRows, false);
  for (;;) {
    bool all = true;
    for (int64_t r = 0; r < numRows; ++r) {
      if (ended[r])
        chosen[r] = pad;
      run.sequences[r * width + promptLength + run.generated] = chosen[r];
      ended[r] = ended[r] || chosen[r] == eos;
      all = all && ended[r];
    }
    ++run.generated;
    if (run.generated == newTokens || (eos >= 0 && all))
      break;
    check(decode(chosen, error));
    chosen = sample(options);
    ++run.decodeCalls;
    if (keepLogits)
      keep();
  }
  settle(backend);
  run.decodeSeconds = MPI_Wtime() - start;
  run.decodeBytes = movedSince(before);

  // Hugging Face's sequences end where generation stopped.
  run.length = promptLength + run.generated;
  if (run.length < width) {
    std::vector<int64_t> cut(numRows * run.length);
    for (int64_t r = 0; r < numRows; ++r)
      std::copy(run.sequences.begin() + r * width,
                run.sequences.begin() + r * width + run.length,
                cut.begin() + r * run.length);
    run.sequences = std::move(cut);
  }
  return run;
}

bool summa::rt::driver::startsFromMask(const std::vector<int64_t> &mask,
                                       int64_t rows, int64_t columns,
                                       std::vector<int64_t> &starts,
                                       std::string &error) {
  starts.assign(rows, 0);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t zeros = 0;
    bool valid = true;
    for (int64_t c = 0; c < columns; ++c) {
      int64_t v = mask[r * columns + c];
      if (v == 0 && zeros == c)
        ++zeros;
      else if (v != 1)
        valid = false;
    }
    if (!valid || zeros == columns) {
      error = "row " + std::to_string(r) +
              " of the attention_mask is not left-padded (0s, then at least "
              "one 1): pad prompts on the left, as Hugging Face does for "
              "generation (tokenizer.padding_side = \"left\")";
      return false;
    }
    starts[r] = zeros;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// The C API (SummaModel.h)
//===----------------------------------------------------------------------===//

struct SummaGenerator {
  Generator generator;
  /// summaGeneratorLastError.
  mutable std::string lastError;
};

SummaGenerator *
summa::rt::driver::createGenerator(const SummaGenerateDesc *generator,
                                   int64_t comm, const Backend &backend) {
  const char *caller = "summaGeneratorInit";
  if (!generator || !generator->prefill || !generator->decode)
    fatal("%s: no generator description", caller);
  startRuntime(generator->decode->q, generator->decode->d, comm, caller);
  return new SummaGenerator{Generator(*generator, backend), std::string()};
}

namespace {
int32_t failWith(const SummaGenerator *g, const char *caller,
                 const std::string &message) {
  g->lastError = std::string(caller) + ": " + message;
  return -1;
}

void validGenerator(const SummaGenerator *g, const char *caller) {
  if (!g)
    fatal("%s: no generator (summaGeneratorInit returns it)", caller);
}

/// The sampling options of the C API's arguments, checked.
bool samplingOptions(double temperature, int64_t topK, double topP,
                     uint64_t seed, SamplingOptions &options,
                     std::string &error) {
  options = {temperature, topK, topP, seed};
  if (!(temperature >= 0) || topK < 0 || !(topP > 0 && topP <= 1)) {
    error = "invalid sampling: temperature >= 0, top-k >= 0 and top-p in "
            "(0, 1] are needed";
    return false;
  }
  if (temperature == 0 && (topK > 0 || topP < 1)) {
    error = "top-k and top-p sample: give a temperature (> 0) too";
    return false;
  }
  return true;
}
} // namespace

int32_t summaGeneratorInfo(const SummaGenerator *g, int64_t *rows,
                           int64_t *promptLength, int64_t *maxLength,
                           int64_t *vocabulary) {
  validGenerator(g, "summaGeneratorInfo");
  const Generator &gen = g->generator;
  if (rows)
    *rows = gen.rows();
  if (promptLength)
    *promptLength = gen.promptLength();
  if (maxLength)
    *maxLength = gen.maxLength();
  if (vocabulary)
    *vocabulary = gen.vocabulary();
  return 0;
}

int32_t summaGeneratorLoad(SummaGenerator *g, const char *path) {
  const char *caller = "summaGeneratorLoad";
  validGenerator(g, caller);
  std::string error;
  std::unique_ptr<TensorSource> source =
      TensorSource::openAll({path ? path : ""}, error);
  if (!source)
    return failWith(g, caller, error);
  std::string missing = g->generator.load(*source);
  if (!missing.empty())
    return failWith(g, caller,
                    "'" + std::string(path) + "' has no tensor named " +
                        missing);
  return 0;
}

int32_t summaGeneratorSetWeight(SummaGenerator *g, const char *name,
                                const void *data) {
  const char *caller = "summaGeneratorSetWeight";
  validGenerator(g, caller);
  std::string key = name ? name : "";
  if (!data)
    return failWith(g, caller, "no data for '" + key + "'");
  if (!g->generator.setWeight(key, data))
    return failWith(g, caller,
                    "the generator has no weight named '" + key + "'");
  return 0;
}

int32_t summaGeneratorPrefill(SummaGenerator *g, const int64_t *ids,
                              const int64_t *starts) {
  const char *caller = "summaGeneratorPrefill";
  validGenerator(g, caller);
  Generator &gen = g->generator;
  if (!ids)
    return failWith(g, caller, "no ids");
  std::vector<int64_t> tokens(ids, ids + gen.rows() * gen.promptLength());
  std::vector<int64_t> first(gen.rows(), 0);
  if (starts)
    first.assign(starts, starts + gen.rows());
  std::string error;
  if (!gen.prefill(tokens, first, error))
    return failWith(g, caller, error);
  return 0;
}

int32_t summaGeneratorDecode(SummaGenerator *g, const int64_t *tokens) {
  const char *caller = "summaGeneratorDecode";
  validGenerator(g, caller);
  Generator &gen = g->generator;
  if (!tokens)
    return failWith(g, caller, "no tokens");
  std::string error;
  if (!gen.decode(std::vector<int64_t>(tokens, tokens + gen.rows()), error))
    return failWith(g, caller, error);
  return 0;
}

int32_t summaGeneratorLogits(SummaGenerator *g, float *logits) {
  const char *caller = "summaGeneratorLogits";
  validGenerator(g, caller);
  if (!logits)
    return failWith(g, caller, "no buffer");
  if (g->generator.position() == 0)
    return failWith(g, caller, "no logits before a prefill");
  std::vector<float> values = g->generator.logits();
  std::copy(values.begin(), values.end(), logits);
  return 0;
}

int32_t summaGeneratorSample(SummaGenerator *g, double temperature,
                             int64_t topK, double topP, uint64_t seed,
                             int64_t *tokens) {
  const char *caller = "summaGeneratorSample";
  validGenerator(g, caller);
  if (!tokens)
    return failWith(g, caller, "no buffer");
  if (g->generator.position() == 0)
    return failWith(g, caller, "no logits before a prefill");
  SamplingOptions options;
  std::string error;
  if (!samplingOptions(temperature, topK, topP, seed, options, error))
    return failWith(g, caller, error);
  std::vector<int64_t> chosen = g->generator.sample(options);
  std::copy(chosen.begin(), chosen.end(), tokens);
  return 0;
}

int32_t summaGeneratorGenerate(SummaGenerator *g, const int64_t *ids,
                               const int64_t *mask, int64_t length,
                               int64_t maxNewTokens, double temperature,
                               int64_t topK, double topP, uint64_t seed,
                               int64_t eos, int64_t pad, int64_t *sequences,
                               int64_t *total) {
  const char *caller = "summaGeneratorGenerate";
  validGenerator(g, caller);
  Generator &gen = g->generator;
  if (!ids || !sequences || !total)
    return failWith(g, caller, "no ids, sequences or total");
  int64_t rows = gen.rows();
  std::string error;
  if (length < 1)
    return failWith(g, caller, "the prompt is empty");
  std::vector<int64_t> prompt(ids, ids + rows * length);
  std::vector<int64_t> starts(rows, 0);
  if (mask && !startsFromMask(std::vector<int64_t>(mask, mask + rows * length),
                              rows, length, starts, error))
    return failWith(g, caller, error);
  if (!gen.takesStarts() && std::any_of(starts.begin(), starts.end(),
                                        [](int64_t s) { return s != 0; }))
    return failWith(g, caller,
                    "the mask pads rows, and this generator takes no rows' "
                    "starts (derived without left-padding)");
  int64_t newTokens = maxNewTokens;
  if (!gen.fits(length, newTokens, error))
    return failWith(g, caller, error);
  SamplingOptions options;
  if (!samplingOptions(temperature, topK, topP, seed, options, error))
    return failWith(g, caller, error);
  Generation run = gen.generate(prompt, length, starts, newTokens, options, eos,
                                pad < 0 ? eos : pad,
                                /*keepLogits=*/false, /*release=*/false);
  std::copy(run.sequences.begin(), run.sequences.end(), sequences);
  *total = run.length;
  return 0;
}

const char *summaGeneratorLastError(const SummaGenerator *g) {
  validGenerator(g, "summaGeneratorLastError");
  return g->lastError.c_str();
}

void summaGeneratorFinalize(SummaGenerator *g) {
  validGenerator(g, "summaGeneratorFinalize");
  settle(g->generator.backendOf());
  delete g; // The tiles go back before the runtime is finalised.
  summaRtFinalize();
}
