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
#include "Generator.h"
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
  /// --prompt: `input_ids` [B, P'] (and an `attention_mask`, left-padded).
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
  /// -v: rank 0 names what computes the local products.
  bool verbose = false;
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
    if (arg == "-v" || arg == "--verbose") {
      options.verbose = true;
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
      "[--tol T]] [-v] [--help]\n"
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
      "             least the compiled prompt length %lld) and, for "
      "rows of different\n"
      "             lengths, an attention_mask [B, P'] left-padded as "
      "Hugging Face pads them\n"
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
      "(default 1e-4)\n"
      "  -v, --verbose  name what computes the local products at the "
      "start\n",
      argv0, decode.name ? decode.name : "(unnamed)",
      generator.prefill->name ? generator.prefill->name : "(unnamed)", q, q, d,
      (long long)generator.maxLength, q * q * d, argv0,
      (long long)generator.prefill->inputs[0].globalShape[1]);
  std::fflush(stdout);
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

/// The prompt: `input_ids` [B, P'] from the file, as int64, checked; each
/// row's `start`, the slot of its first token (the zeros its
/// `attention_mask` begins with; 0 without one).
std::vector<int64_t> readPrompt(const std::string &path, int64_t rows,
                                int64_t &columns,
                                std::vector<int64_t> &starts) {
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
  starts.assign(rows, 0);
  if (const StoredTensor *mask = file->find("attention_mask")) {
    if (!mask->data || mask->shape != ids->shape ||
        (mask->dtype != SUMMA_DT_I64 && mask->dtype != SUMMA_DT_I32))
      fatal("%s: --prompt '%s': its attention_mask is not integers (I64 or "
            "I32) of input_ids' shape %s",
            kCaller, path.c_str(),
            formatShape(ids->shape.data(), ids->shape.size()).c_str());
    std::vector<int64_t> maskValues(rows * columns);
    for (size_t i = 0; i < maskValues.size(); ++i) {
      if (mask->dtype == SUMMA_DT_I64) {
        std::memcpy(&maskValues[i], mask->data + 8 * i, 8);
      } else {
        int32_t v;
        std::memcpy(&v, mask->data + 4 * i, 4);
        maskValues[i] = v;
      }
    }
    std::string error;
    if (!startsFromMask(maskValues, rows, columns, starts, error))
      fatal("%s: --prompt '%s': %s", kCaller, path.c_str(), error.c_str());
  }
  return values;
}

/// --expect: whether the sequences [rows, length] equal the file's
/// `sequences` and, with --save-logits, `scores` are within --tol of its
/// `scores`; prints each verdict. On rank 0. Returns the exit status.
int compareExpected(const GenerateOptions &options,
                    const std::vector<int64_t> &written,
                    const std::vector<float> &scores, int64_t rows,
                    int64_t length, int64_t vocabulary) {
  std::string error;
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
  int status = same ? 0 : 1;
  // The logits of every new token, where both have them.
  const StoredTensor *logits = expect->find("scores");
  if (options.saveLogits && logits && logits->data &&
      logits->dtype == SUMMA_DT_F32) {
    bool close = logits->shape.size() == 3 && logits->shape[1] == rows &&
                 logits->shape[0] * logits->shape[1] * logits->shape[2] >=
                     static_cast<int64_t>(scores.size()) &&
                 logits->shape[2] == vocabulary;
    double worst = 0.0;
    for (size_t i = 0; close && i < scores.size(); ++i) {
      float v;
      std::memcpy(&v, logits->data + 4 * i, 4);
      worst = std::max(worst, std::fabs(double(v) - scores[i]));
    }
    close = close && worst <= options.tol;
    std::printf("expect: scores max_abs_err=%.3e (--tol %.1e) %s\n", worst,
                options.tol, close ? "PASS" : "FAIL");
    status = status ? status : (close ? 0 : 1);
  }
  std::fflush(stdout);
  return status;
}
} // namespace

int summa::rt::driver::generate(int argc, char **argv,
                                const SummaGenerateDesc *generator,
                                const Backend &backend) {
  if (!generator || !generator->prefill || !generator->decode)
    fatal("%s: no generator description", kCaller);
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

  summaRtInit(&argc, &argv, generator->decode->q, generator->decode->d);
  const GridState &g = grid();
  int status = 0;
  {
    Generator gen(*generator, backend);
    int64_t rows = gen.rows();
    if (options.verbose && g.worldRank == 0) {
      std::printf("summa: local products: %s\n", summaRtKernelInfo(0));
      std::fflush(stdout);
    }
    // The prompt, and each row's start (left padding).
    int64_t promptLength = 0;
    std::vector<int64_t> starts;
    std::vector<int64_t> prompt =
        readPrompt(options.prompt, rows, promptLength, starts);
    if (!gen.takesStarts() && std::any_of(starts.begin(), starts.end(),
                                          [](int64_t s) { return s != 0; }))
      fatal("%s: --prompt's attention_mask pads rows, and this generator "
            "takes no rows' starts (derived without left-padding)",
            kCaller);
    int64_t newTokens = options.maxNewTokens;
    if (!gen.fits(promptLength, newTokens, error))
      fatal("%s: %s", kCaller, error.c_str());

    // The weights, once.
    std::unique_ptr<TensorSource> source =
        TensorSource::openAll(options.inputs, error);
    if (!source)
      fatal("%s: --inputs: %s", kCaller, error.c_str());
    std::string missing = gen.load(*source);
    if (!missing.empty())
      fatal("%s: --inputs has no tensor named %s", kCaller, missing.c_str());
    source.reset();

    // The prefill's tiles go back after it.
    Generation run = gen.generate(prompt, promptLength, starts, newTokens,
                                  options.sampling, options.eos, options.pad,
                                  options.saveLogits, /*release=*/true);
    int64_t length = run.length;
    if (g.worldRank == 0) {
      double perToken =
          run.decodeCalls > 0 ? run.decodeSeconds / run.decodeCalls : 0.0;
      std::printf("generate: %lld rows, prompt %lld, %lld new tokens (grid "
                  "[%lld,%lld,%lld])\n",
                  (long long)rows, (long long)promptLength,
                  (long long)run.generated, (long long)g.q, (long long)g.q,
                  (long long)g.d);
      std::printf("generate: prefill %.2f ms, decode %.2f ms/token, %.1f "
                  "tokens/s\n",
                  run.prefillSeconds * 1e3, perToken * 1e3,
                  rows * run.generated /
                      (run.prefillSeconds + run.decodeSeconds));
      std::printf("generate: per rank, the prefill moved %s\n",
                  formatMoved(run.prefillBytes, 1.0).c_str());
      if (run.decodeCalls > 0)
        std::printf(
            "generate: per rank and token, the decode moved %s\n",
            formatMoved(run.decodeBytes, static_cast<double>(run.decodeCalls))
                .c_str());
      for (int64_t r = 0; r < std::min<int64_t>(rows, 8); ++r) {
        std::string line = "sequence " + std::to_string(r) + ":";
        for (int64_t i = 0; i < length; ++i)
          line += " " + std::to_string(run.sequences[r * length + i]);
        std::printf("%s\n", line.c_str());
      }
      std::fflush(stdout);
      const std::vector<int64_t> &written = run.sequences;
      const std::vector<float> &scores = run.scores;
      if (!options.outputs.empty()) {
        std::vector<TensorToWrite> files = {{"sequences",
                                             SUMMA_DT_I64,
                                             {rows, length},
                                             written.data(),
                                             written.size() * sizeof(int64_t)}};
        if (options.saveLogits)
          files.push_back({"scores",
                           SUMMA_DT_F32,
                           {run.generated, rows, gen.vocabulary()},
                           scores.data(),
                           scores.size() * sizeof(float)});
        if (!writeSafetensors(options.outputs, files, error))
          fatal("%s: --outputs: %s", kCaller, error.c_str());
      }
      if (!options.expect.empty())
        status = compareExpected(options, written, scores, rows, length,
                                 gen.vocabulary());
    }
    SUMMA_MPI_CHECK(MPI_Bcast(&status, 1, MPI_INT, 0, g.world));
  }
  summaRtFinalize();
  return status;
}
