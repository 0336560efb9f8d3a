//===- Generate.cpp - summaRtGenerate: text from a compiled model -*- C++
//-*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The generator's driver: its options, the weights loaded once (the decode
// step's tiles; the prefill reads them where its layout is the same), the
// prefill on the prompt, its state handed to the decode step (tile to tile
// where the layouts agree), one decode call per token, each token chosen by
// the Sampler from the logits where they are split, and the sequences, the
// timings and the bytes each phase moved.
//
//===----------------------------------------------------------------------===//

#include "Generate.h"
#include "Backend.h"
#include "Inputs.h"
#include "Model.h"
#include "Options.h"
#include "Sampling.h"
#include "TensorFile.h"
#include "Tiles.h"

#include "Error.h"
#include "GridState.h"
#include "Profile.h"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace summa::rt;
using namespace summa::rt::driver;

namespace {
const char *const kCaller = "summaRtGenerate";

struct GenerateOptions {
  /// --inputs, once per file: the weights (safetensors, .npy directory or a
  /// sharded training checkpoint).
  std::vector<std::string> inputs;
  /// --prompt: `input_ids` [B, P'] (and an `attention_mask` of ones).
  std::string prompt;
  /// --max-new-tokens; -1: up to the program's longest sequence.
  int64_t maxNewTokens = -1;
  SamplingOptions sampling;
  /// --eos; -1: none. --pad: what a finished row gets (default: --eos).
  int64_t eos = -1;
  int64_t pad = -1;
  /// --outputs: `sequences` (and `scores` with --save-logits), by rank 0.
  std::string outputs;
  bool saveLogits = false;
  /// --expect: a file whose `sequences` the generated ones must equal (and
  /// whose `scores` the saved logits must be within --tol of).
  std::string expect;
  double tol = 1e-4;
};

ParseResult parseGenerateOptions(int argc, char **argv,
                                 GenerateOptions &options, std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h")
      return ParseResult::Help;
    if (arg == "--save-logits") {
      options.saveLogits = true;
      continue;
    }
    std::string name = arg.substr(0, arg.find('='));
    static const char *const known[] = {
        "--inputs", "--prompt",  "--max-new-tokens", "--temperature",
        "--top-k",  "--top-p",   "--seed",           "--eos",
        "--pad",    "--outputs", "--expect",         "--tol"};
    if (std::none_of(std::begin(known), std::end(known),
                     [&](const char *k) { return name == k; })) {
      error = "unknown option '" + arg + "'";
      return ParseResult::Error;
    }
    std::string value;
    if (!optionValue(argc, argv, i, arg, name, value, error))
      return ParseResult::Error;
    const char *text = value.c_str();
    bool valid = true;
    const char *expected = "a non-negative integer";
    if (name == "--inputs" || name == "--prompt" || name == "--outputs" ||
        name == "--expect") {
      valid = !value.empty();
      expected = "a file name";
      if (name == "--inputs")
        options.inputs.push_back(value);
      else
        (name == "--prompt"    ? options.prompt
         : name == "--outputs" ? options.outputs
                               : options.expect) = value;
    } else if (name == "--max-new-tokens") {
      valid = parseInt(text, options.maxNewTokens) && options.maxNewTokens >= 1;
      expected = "a positive integer";
    } else if (name == "--temperature") {
      valid = parseDouble(text, options.sampling.temperature);
      expected = "a non-negative number (0: greedy)";
    } else if (name == "--top-k") {
      valid = parseInt(text, options.sampling.topK);
    } else if (name == "--top-p") {
      valid = parseDouble(text, options.sampling.topP) &&
              options.sampling.topP > 0 && options.sampling.topP <= 1;
      expected = "a number in (0, 1]";
    } else if (name == "--tol") {
      valid = parseDouble(text, options.tol);
      expected = "a non-negative number";
    } else if (name == "--seed") {
      valid = parseUnsigned(text, options.sampling.seed);
    } else {
      valid = parseInt(text, name == "--eos" ? options.eos : options.pad);
    }
    if (!valid) {
      error = "invalid value '" + value + "' for " + name + " (expected " +
              expected + ")";
      return ParseResult::Error;
    }
  }
  if (options.inputs.empty() || options.prompt.empty()) {
    error = "--inputs WEIGHTS and --prompt FILE are needed";
    return ParseResult::Error;
  }
  if (options.sampling.temperature == 0 &&
      (options.sampling.topK > 0 || options.sampling.topP < 1)) {
    error = "--top-k and --top-p sample: give --temperature T (> 0) too";
    return ParseResult::Error;
  }
  if (options.pad < 0)
    options.pad = options.eos;
  return ParseResult::Run;
}

void printGenerateUsage(const char *argv0, const SummaGenerateDesc &generator) {
  const SummaProgramDesc &decode = *generator.decode;
  long long q = decode.q, d = decode.d;
  std::printf(
      "usage: %s --inputs WEIGHTS --prompt PROMPT [--max-new-tokens N]\n"
      "       [--temperature T [--top-k K] [--top-p P] [--seed S]] [--eos ID "
      "[--pad ID]]\n"
      "       [--outputs OUT.safetensors [--save-logits]] [--expect FILE "
      "[--tol T]] [--help]\n"
      "\n"
      "Generates text with '%s' (prefill '%s'), compiled for the grid "
      "[%lld,%lld,%lld]\n"
      "and sequences of at most %lld tokens; launch it as\n"
      "  mpirun -np %lld %s [options]\n"
      "\n"
      "options:\n"
      "  --inputs WEIGHTS  the weights by name: safetensors, a directory of "
      ".npy files,\n"
      "             or a training checkpoint (--checkpoint's step<N>, any "
      "grid); again\n"
      "             to add a file\n"
      "  --prompt PROMPT  a safetensors file holding input_ids [B, P'] "
      "(integers; P' at\n"
      "             least the compiled prompt length %lld); an "
      "attention_mask must be all ones\n"
      "  --max-new-tokens N  tokens to generate per row (default: up to "
      "the longest\n"
      "             sequence)\n"
      "  --temperature T  sample from softmax(logits / T) (default 0: "
      "greedy)\n"
      "  --top-k K  keep the K largest logits (default 0: all)\n"
      "  --top-p P  keep the fewest largest whose probabilities reach P "
      "(default 1)\n"
      "  --seed S   the seed of the draws: the same tokens on every grid "
      "(default 0)\n"
      "  --eos ID   a row ends at ID; generation stops when every row has "
      "ended;\n"
      "             later tokens of an ended row are --pad (default: ID)\n"
      "  --outputs OUT.safetensors  rank 0 writes sequences [B, P' + N] "
      "(i64), and with\n"
      "             --save-logits the logits of every new token, scores [N, "
      "B, V] (f32)\n"
      "  --expect FILE  exit status 1 unless the sequences equal FILE's "
      "`sequences` (and,\n"
      "             with --save-logits, every logit is within --tol of "
      "FILE's `scores`)\n"
      "  --tol T    --expect's bound on the logits' absolute error "
      "(default 1e-4)\n",
      argv0, decode.name ? decode.name : "(unnamed)",
      generator.prefill->name ? generator.prefill->name : "(unnamed)", q, q, d,
      (long long)generator.maxLength, q * q * d, argv0,
      (long long)generator.prefill->inputs[0].globalShape[1]);
  std::fflush(stdout);
}

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

/// Integer ids [rows, columns] (whole, host) into an integer input's tile.
void setIds(const Backend &backend, const Tensor &input, void *tile,
            const std::vector<int64_t> &ids) {
  HostBuffer whole(input.globalBytes(), "the ids of '" + input.name + "'");
  for (size_t i = 0; i < ids.size(); ++i)
    input.store(whole.data(), static_cast<int64_t>(i),
                static_cast<double>(ids[i]));
  uploadTile(backend, input, grid().coords, whole.data(), tile);
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

std::string formatBytes(double bytes) {
  char text[32];
  if (bytes >= 1e6)
    std::snprintf(text, sizeof(text), "%.2f MB", bytes / 1e6);
  else if (bytes >= 1e3)
    std::snprintf(text, sizeof(text), "%.1f KB", bytes / 1e3);
  else
    std::snprintf(text, sizeof(text), "%.0f B", bytes);
  return text;
}

/// "moved X per rank (broadcast A, ...)" of a phase, divided by `per`.
std::string formatMoved(const std::vector<int64_t> &bytes, double per) {
  int64_t total = 0;
  for (int64_t b : bytes)
    total += b;
  std::string line = formatBytes(total / per) + " (";
  for (int kind = 0; kind < kNumCollectiveKinds; ++kind)
    line += std::string(kind ? ", " : "") +
            collectiveName(static_cast<CollectiveKind>(kind)) + " " +
            formatBytes(bytes[kind] / per);
  return line + ")";
}

/// The prompt: `input_ids` [B, P'] from the file, as int64, checked.
std::vector<int64_t> readPrompt(const std::string &path, int64_t rows,
                                int64_t &columns) {
  std::string error;
  std::unique_ptr<TensorSource> file = TensorSource::open(path, error);
  if (!file)
    fatal("%s: --prompt: %s", kCaller, error.c_str());
  const StoredTensor *ids = file->find("input_ids");
  if (!ids || !ids->data)
    fatal("%s: --prompt '%s' has no tensor named input_ids", kCaller,
          path.c_str());
  if (ids->dtype != SUMMA_DT_I64 && ids->dtype != SUMMA_DT_I32)
    fatal("%s: --prompt '%s': input_ids has element type %s; expected I64 or "
          "I32",
          kCaller, path.c_str(), ids->dtypeName.c_str());
  if (ids->shape.size() != 2 || ids->shape[0] != rows || ids->shape[1] < 1)
    fatal("%s: --prompt '%s': input_ids has shape %s; the program generates "
          "%lld rows ([%lld, P])",
          kCaller, path.c_str(),
          formatShape(ids->shape.data(), ids->shape.size()).c_str(),
          (long long)rows, (long long)rows);
  columns = ids->shape[1];
  std::vector<int64_t> values(rows * columns);
  for (size_t i = 0; i < values.size(); ++i) {
    if (ids->dtype == SUMMA_DT_I64)
      std::memcpy(&values[i], ids->data + 8 * i, 8);
    else {
      int32_t v;
      std::memcpy(&v, ids->data + 4 * i, 4);
      values[i] = v;
    }
  }
  if (const StoredTensor *mask = file->find("attention_mask")) {
    bool ones = mask->data && mask->shape == ids->shape &&
                (mask->dtype == SUMMA_DT_I64 || mask->dtype == SUMMA_DT_I32);
    size_t size = mask->dtype == SUMMA_DT_I64 ? 8 : 4;
    for (size_t i = 0; ones && i < values.size(); ++i) {
      int64_t v = 0;
      std::memcpy(&v, mask->data + size * i, size);
      ones = (size == 4 ? static_cast<int32_t>(v) : v) == 1;
    }
    if (!ones)
      fatal("%s: --prompt '%s': its attention_mask is not all ones; prompts "
            "of different lengths (padded) are not supported yet: give rows "
            "of one length",
            kCaller, path.c_str());
  }
  return values;
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
} // namespace

int summa::rt::driver::generate(int argc, char **argv,
                                const SummaGenerateDesc *generator,
                                const Backend &backend) {
  if (!generator || !generator->prefill || !generator->decode)
    fatal("%s: no generator description", kCaller);
  const SummaProgramDesc &prefillDesc = *generator->prefill;
  const SummaProgramDesc &decodeDesc = *generator->decode;
  if (prefillDesc.q != decodeDesc.q || prefillDesc.d != decodeDesc.d ||
      prefillDesc.numInputs < 1 || decodeDesc.numInputs < 2 ||
      prefillDesc.numOutputs < 1 || decodeDesc.numOutputs < 1)
    fatal("%s: invalid generator description", kCaller);
  const char *argv0 = argc > 0 && argv && argv[0] ? argv[0] : "summa-generate";

  GenerateOptions options;
  std::string error;
  switch (parseGenerateOptions(argc, argv, options, error)) {
  case ParseResult::Help:
    if (launcherRank() == 0)
      printGenerateUsage(argv0, *generator);
    return 0;
  case ParseResult::Error:
    return reportOptionError(argc, argv, argv0, error);
  case ParseResult::Run:
    break;
  }

  summaRtInit(&argc, &argv, decodeDesc.q, decodeDesc.d);
  const GridState &g = grid();
  int status = 0;
  {
    Model decode(decodeDesc, backend);
    const Tensor &tokenInput = decode.inputs[0];
    int64_t rows = tokenInput.desc->globalShape[0];
    checkIdsInput(tokenInput, rows, 1, "decode step");
    const Tensor &posInput = decode.inputs[1];
    if (posInput.rank != 0 || posInput.desc->dtype != SUMMA_DT_I64)
      fatal("%s: the decode step's input 1 '%s' is not a position (i64 [])",
            kCaller, posInput.name.c_str());
    std::vector<bool> state(decode.inputs.size(), false);
    for (size_t o = 0; o < decode.outputs.size(); ++o) {
      int32_t updates = decode.outputs[o].desc->updates;
      if (updates <= 0)
        continue;
      state[updates - 1] = true;
      // The caches are updated in place: the step writes the token's keys
      // and values into its argument and returns it, so its result is the
      // argument's tile, never copied per token.
      if (decode.inputs[updates - 1].rank > 0)
        decode.aliasOutput(o);
    }
    if (!state[1])
      fatal("%s: the decode step does not update its position", kCaller);

    // The prompt.
    int64_t promptLength = 0;
    std::vector<int64_t> prompt =
        readPrompt(options.prompt, rows, promptLength);
    int64_t compiled = prefillDesc.inputs[0].globalShape[1];
    if (promptLength < compiled)
      fatal("%s: --prompt has %lld tokens per row; this generator's prefill "
            "takes %lld (summa-compile --prompt-length): give at least as "
            "many",
            kCaller, (long long)promptLength, (long long)compiled);
    int64_t room = generator->maxLength - promptLength;
    if (room < 1)
      fatal("%s: --prompt has %lld tokens per row; the program's sequences "
            "hold %lld, prompt and new tokens",
            kCaller, (long long)promptLength, (long long)generator->maxLength);
    int64_t newTokens = options.maxNewTokens < 0 ? room : options.maxNewTokens;
    if (newTokens > room)
      fatal("%s: --max-new-tokens %lld: the prompt's %lld tokens leave room "
            "for %lld in the program's sequences of %lld (the export's "
            "sequence length)",
            kCaller, (long long)newTokens, (long long)promptLength,
            (long long)room, (long long)generator->maxLength);

    // The weights, once: into the decode step's tiles.
    std::unique_ptr<TensorSource> source =
        TensorSource::openAll(options.inputs, error);
    if (!source)
      fatal("%s: --inputs: %s", kCaller, error.c_str());
    Placement decodeTiles{backend, decode.pointers, g.coords};
    std::string missing;
    for (size_t i = 2; i < decode.inputs.size(); ++i) {
      if (state[i])
        continue;
      const StoredTensor *stored = findStored(*source, decode.inputs[i]);
      if (!stored) {
        missing +=
            (missing.empty() ? "'" : ", '") + decode.inputs[i].fileName + "'";
        continue;
      }
      loadStored(*source, *stored, decode.inputs[i], decodeTiles, i);
    }
    if (!missing.empty())
      fatal("%s: --inputs has no tensor named %s", kCaller, missing.c_str());

    std::vector<int64_t> sequences(rows * (promptLength + newTokens), 0);
    int64_t width = promptLength + newTokens;
    for (int64_t r = 0; r < rows; ++r)
      std::copy(prompt.begin() + r * promptLength,
                prompt.begin() + (r + 1) * promptLength,
                sequences.begin() + r * width);
    // --save-logits: every new token's logits, on rank 0.
    std::vector<float> scores;
    auto keepLogits = [&](const Model &model) {
      const Tensor &logits = model.outputs[0];
      HostBuffer whole =
          gatherWhole(backend, logits, model.outputTile(0), "--save-logits");
      if (g.worldRank != 0)
        return;
      for (int64_t i = 0; i < logits.globalCount; ++i)
        scores.push_back(static_cast<float>(logits.load(whole.data(), i)));
    };

    // The prefill on the first `compiled` tokens; its state into the
    // decode step's tiles.
    std::vector<int64_t> next;
    double prefillSeconds = 0.0;
    std::vector<int64_t> prefillBytes;
    {
      Model prefill(prefillDesc, backend);
      checkIdsInput(prefill.inputs[0], rows, compiled, "prefill");
      Placement prefillTiles{backend, prefill.pointers, g.coords};
      for (size_t i = 1; i < prefill.inputs.size(); ++i) {
        const Tensor &input = prefill.inputs[i];
        int j = decode.findInput(input.fileName);
        if (j >= 2 && !state[j] && sameLayout(input, decode.inputs[j])) {
          prefill.shareInput(i, decode.inputTile(j));
          continue;
        }
        const StoredTensor *stored = findStored(*source, input);
        if (!stored)
          fatal("%s: --inputs has no tensor named '%s' (an input of the "
                "prefill)",
                kCaller, input.fileName.c_str());
        loadStored(*source, *stored, input, prefillTiles, i);
      }
      std::vector<int64_t> ids(rows * compiled);
      for (int64_t r = 0; r < rows; ++r)
        std::copy(prompt.begin() + r * promptLength,
                  prompt.begin() + r * promptLength + compiled,
                  ids.begin() + r * compiled);
      setIds(backend, prefill.inputs[0], prefill.inputTile(0), ids);
      Sampler sampler(prefill.outputs[0], g.coords, options.sampling, g.world);
      settle(backend);
      SUMMA_MPI_CHECK(MPI_Barrier(g.world));
      ProfileSnapshot before = profileSnapshot();
      double start = MPI_Wtime();
      prefill.call();
      {
        HostView logits(backend, prefill.outputTile(0),
                        prefill.outputs[0].localBytes(), "the logits");
        next = sampler.next(logits.data(), compiled);
      }
      prefillSeconds = MPI_Wtime() - start;
      prefillBytes = movedSince(before);
      if (compiled == promptLength && options.saveLogits)
        keepLogits(prefill);
      for (size_t i = 0; i < decode.inputs.size(); ++i) {
        if (!state[i])
          continue;
        int o = -1;
        for (size_t k = 1; k < prefill.outputs.size(); ++k)
          if (prefill.outputs[k].fileName == decode.inputs[i].fileName)
            o = static_cast<int>(k);
        if (o < 1)
          fatal("%s: the prefill has no output '%s' for the decode step",
                kCaller, decode.inputs[i].fileName.c_str());
        relayTile(backend, prefill.outputs[o], prefill.outputTile(o),
                  decode.inputs[i], decode.inputTile(i));
      }
    } // The prefill's tiles go back.

    Sampler sampler(decode.outputs[0], g.coords, options.sampling, g.world);
    std::vector<int64_t> tokens(rows);
    auto step = [&](const std::vector<int64_t> &input, int64_t position) {
      setIds(backend, tokenInput, decode.inputTile(0), input);
      decode.call();
      decode.feedBack();
      HostView logits(backend, decode.outputTile(0),
                      decode.outputs[0].localBytes(), "the logits");
      return sampler.next(logits.data(), position);
    };
    SUMMA_MPI_CHECK(MPI_Barrier(g.world));
    ProfileSnapshot before = profileSnapshot();
    double start = MPI_Wtime();
    // The rest of the prompt, one token at a time.
    for (int64_t at = compiled; at < promptLength; ++at) {
      for (int64_t r = 0; r < rows; ++r)
        tokens[r] = prompt[r * promptLength + at];
      next = step(tokens, at + 1);
      if (at + 1 == promptLength && options.saveLogits)
        keepLogits(decode);
    }
    std::vector<bool> ended(rows, false);
    int64_t generated = 0;
    int64_t decodeCalls = 0;
    for (;;) {
      bool all = true;
      for (int64_t r = 0; r < rows; ++r) {
        if (ended[r])
          next[r] = options.pad;
        sequences[r * width + promptLength + generated] = next[r];
        ended[r] = ended[r] || next[r] == options.eos;
        all = all && ended[r];
      }
      ++generated;
      if (generated == newTokens || (options.eos >= 0 && all))
        break;
      next = step(next, promptLength + generated);
      ++decodeCalls;
      if (options.saveLogits)
        keepLogits(decode);
    }
    settle(backend);
    double decodeSeconds = MPI_Wtime() - start;
    std::vector<int64_t> decodeBytes = movedSince(before);

    if (g.worldRank == 0) {
      int64_t calls = decodeCalls + (promptLength - compiled);
      double perToken = calls > 0 ? decodeSeconds / calls : 0.0;
      std::printf("generate: %lld rows, prompt %lld, %lld new tokens (grid "
                  "[%lld,%lld,%lld])\n",
                  (long long)rows, (long long)promptLength,
                  (long long)generated, (long long)g.q, (long long)g.q,
                  (long long)g.d);
      std::printf("generate: prefill %.2f ms, decode %.2f ms/token, %.1f "
                  "tokens/s\n",
                  prefillSeconds * 1e3, perToken * 1e3,
                  rows * generated / (prefillSeconds + decodeSeconds));
      std::printf("generate: per rank, the prefill moved %s\n",
                  formatMoved(prefillBytes, 1.0).c_str());
      if (calls > 0)
        std::printf(
            "generate: per rank and token, the decode moved %s\n",
            formatMoved(decodeBytes, static_cast<double>(calls)).c_str());
      int64_t length = promptLength + generated;
      for (int64_t r = 0; r < std::min<int64_t>(rows, 8); ++r) {
        std::string line = "sequence " + std::to_string(r) + ":";
        for (int64_t i = 0; i < length; ++i)
          line += " " + std::to_string(sequences[r * width + i]);
        std::printf("%s\n", line.c_str());
      }
      std::fflush(stdout);
      // HF's sequences end where generation stopped.
      std::vector<int64_t> written(rows * length);
      for (int64_t r = 0; r < rows; ++r)
        std::copy(sequences.begin() + r * width,
                  sequences.begin() + r * width + length,
                  written.begin() + r * length);
      if (!options.outputs.empty()) {
        std::vector<TensorToWrite> files = {{"sequences",
                                             SUMMA_DT_I64,
                                             {rows, length},
                                             written.data(),
                                             written.size() * sizeof(int64_t)}};
        if (options.saveLogits)
          files.push_back(
              {"scores",
               SUMMA_DT_F32,
               {generated, rows, decode.outputs[0].desc->globalShape[2]},
               scores.data(),
               scores.size() * sizeof(float)});
        if (!writeSafetensors(options.outputs, files, error))
          fatal("%s: --outputs: %s", kCaller, error.c_str());
      }
      if (!options.expect.empty()) {
        std::unique_ptr<TensorSource> expect =
            TensorSource::open(options.expect, error);
        if (!expect)
          fatal("%s: --expect: %s", kCaller, error.c_str());
        const StoredTensor *want = expect->find("sequences");
        if (!want || !want->data || want->dtype != SUMMA_DT_I64)
          fatal("%s: --expect '%s' has no i64 tensor named sequences", kCaller,
                options.expect.c_str());
        bool same = want->shape == std::vector<int64_t>{rows, length} &&
                    std::memcmp(want->data, written.data(),
                                written.size() * sizeof(int64_t)) == 0;
        std::printf("expect: sequences %s\n", same ? "PASS" : "FAIL");
        status = same ? 0 : 1;
        // The logits of every new token, where both have them.
        const StoredTensor *logits = expect->find("scores");
        if (options.saveLogits && logits && logits->data &&
            logits->dtype == SUMMA_DT_F32) {
          bool close =
              logits->shape.size() == 3 && logits->shape[1] == rows &&
              logits->shape[0] * logits->shape[1] * logits->shape[2] >=
                  static_cast<int64_t>(scores.size()) &&
              logits->shape[2] == decode.outputs[0].desc->globalShape[2];
          double worst = 0.0;
          for (size_t i = 0; close && i < scores.size(); ++i) {
            float v;
            std::memcpy(&v, logits->data + 4 * i, 4);
            worst = std::max(worst, std::fabs(double(v) - scores[i]));
          }
          close = close && worst <= options.tol;
          std::printf("expect: scores max_abs_err=%.3e (--tol %.1e) %s\n",
                      worst, options.tol, close ? "PASS" : "FAIL");
          status = status ? status : (close ? 0 : 1);
        }
      }
    }
    SUMMA_MPI_CHECK(MPI_Bcast(&status, 1, MPI_INT, 0, g.world));
  }
  summaRtFinalize();
  return status;
}
