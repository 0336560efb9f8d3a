//===- DriverCore.cpp - summaRtMain, shared by both backends ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The main that summa-compile links in (through each backend's summaRtMain):
// parses the options, initialises the runtime, fills each rank's input tiles
// with deterministic values, runs and times the spmd function and, with
// --check, compares its outputs with the unpartitioned reference run on
// rank 0.
//
// Input values are a pure function of (seed, input number, global index), so
// the tiles of the spmd run and the whole tensors of the reference agree
// without moving inputs between ranks.
//
//===----------------------------------------------------------------------===//

#include "DriverCore.h"
#include "DataLoader.h"
#include "Metrics.h"
#include "Model.h"
#include "ShardedCheckpoint.h"
#include "TensorFile.h"

#include "ElementType.h"
#include "Error.h"
#include "Grid.h"
#include "HalfFloat.h"
#include "Profile.h"
#include "SplitMix64.h"

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fnmatch.h>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace summa::rt;
using namespace summa::rt::driver;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

namespace {
struct Options {
  int64_t iters = 1;
  /// Steps of the checked computation: outputs that update an input are fed
  /// back before the next step.
  int64_t steps = 1;
  bool check = false;
  /// --check also fails if two ranks holding the same block differ at all.
  bool exactReplicas = false;
  uint64_t seed = 42;
  /// --tol; unset (NaN): by the output's element type (toleranceFor).
  double tol = std::numeric_limits<double>::quiet_NaN();
  /// --tol PATTERN=T: the tolerance of the outputs whose name matches the
  /// shell pattern (the first that matches), before --tol T.
  std::vector<std::pair<std::string, double>> namedTols;
  /// An output whose every element is within atol of the reference passes
  /// whatever its relative error: a gradient that is zero in exact
  /// arithmetic (a bias before a shift-invariant softmax) is rounding noise
  /// whose relative error means nothing.
  double atol = 1e-8;
  /// --dump: every rank writes the raw bytes of its output tiles after the
  /// checked steps to this path ("%r" replaced by the rank, otherwise
  /// ".rank<R>.bin" appended). Empty: no dump.
  std::string dump;
  /// --inputs: a safetensors file or a directory of .npy files the inputs
  /// are read from, by name. Empty: every input from the seed.
  std::string inputs;
  /// --fill-missing: inputs the file lacks come from the seed.
  bool fillMissing = false;
  /// --outputs: where the outputs are written after the checked steps: a
  /// .safetensors file of whole tensors (by rank 0), else a sharded
  /// directory (each rank its own boxes). Empty: none.
  std::string outputs;
  /// --checkpoint DIR --save-every K: after every K-th step, the state the
  /// next step starts from (every input, updated ones included) is written
  /// to the sharded directory DIR/step<N>, which --inputs loads again.
  std::string checkpoint;
  int64_t saveEvery = 0;
  /// --expect: a safetensors file (or .npy directory) of the outputs the
  /// framework computed; each output is compared with it by name, like
  /// --check compares with the reference. Empty: none.
  std::string expect;
  /// --data: a token file (DataLoader.h) each step's batch is read from.
  /// Empty: none.
  std::string data;
  /// --data-inputs: the comma-separated inputs --data feeds. Empty: the
  /// integer inputs of rank 2.
  std::string dataInputs;
  /// --vocab V: --data ids must be below V (0: not checked).
  int64_t vocab = 0;
  /// --log-every K: a progress line every K steps; -1: every step with
  /// --data, none without.
  int64_t logEvery = -1;
  /// --metrics FILE: a JSON line per step (Metrics.h). Empty: none.
  std::string metrics;
  /// --tensorboard DIR: an event file of the same numbers. Empty: none.
  std::string tensorboard;
};

enum class ParseResult { Run, Help, Error };

/// The rank the launcher gave this process. Options are parsed before MPI is
/// initialised (so that --help runs on any number of ranks), and this keeps
/// --help to one copy (an option error initialises MPI to say it once).
int launcherRank() {
  for (const char *name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                           "MV2_COMM_WORLD_RANK", "SLURM_PROCID"})
    if (const char *value = std::getenv(name))
      return std::atoi(value);
  return 0;
}

bool parseInt(const char *text, int64_t &value) {
  if (!*text || *text == '-' || *text == '+')
    return false;
  char *end = nullptr;
  errno = 0;
  long long parsed = std::strtoll(text, &end, 10);
  if (errno || *end)
    return false;
  value = parsed;
  return true;
}

bool parseUnsigned(const char *text, uint64_t &value) {
  if (!*text || *text == '-' || *text == '+')
    return false;
  char *end = nullptr;
  errno = 0;
  unsigned long long parsed = std::strtoull(text, &end, 10);
  if (errno || *end)
    return false;
  value = parsed;
  return true;
}

bool parseDouble(const char *text, double &value) {
  char *end = nullptr;
  errno = 0;
  double parsed = std::strtod(text, &end);
  if (!*text || errno || *end || !std::isfinite(parsed) || parsed < 0)
    return false;
  value = parsed;
  return true;
}

/// PATTERN=T of --tol: a shell pattern and a non-negative number.
bool parseNamedTol(const std::string &text,
                   std::vector<std::pair<std::string, double>> &tols) {
  size_t eq = text.rfind('=');
  double tol = 0;
  if (eq == 0 || !parseDouble(text.c_str() + eq + 1, tol))
    return false;
  tols.push_back({text.substr(0, eq), tol});
  return true;
}

ParseResult parseOptions(int argc, char **argv, Options &options,
                         std::string &error) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h")
      return ParseResult::Help;
    if (arg == "--check") {
      options.check = true;
      continue;
    }
    if (arg == "--exact-replicas") {
      options.exactReplicas = true;
      continue;
    }
    if (arg == "--fill-missing") {
      options.fillMissing = true;
      continue;
    }
    std::string name = arg.substr(0, arg.find('='));
    bool isPath = name == "--dump" || name == "--inputs" ||
                  name == "--outputs" || name == "--checkpoint" ||
                  name == "--expect" || name == "--data" ||
                  name == "--data-inputs" || name == "--metrics" ||
                  name == "--tensorboard";
    if (!isPath && name != "--iters" && name != "--seed" && name != "--tol" &&
        name != "--atol" && name != "--steps" && name != "--save-every" &&
        name != "--log-every" && name != "--vocab") {
      error = "unknown option '" + arg + "'";
      return ParseResult::Error;
    }
    std::string value;
    if (name.size() < arg.size()) {
      value = arg.substr(name.size() + 1);
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      error = "option '" + name + "' needs a value";
      return ParseResult::Error;
    }
    if (isPath) {
      if (value.empty()) {
        error = "option '" + name + "' needs a file name";
        return ParseResult::Error;
      }
      (name == "--dump"          ? options.dump
       : name == "--inputs"      ? options.inputs
       : name == "--outputs"     ? options.outputs
       : name == "--expect"      ? options.expect
       : name == "--data"        ? options.data
       : name == "--data-inputs" ? options.dataInputs
       : name == "--metrics"     ? options.metrics
       : name == "--tensorboard" ? options.tensorboard
                                 : options.checkpoint) = value;
      continue;
    }
    bool valid =
        name == "--iters" ? parseInt(value.c_str(), options.iters)
        : name == "--steps"
            ? parseInt(value.c_str(), options.steps) && options.steps >= 1
        : name == "--save-every" ? parseInt(value.c_str(), options.saveEvery) &&
                                       options.saveEvery >= 1
        : name == "--log-every"  ? parseInt(value.c_str(), options.logEvery)
        : name == "--vocab"
            ? parseInt(value.c_str(), options.vocab) && options.vocab >= 1
        : name == "--seed" ? parseUnsigned(value.c_str(), options.seed)
        : name == "--atol" ? parseDouble(value.c_str(), options.atol)
        : value.find('=') != std::string::npos
            ? parseNamedTol(value, options.namedTols)
            : parseDouble(value.c_str(), options.tol);
    if (!valid) {
      error =
          "invalid value '" + value + "' for " + name + " (expected " +
          (name == "--tol" || name == "--atol" ? "a non-negative number"
           : name == "--steps" || name == "--save-every" || name == "--vocab"
               ? "a positive integer"
               : "a non-negative integer") +
          ")";
      return ParseResult::Error;
    }
  }
  if (options.checkpoint.empty() != (options.saveEvery == 0)) {
    error = "--checkpoint DIR and --save-every K go together";
    return ParseResult::Error;
  }
  return ParseResult::Run;
}

void printUsage(const char *argv0, const SummaProgramDesc &program,
                const Backend &backend) {
  long long q = program.q, d = program.d;
  std::printf(
      "usage: %s [--iters N] [--check] [--steps N] [--exact-replicas] "
      "[--seed S]\n"
      "       [--tol T] [--atol A] [--dump FILE] [--inputs FILE] "
      "[--fill-missing]\n"
      "       [--outputs PATH] [--expect FILE] [--checkpoint DIR --save-every "
      "K]\n"
      "       [--data FILE [--data-inputs A[,B]] [--vocab V]] [--log-every K]\n"
      "       [--metrics FILE] [--tensorboard DIR] [--help]\n"
      "\n"
      "Runs the summa program '%s', compiled for the grid [%lld,%lld,%lld]%s; "
      "launch it as\n"
      "  mpirun -np %lld %s [options]\n"
      "\n"
      "options:\n"
      "  --iters N  time N calls after one warm-up call (default 1; 0: no "
      "timing)\n"
      "  --check    compare the outputs of the first call with the "
      "unpartitioned\n"
      "             reference run on rank 0; exit status 1 if they differ\n"
      "  --steps N  run N steps before checking; outputs that update an "
      "input\n"
      "             (new weights, optimizer state) replace it for the next "
      "step\n"
      "  --exact-replicas  --check also fails unless every rank holding "
      "the same\n"
      "             block of an output (e.g. depth replicas of a weight) "
      "agrees bit for bit\n"
      "  --seed S   seed of the input values (default 42)\n"
      "  --atol A   an output within A of the reference everywhere passes "
      "(default\n"
      "             1e-8; for outputs that are zero in exact arithmetic)\n"
      "  --tol NAME=T  the tolerance of the outputs whose name matches the\n"
      "             shell pattern NAME (e.g. '*.c_attn.bias=1e-2'), before "
      "--tol\n"
      "  --tol T    tolerance of --check on ||y - ref||_2 / ||ref||_2 "
      "(default 1e-5;\n"
      "             5e-3 for f16 and 3e-2 for bf16 outputs)\n"
      "  --dump FILE  every rank writes the raw bytes of its output tiles "
      "(in output\n"
      "             order, after the checked steps) to FILE.rank<R>.bin, or "
      "to FILE\n"
      "             with %%r replaced by R: compare two runs bit for bit\n"
      "  --inputs FILE  read the inputs from FILE (safetensors, or a "
      "directory of\n"
      "             <name>.npy files) by name: the function's argument names "
      "(summa.name),\n"
      "             else arg<N>; each rank reads only its tiles. Shapes and "
      "element\n"
      "             types must match; a missing input is an error\n"
      "  --fill-missing  inputs FILE lacks come from the seed\n"
      "  --outputs PATH  write the outputs after the checked steps: "
      "PATH.safetensors\n"
      "             whole (gathered on rank 0), any other PATH a directory "
      "each rank\n"
      "             writes its own boxes to (summa-ckpt makes it one "
      "file); an output\n"
      "             that updates an input takes its name\n"
      "  --expect FILE  compare the outputs after the checked steps with "
      "FILE's tensors\n"
      "             of the same names (e.g. the framework's outputs), with "
      "--tol and --atol;\n"
      "             exit status 1 if one differs\n"
      "  --checkpoint DIR --save-every K  after every K-th step write the "
      "next step's\n"
      "             inputs to DIR/step<N>, each rank its own boxes; --inputs "
      "resumes\n"
      "             from it on any grid (a training run continues with the "
      "batches\n"
      "             of step N+1)\n"
      "  --data FILE  train on token ids from FILE (raw uint16 as nanoGPT's "
      "prepare.py\n"
      "             writes, or a 1-D integer .npy): every step reads a new "
      "batch of\n"
      "             rows, drawn by --seed, into the integer [rows, seq] inputs "
      "(tokens,\n"
      "             then next tokens); each rank reads only its tiles' ids\n"
      "  --data-inputs A[,B]  the inputs --data feeds, by name\n"
      "  --vocab V  --data: an id outside [0, V) is an error (default: only "
      "negative ids)\n"
      "  --log-every K  print step, loss, tokens/s and ms/step every K steps "
      "(default:\n"
      "             every step with --data, never without; 0: never)\n"
      "  --metrics FILE  rank 0 writes a JSON object per step to FILE, a "
      "line each: step,\n"
      "             loss, lr, grad_norm, tokens/s, ms/step, bytes per "
      "collective kind,\n"
      "             peak RSS (a resumed run keeps the lines up to its "
      "checkpoint's step)\n"
      "  --tensorboard DIR  rank 0 writes the same as TensorBoard scalars "
      "to an event\n"
      "             file in DIR\n"
      "  --help     print this message\n"
      "\n"
      "environment:\n"
      "  SUMMA_PROFILE=path  write each rank's collective and matmul "
      "counters as JSON\n"
      "                      to path.rank<R>.json (or to path with %%r "
      "replaced by R)\n"
      "  SUMMA_KILL_AT=R:S[:checkpoint]  a testing aid: rank R kills itself "
      "(SIGKILL)\n"
      "                      before step S, or while it writes the "
      "checkpoint of step S;\n"
      "                      ignored when SUMMA_RESTART_COUNT (set by "
      "summa-run) is not 0\n"
      "%s",
      argv0, program.name ? program.name : "(unnamed)", q, q, d,
      backend.usageWhere, q * q * d, argv0, backend.usageEnvironment);
  std::fflush(stdout);
}
} // namespace

//===----------------------------------------------------------------------===//
// Tensors and buffers
//===----------------------------------------------------------------------===//

int64_t Tensor::blockIndex(int dim, const int64_t coords[3]) const {
  int64_t index = 0;
  for (int slot = 0; slot < 3 && desc->splitAxes[dim][slot] >= 0; ++slot) {
    int axis = desc->splitAxes[dim][slot];
    index = index * axisExtent(axis) + coords[axis];
  }
  return index;
}

int64_t Tensor::blockKey(const int64_t coords[3]) const {
  int64_t key = 0;
  for (int dim = 0; dim < rank; ++dim)
    key = key * blocks[dim] + blockIndex(dim, coords);
  return key;
}

double Tensor::load(const void *data, int64_t i) const {
  switch (desc->dtype) {
  case SUMMA_DT_F64:
    return static_cast<const double *>(data)[i];
  case SUMMA_DT_F16:
    return halfToFloat(static_cast<const uint16_t *>(data)[i]);
  case SUMMA_DT_BF16:
    return bfloat16ToFloat(static_cast<const uint16_t *>(data)[i]);
  case SUMMA_DT_I64:
    return static_cast<double>(static_cast<const int64_t *>(data)[i]);
  case SUMMA_DT_I32:
    return static_cast<double>(static_cast<const int32_t *>(data)[i]);
  default:
    return static_cast<const float *>(data)[i];
  }
}

void Tensor::store(void *data, int64_t i, double value) const {
  if (desc->dtype == SUMMA_DT_F64)
    static_cast<double *>(data)[i] = value;
  else if (desc->dtype == SUMMA_DT_I64)
    static_cast<int64_t *>(data)[i] = static_cast<int64_t>(std::floor(value));
  else if (desc->dtype == SUMMA_DT_I32)
    static_cast<int32_t *>(data)[i] = static_cast<int32_t>(std::floor(value));
  // 16-bit floats through float, as the GPU backend's fill rounds them.
  else if (desc->dtype == SUMMA_DT_F16)
    static_cast<uint16_t *>(data)[i] = floatToHalf(static_cast<float>(value));
  else if (desc->dtype == SUMMA_DT_BF16)
    static_cast<uint16_t *>(data)[i] =
        floatToBFloat16(static_cast<float>(value));
  else
    static_cast<float *>(data)[i] = static_cast<float>(value);
}

float summaRtInputValue(uint64_t seed, int32_t tensor, int64_t globalIndex) {
  return inputValue(seed, tensor, globalIndex);
}

void summa::rt::driver::fillHost(const Tensor &tensor, int index, uint64_t seed,
                                 const int64_t *coords, void *data) {
  double scale = tensor.desc->scale;
  bool nonnegative = tensor.desc->init == SUMMA_INIT_NONNEGATIVE;
  if (tensor.desc->init == SUMMA_INIT_ZEROS) {
    std::memset(data, 0, coords ? tensor.localBytes() : tensor.globalBytes());
    return;
  }
  tensor.forEachElement(coords, [&](int64_t local, int64_t global) {
    double value = summaRtInputValue(seed, index, global);
    // [-1, 1) -> [0, 1) for tensors that must not be negative.
    if (nonnegative)
      value = 0.5 * (value + 1.0);
    tensor.store(data, local, value * scale);
  });
}

namespace {
void hostCopy(void *dst, const void *src, size_t bytes) {
  std::memcpy(dst, src, bytes);
}
} // namespace

const Backend &summa::rt::driver::hostBackend() {
  static const Backend host = {
      /*usageWhere=*/"",
      /*usageEnvironment=*/"",
      anyElementSize,
      /*announce=*/nullptr,
      allocateHost,
      std::free,
      fillHost,
      hostCopy,
      /*toHost=*/nullptr,
      /*fromHost=*/nullptr,
      /*settle=*/nullptr,
  };
  return host;
}

size_t summa::rt::driver::anyElementSize(const SummaTensorDesc &desc,
                                         const char *role, const char *name) {
  if (size_t size = dtypeSize(desc.dtype))
    return size;
  fatal("summaRtMain: %s '%s' has an invalid element type %d", role, name,
        desc.dtype);
}

void *summa::rt::driver::allocateHost(size_t bytes, const std::string &what) {
  size_t rounded = std::max<size_t>(64, (bytes + 63) / 64 * 64);
  void *data =
      bytes > SIZE_MAX - 63 ? nullptr : std::aligned_alloc(64, rounded);
  if (!data)
    fatal("summaRtMain: cannot allocate %zu bytes for %s (out of memory)",
          bytes, what.c_str());
  std::memset(data, 0, rounded);
  return data;
}

Tensor summa::rt::driver::analyseTensor(const SummaTensorDesc &desc,
                                        const char *role, int index,
                                        const Backend &backend) {
  const char *caller = "summaRtMain";
  Tensor tensor;
  tensor.desc = &desc;
  tensor.name =
      desc.name ? desc.name : std::string(role) + " #" + std::to_string(index);
  tensor.fileName = desc.label && *desc.label ? desc.label : tensor.name;
  const char *name = tensor.name.c_str();
  if (desc.rank < 0 || desc.rank > SUMMA_MAX_RANK)
    fatal("%s: %s '%s' has rank %d (expected 0..%d)", caller, role, name,
          desc.rank, SUMMA_MAX_RANK);
  tensor.rank = desc.rank;
  tensor.elementSize = backend.elementSize(desc, role, name);
  if (!std::isfinite(desc.scale))
    fatal("%s: %s '%s' has a non-finite scale", caller, role, name);

  unsigned usedAxes = 0;
  for (int dim = 0; dim < tensor.rank; ++dim) {
    for (int slot = 0; slot < 3; ++slot) {
      int axis = desc.splitAxes[dim][slot];
      if (axis == -1)
        break;
      if (axis < 0 || axis > 2)
        fatal("%s: %s '%s' dimension %d is split by invalid axis %d", caller,
              role, name, dim, axis);
      if (usedAxes & (1u << axis))
        fatal("%s: %s '%s' is split twice by grid axis %d", caller, role, name,
              axis);
      usedAxes |= 1u << axis;
      tensor.blocks[dim] *= axisExtent(axis);
    }
    int64_t local = desc.localShape[dim];
    int64_t groups = desc.groups[dim] <= 0 ? 1 : desc.groups[dim];
    if (groups > 1 && (desc.splitAxes[dim][0] < 0 || local % groups != 0))
      fatal("%s: %s '%s' dimension %d is factored into %lld groups, which "
            "needs a split and a local size (%lld) they divide",
            caller, role, name, dim, (long long)groups, (long long)local);
    tensor.groups[dim] = groups;
    // Blocks of ceil(global / blocks) elements, the last ones padded where
    // the blocks do not divide the dimension (not when factored).
    int64_t global = desc.globalShape[dim], padded = 0;
    if (local < 0 || global < 0 ||
        __builtin_mul_overflow(local, tensor.blocks[dim], &padded) ||
        (groups > 1
             ? padded != global
             : local != (global + tensor.blocks[dim] - 1) / tensor.blocks[dim]))
      fatal("%s: %s '%s' dimension %d: local size %lld is not the global "
            "size %lld over the %lld blocks of its split axes",
            caller, role, name, dim, (long long)local, (long long)global,
            (long long)tensor.blocks[dim]);
    // A tensor whose element or byte count does not fit in 64 bits would
    // wrap around (to a small, wrong count) instead of failing to allocate.
    if (__builtin_mul_overflow(tensor.localCount, local, &tensor.localCount) ||
        __builtin_mul_overflow(tensor.globalCount, global, &tensor.globalCount))
      fatal("%s: %s '%s' has more elements than fit in 64 bits (dimension "
            "%d: local size %lld, global size %lld)",
            caller, role, name, dim, (long long)local, (long long)global);
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(tensor.globalCount,
                             static_cast<int64_t>(tensor.elementSize), &bytes))
    fatal("%s: %s '%s' has %lld elements of %d bytes, more bytes than fit in "
          "64 bits",
          caller, role, name, (long long)tensor.globalCount,
          static_cast<int>(tensor.elementSize));
  int64_t stride = 1;
  for (int dim = tensor.rank - 1; dim >= 0; --dim) {
    tensor.globalStrides[dim] = stride;
    stride *= desc.globalShape[dim];
  }
  return tensor;
}

namespace {

/// Writes this rank's output tiles; on failure says so and returns false
/// (every rank writes its own file: no coordination, no hang).
bool dumpOutputs(const std::string &pattern, int rank,
                 const std::vector<Tensor> &outputs,
                 const std::vector<void *> &pointers, size_t firstOutput,
                 const Backend &backend) {
  std::string path = perRankPath(pattern, rank, ".bin");
  FILE *file = std::fopen(path.c_str(), "wb");
  bool written = file != nullptr;
  for (size_t o = 0; written && o < outputs.size(); ++o) {
    HostView tile(backend, pointers[firstOutput + o], outputs[o].localBytes(),
                  "the --dump copy of output '" + outputs[o].name + "'");
    written = std::fwrite(tile.data(), 1, outputs[o].localBytes(), file) ==
              outputs[o].localBytes();
  }
  return closeRankFile(file, written, rank, "--dump", path);
}

struct Comparison {
  double relErr = 0;
  double maxAbsErr = 0;
  /// Whether every replica of every block is bitwise equal to the first.
  bool replicasIdentical = true;
  bool nonFiniteOutput = false;
  bool nonFiniteReference = false;
  /// Every element of the reference is zero: any output within --atol of
  /// zero passes, so the comparison alone proves little.
  bool zeroReference = false;
  /// The squared L2 norms of the reference and of the difference (the
  /// worst replica's): for the error over several outputs together.
  double refSq = 0, diffSq = 0;
};

/// Compares every rank's tile of `tensor` (`tiles`, in world-rank order) with
/// the reference (`reference`, the whole tensor as `referenceTensor` describes
/// it: in f64 where the reference computes in f64). Ranks that hold the same
/// block (replicas over axes that split no dimension) are numbered by world
/// rank; the relative error is the worst over the tensors assembled from the
/// c-th replica of every block, so a single wrong replica fails the check.
Comparison compareOutput(const Tensor &tensor, const char *tiles,
                         const Tensor &referenceTensor, const void *reference,
                         double tol) {
  const GridState &g = grid();
  Comparison result;
  double refSq = 0;
  for (int64_t i = 0; i < tensor.globalCount; ++i) {
    double value = referenceTensor.load(reference, i);
    if (!std::isfinite(value))
      result.nonFiniteReference = true;
    refSq += value * value;
  }

  std::vector<int> firstHolder;
  std::vector<int> holders;
  std::vector<double> errSq(g.worldSize, 0.0);
  double worstReplicaRel = 0;
  int replicaA = -1, replicaB = -1;
  for (int rank = 0; rank < g.worldSize; ++rank) {
    int64_t coords[3];
    coordsOfRank(rank, coords);
    int64_t key = tensor.blockKey(coords);
    if (key >= static_cast<int64_t>(firstHolder.size())) {
      firstHolder.resize(key + 1, -1);
      holders.resize(key + 1, 0);
    }
    int replica = holders[key]++;
    if (firstHolder[key] < 0)
      firstHolder[key] = rank;
    const char *tile = tiles + rank * tensor.localBytes();
    const char *firstTile = tiles + firstHolder[key] * tensor.localBytes();
    if (std::memcmp(tile, firstTile, tensor.localBytes()) != 0)
      result.replicasIdentical = false;
    double diffSq = 0, replicaDiffSq = 0, replicaSq = 0;
    tensor.forEachElement(coords, [&](int64_t local, int64_t global) {
      double y = tensor.load(tile, local);
      double ref = referenceTensor.load(reference, global);
      if (!std::isfinite(y))
        result.nonFiniteOutput = true;
      double diff = y - ref;
      diffSq += diff * diff;
      result.maxAbsErr = std::max(result.maxAbsErr, std::fabs(diff));
      double first = tensor.load(firstTile, local);
      replicaDiffSq += (y - first) * (y - first);
      replicaSq += first * first;
    });
    errSq[replica] += diffSq;
    double replicaRel =
        std::sqrt(replicaDiffSq) /
        std::max(std::sqrt(replicaSq), std::numeric_limits<double>::min());
    if (replicaRel > worstReplicaRel) {
      worstReplicaRel = replicaRel;
      replicaA = firstHolder[key];
      replicaB = rank;
    }
  }
  result.zeroReference = refSq == 0;
  double worstSq = *std::max_element(errSq.begin(), errSq.end());
  result.refSq = refSq;
  result.diffSq = worstSq;
  result.relErr =
      std::sqrt(worstSq) /
      std::max(std::sqrt(refSq), std::numeric_limits<double>::min());
  if (result.nonFiniteOutput || result.nonFiniteReference) {
    result.relErr = std::numeric_limits<double>::quiet_NaN();
    result.maxAbsErr = std::numeric_limits<double>::quiet_NaN();
  }
  if (worstReplicaRel > tol)
    std::printf("check: %s replicas differ: ranks %d and %d hold the same "
                "block, rel_diff=%.3e\n",
                tensor.name.c_str(), replicaA, replicaB, worstReplicaRel);
  return result;
}

} // namespace

/// Copies every output that updates an input (SummaTensorDesc::updates)
/// over that input, local tiles or whole tensors.
void summa::rt::driver::feedBack(const Backend &backend,
                                 const std::vector<Tensor> &inputs,
                                 const std::vector<Tensor> &outputs,
                                 const std::vector<void *> &pointers,
                                 bool local) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    int32_t updates = outputs[o].desc->updates;
    if (updates <= 0)
      continue;
    size_t bytes = local ? outputs[o].localBytes() : outputs[o].globalBytes();
    if (bytes > 0)
      backend.copy(pointers[updates - 1], pointers[inputs.size() + o], bytes);
  }
}

namespace {

/// "[4, 8, 32]".
std::string formatShape(const int64_t *shape, size_t rank) {
  std::string s = "[";
  for (size_t d = 0; d < rank; ++d)
    s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

} // namespace

namespace {
/// Drops the pages of [begin, end) of a read-only file mapping from this
/// process (they are clean: reading them again maps them in again).
void releaseMappedPages(const char *begin, const char *end) {
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t first =
      (reinterpret_cast<uintptr_t>(begin) + page - 1) & ~(page - 1);
  uintptr_t last = reinterpret_cast<uintptr_t>(end) & ~(page - 1);
  if (last > first)
    madvise(reinterpret_cast<void *>(first), last - first, MADV_DONTNEED);
}
} // namespace

size_t summa::rt::driver::uploadTile(const Backend &backend,
                                     const Tensor &tensor,
                                     const int64_t *coords, const void *whole,
                                     void *buffer, bool mappedFile) {
  size_t bytes = coords ? tensor.localBytes() : tensor.globalBytes();
  HostBuffer host(bytes, "the host copy of '" + tensor.fileName + "'");
  size_t size = tensor.elementSize;
  char *to = static_cast<char *>(host.data());
  const char *from = static_cast<const char *>(whole);
  // A tile's elements come in increasing global order (row-major tiles of
  // a row-major tensor): what lies before the last one copied is done.
  constexpr int64_t kReleaseEvery = 8 << 20;
  const char *released = from;
  tensor.forEachElement(coords, [&](int64_t local, int64_t global) {
    const char *at = from + global * size;
    std::memcpy(to + local * size, at, size);
    if (mappedFile && at - released > kReleaseEvery && at > released) {
      releaseMappedPages(released, at);
      released = at;
    }
  });
  if (mappedFile)
    releaseMappedPages(from, from + tensor.globalBytes());
  upload(backend, buffer, host.data(), bytes);
  return bytes;
}

/// Copies `bytes` of host memory into a backend buffer.
void summa::rt::driver::upload(const Backend &backend, void *buffer,
                               const void *host, size_t bytes) {
  if (bytes == 0)
    return;
  if (backend.fromHost)
    backend.fromHost(buffer, host, bytes);
  else
    std::memcpy(buffer, host, bytes);
}

namespace {

/// The tensor of `source` that stands for `tensor`: by its file name, else
/// by its positional name; null if neither is there.
const StoredTensor *findStored(const TensorSource &source,
                               const Tensor &tensor) {
  const StoredTensor *stored = source.find(tensor.fileName);
  if (!stored && tensor.fileName != tensor.name)
    stored = source.find(tensor.name);
  return stored;
}

/// Whether `stored` has the global shape of `tensor`.
bool sameShape(const StoredTensor &stored, const Tensor &tensor) {
  if (stored.shape.size() != static_cast<size_t>(tensor.rank))
    return false;
  for (int d = 0; d < tensor.rank; ++d)
    if (stored.shape[d] != tensor.desc->globalShape[d])
      return false;
  return true;
}

} // namespace

/// This rank's tile of `tensor` (`buffer`) from every rank, in world-rank
/// order, on rank 0 (every rank must call it; other ranks get an empty
/// buffer). `what` names the tensor and `purpose` the option in an error.
HostBuffer summa::rt::driver::gatherTiles(const Backend &backend,
                                          const Tensor &tensor,
                                          const void *buffer,
                                          const std::string &what,
                                          const char *purpose) {
  const GridState &g = grid();
  size_t bytes = tensor.localBytes();
  if (bytes > INT_MAX)
    fatal("summaRtMain: %s has %zu bytes per rank, more than %s can gather",
          what.c_str(), bytes, purpose);
  HostView tile(backend, buffer, bytes, "the host copy of " + what);
  HostBuffer tiles(g.worldRank == 0 ? bytes * g.worldSize : 0,
                   "the gathered tiles of " + what);
  SUMMA_MPI_CHECK(MPI_Gather(tile.data(), static_cast<int>(bytes), MPI_BYTE,
                             tiles.data(), static_cast<int>(bytes), MPI_BYTE, 0,
                             g.world));
  return tiles;
}

namespace {

/// What feeds the steps of a run besides the inputs: --data's batches, and
/// the number of steps done before the run (the "summa.step" of the
/// checkpoint --inputs resumes from).
struct Feed {
  const TokenData *data = nullptr;
  DataInputs which;
  int64_t stepsBefore = 0;

  bool feeds(size_t input) const {
    return data && (static_cast<int>(input) == which.tokens ||
                    static_cast<int>(input) == which.next);
  }
  /// Fills the fed inputs held at `coords` (null: whole tensors) for step
  /// `step` of this run (0-based).
  /// --vocab.
  int64_t vocab = 0;

  void beforeStep(int64_t step, const std::vector<Tensor> &inputs,
                  const std::vector<void *> &buffers, const int64_t *coords,
                  uint64_t seed, const Backend &backend) const {
    if (data)
      loadBatch(*data, which, inputs, buffers, coords, seed, stepsBefore + step,
                vocab, backend);
  }
};

/// Fills every input held at `coords` (null: whole tensors) into
/// `buffers`, but those `feed` fills each step: from `source` by name
/// (Tensor::fileName, else its positional name), reading only the elements of
/// the tile; from the seed when there is no source, or the source lacks it and
/// --fill-missing is given (zeros for a tensor initialised to zeros, which
/// may be missing). A tensor of another shape or element type, or one missing
/// without --fill-missing, is fatal with its name.
void loadInputs(const TensorSource *source, const std::vector<Tensor> &inputs,
                const std::vector<void *> &buffers, const int64_t *coords,
                const Backend &backend, const Options &options,
                const Feed &feed) {
  const char *caller = "summaRtMain";
  std::string missing;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (feed.feeds(i))
      continue;
    const Tensor &input = inputs[i];
    const StoredTensor *stored = source ? findStored(*source, input) : nullptr;
    if (!stored) {
      // State that starts at zero (an optimizer's moments, the step
      // counter) need not be in the file.
      if (source && !options.fillMissing &&
          input.desc->init != SUMMA_INIT_ZEROS) {
        missing += (missing.empty() ? "'" : ", '") + input.fileName + "'";
        continue;
      }
      backend.fill(input, static_cast<int>(i), options.seed, coords,
                   buffers[i]);
      continue;
    }
    const char *path = source->path().c_str();
    if (stored->dtype != input.desc->dtype) {
      const char *want = safetensorsDTypeName(input.desc->dtype);
      fatal("%s: --inputs '%s': tensor '%s' has element type %s; input '%s' "
            "is %s",
            caller, path, stored->name.c_str(), stored->dtypeName.c_str(),
            input.fileName.c_str(), want ? want : "?");
    }
    if (!sameShape(*stored, input))
      fatal("%s: --inputs '%s': tensor '%s' has shape %s; input '%s' has "
            "shape %s",
            caller, path, stored->name.c_str(),
            formatShape(stored->shape.data(), stored->shape.size()).c_str(),
            input.fileName.c_str(),
            formatShape(input.desc->globalShape, input.rank).c_str());
    if (!stored->data) {
      // A sharded checkpoint: the tile from the boxes that hold it.
      size_t bytes = coords ? input.localBytes() : input.globalBytes();
      HostBuffer tile(bytes, "the host copy of '" + input.fileName + "'");
      recordRead(static_cast<int64_t>(readTileFromPieces(
          input, coords, *stored, static_cast<char *>(tile.data()))));
      upload(backend, buffers[i], tile.data(), bytes);
      continue;
    }
    recordRead(static_cast<int64_t>(uploadTile(backend, input, coords,
                                               stored->data, buffers[i],
                                               /*mappedFile=*/true)));
  }
  if (!missing.empty())
    fatal("%s: --inputs '%s' has no tensor named %s (inputs are matched by "
          "name, then as arg<N>; --fill-missing takes missing ones from the "
          "seed)",
          caller, source->path().c_str(), missing.c_str());
}

} // namespace

/// The whole of `tensor`, whose tile on this rank is `buffer`, assembled on
/// rank 0 (every rank must call it; other ranks get an empty buffer).
HostBuffer summa::rt::driver::gatherWhole(const Backend &backend,
                                          const Tensor &tensor,
                                          const void *buffer,
                                          const char *purpose) {
  const GridState &g = grid();
  size_t bytes = tensor.localBytes();
  HostBuffer tiles = gatherTiles(backend, tensor, buffer,
                                 "'" + tensor.fileName + "'", purpose);
  bool root = g.worldRank == 0;
  HostBuffer whole(root ? tensor.globalBytes() : 0,
                   "the whole '" + tensor.fileName + "'");
  if (!root)
    return whole;
  size_t size = tensor.elementSize;
  char *to = static_cast<char *>(whole.data());
  for (int rank = 0; rank < g.worldSize; ++rank) {
    int64_t coords[3];
    coordsOfRank(rank, coords);
    const char *from = static_cast<const char *>(tiles.data()) + rank * bytes;
    tensor.forEachElement(coords, [&](int64_t local, int64_t global) {
      std::memcpy(to + global * size, from + local * size, size);
    });
  }
  return whole;
}

namespace {

/// SUMMA_KILL_AT=R:S[:checkpoint], a testing aid (docs/Reliability.md):
/// rank R raises SIGKILL on itself just before step S (counted from the
/// start of training), or with ":checkpoint" halfway through writing the
/// checkpoint of step S (after the first tensor of its own file). A fault at a
/// step, not at a time, fires at the same point of the run however loaded the
/// machine is. It fires in the first attempt of a job only
/// (SUMMA_RESTART_COUNT, which summa-run sets for its restarts, unset or 0), so
/// that the restarted job runs through.
struct KillAt {
  int rank = -1;
  int64_t step = 0;
  bool inCheckpoint = false;

  static KillAt fromEnvironment() {
    KillAt kill;
    const char *spec = std::getenv("SUMMA_KILL_AT");
    if (!spec || !*spec)
      return kill;
    const char *restarts = std::getenv("SUMMA_RESTART_COUNT");
    if (restarts && *restarts && std::strcmp(restarts, "0") != 0)
      return kill;
    std::string text = spec;
    size_t colon = text.find(':');
    size_t second =
        colon == std::string::npos ? colon : text.find(':', colon + 1);
    int64_t rank = 0;
    bool valid = colon != std::string::npos &&
                 parseInt(text.substr(0, colon).c_str(), rank) &&
                 parseInt(text.substr(colon + 1, second - colon - 1).c_str(),
                          kill.step) &&
                 kill.step >= 1 &&
                 (second == std::string::npos ||
                  text.substr(second + 1) == "checkpoint");
    if (!valid)
      fatal("summaRtMain: SUMMA_KILL_AT='%s' is not RANK:STEP or "
            "RANK:STEP:checkpoint (STEP >= 1)",
            spec);
    kill.inCheckpoint = second != std::string::npos;
    kill.rank = static_cast<int>(rank);
    return kill;
  }

  /// Whether this rank dies before step `step`, or while writing its
  /// checkpoint (`checkpoint`).
  bool at(int64_t when, bool checkpoint) const {
    return rank == grid().worldRank && step == when &&
           inCheckpoint == checkpoint;
  }

  [[noreturn]] void now(const char *where) const {
    std::fflush(stdout);
    std::fprintf(stderr,
                 "summa: rank %d: SUMMA_KILL_AT: SIGKILL %s step %lld\n", rank,
                 where, (long long)step);
    std::fflush(stderr);
    raise(SIGKILL);
    std::abort();
  }
};

/// Writes the whole tensors of `tensors` (each a tensor and its tile on
/// this rank) as a safetensors file at `path`, from rank 0; fatal on
/// failure. Every rank must call it.
void writeWhole(
    const std::string &path,
    const std::vector<std::pair<const Tensor *, const void *>> &tensors,
    const Backend &backend, const char *purpose,
    const std::map<std::string, std::string> &metadata = {},
    const WriteProgress &progress = nullptr) {
  std::vector<HostBuffer> wholes;
  std::vector<TensorToWrite> records;
  for (const auto &[tensor, buffer] : tensors) {
    wholes.push_back(gatherWhole(backend, *tensor, buffer, purpose));
    TensorToWrite record;
    record.name = tensor->fileName;
    record.dtype = tensor->desc->dtype;
    record.shape.assign(tensor->desc->globalShape,
                        tensor->desc->globalShape + tensor->rank);
    record.data = wholes.back().data();
    record.bytes = tensor->globalBytes();
    records.push_back(std::move(record));
  }
  if (grid().worldRank != 0)
    return;
  for (size_t i = 0; i < records.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (records[i].name == records[j].name)
        fatal("summaRtMain: %s: two tensors are named '%s'", purpose,
              records[i].name.c_str());
  std::string error;
  if (!writeSafetensors(path, records, error, metadata, progress))
    fatal("summaRtMain: %s: %s", purpose, error.c_str());
  for (const TensorToWrite &record : records)
    recordWrite(static_cast<int64_t>(record.bytes));
}

/// Writes the tensors of `tensors` (each a tensor and its tile on this rank)
/// as the sharded checkpoint `directory`, each rank its own part
/// (ShardedCheckpoint.h). Every rank must call it.
void writeOwned(
    const std::string &directory,
    const std::vector<std::pair<const Tensor *, const void *>> &tensors,
    const Backend &backend, const char *purpose,
    const std::map<std::string, std::string> &metadata,
    const WriteProgress &progress = nullptr) {
  std::vector<std::unique_ptr<HostView>> views;
  std::vector<TileToWrite> tiles;
  for (const auto &[tensor, buffer] : tensors) {
    views.push_back(std::make_unique<HostView>(
        backend, buffer, tensor->localBytes(),
        "the host copy of '" + tensor->fileName + "'"));
    tiles.push_back({tensor, views.back()->data()});
  }
  recordWrite(static_cast<int64_t>(
      writeSharded(directory, tiles, purpose, metadata, progress)));
}

/// --checkpoint: the state the step after `step` (1-based, counted from the
/// start of training) starts from, every input with the outputs that
/// update it in its place; its "summa.step" metadata is `step`.
void writeCheckpoint(const Options &options, int64_t step,
                     const std::vector<Tensor> &inputs,
                     const std::vector<Tensor> &outputs,
                     const std::vector<void *> &pointers,
                     const Backend &backend, const KillAt &kill) {
  std::vector<std::pair<const Tensor *, const void *>> state;
  for (size_t i = 0; i < inputs.size(); ++i)
    state.emplace_back(&inputs[i], pointers[i]);
  for (size_t o = 0; o < outputs.size(); ++o)
    if (int32_t updates = outputs[o].desc->updates; updates > 0)
      state[updates - 1].second = pointers[inputs.size() + o];
  std::string path = options.checkpoint + "/step" + std::to_string(step);
  WriteProgress progress;
  if (kill.at(step, /*checkpoint=*/true))
    progress = [&](size_t, size_t) {
      kill.now("while writing the checkpoint of");
    };
  writeOwned(path, state, backend, "--checkpoint",
             {{"summa.step", std::to_string(step)}}, progress);
  if (grid().worldRank == 0) {
    std::printf("checkpoint: step %lld written to %s\n", (long long)step,
                path.c_str());
    std::fflush(stdout);
  }
}

void settle(const Backend &backend) {
  if (backend.settle)
    backend.settle();
}

/// The output a progress line reports as the loss: the first scalar f32 or
/// f64 output that updates no input; -1 if there is none.
int lossOutput(const std::vector<Tensor> &outputs) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    const Tensor &output = outputs[o];
    if (output.globalCount == 1 && output.desc->updates == 0 &&
        (output.desc->dtype == SUMMA_DT_F32 ||
         output.desc->dtype == SUMMA_DT_F64))
      return static_cast<int>(o);
  }
  return -1;
}

/// The progress line of a step on rank 0: "step 12/300 loss 3.1416
/// tokens/s 51234 ms/step 2.50" (steps counted from the start of training;
/// no loss without a loss output, no tokens/s without --data).
/// A scalar output a progress line reports: its label, the tensor, its
/// tile.
struct ReportedScalar {
  const char *label;
  const char *format;
  const Tensor *tensor;
  const void *tile;
};

void printProgress(int64_t step, int64_t last,
                   const std::vector<ReportedScalar> &scalars,
                   const Backend &backend, double seconds,
                   int64_t tokensPerStep) {
  std::string line =
      "step " + std::to_string(step) + "/" + std::to_string(last);
  char buffer[96];
  for (const ReportedScalar &scalar : scalars) {
    HostView value(backend, scalar.tile, scalar.tensor->localBytes(),
                   std::string("the host copy of the ") + scalar.label);
    std::snprintf(buffer, sizeof(buffer), scalar.format, scalar.label,
                  scalar.tensor->load(value.data(), 0));
    line += buffer;
  }
  if (tokensPerStep > 0 && seconds > 0) {
    std::snprintf(buffer, sizeof(buffer), " tokens/s %.0f",
                  tokensPerStep / seconds);
    line += buffer;
  }
  std::snprintf(buffer, sizeof(buffer), " ms/step %.2f", seconds * 1e3);
  std::printf("%s%s\n", line.c_str(), buffer);
  std::fflush(stdout);
}

/// The default --tol of an output: 1e-5 for f32 and f64; for 16-bit floats
/// a bound on their rounding through a layer (unit roundoff 2^-11 for f16,
/// 2^-8 for bf16, compounded by the reductions of a GEMM or a LayerNorm).
double toleranceFor(const Tensor &output) {
  switch (output.desc->dtype) {
  case SUMMA_DT_F16:
    return 5e-3;
  case SUMMA_DT_BF16:
    return 3e-2;
  default:
    return 1e-5;
  }
}

/// The tolerance of `output`: the first --tol PATTERN=T its name matches,
/// else --tol T, else toleranceFor.
double toleranceOf(const Tensor &output, const Options &options) {
  for (const auto &[pattern, tol] : options.namedTols)
    if (fnmatch(pattern.c_str(), output.fileName.c_str(), 0) == 0)
      return tol;
  return std::isnan(options.tol) ? toleranceFor(output) : options.tol;
}

/// The tensors as the reference takes them: the program's, with f16, bf16
/// and f32 as f64 when the reference computes in f64
/// (SummaProgramDesc::referenceF64). `descs` holds their descriptions.
struct ReferenceTensors {
  std::vector<SummaTensorDesc> descs;
  std::vector<Tensor> inputs, outputs;

  ReferenceTensors(const SummaProgramDesc &program,
                   const std::vector<Tensor> &programInputs,
                   const std::vector<Tensor> &programOutputs) {
    descs.reserve(programInputs.size() + programOutputs.size());
    auto widen = [&](const Tensor &tensor) {
      Tensor wide = tensor;
      descs.push_back(*tensor.desc);
      int32_t dtype = tensor.desc->dtype;
      if (program.referenceF64 &&
          (dtype == SUMMA_DT_F32 || dtype == SUMMA_DT_F16 ||
           dtype == SUMMA_DT_BF16)) {
        descs.back().dtype = SUMMA_DT_F64;
        wide.elementSize = sizeof(double);
      }
      wide.desc = &descs.back();
      return wide;
    };
    for (const Tensor &input : programInputs)
      inputs.push_back(widen(input));
    for (const Tensor &output : programOutputs)
      outputs.push_back(widen(output));
  }
};

/// Copies the whole `from` (host memory, as `fromTensor`) into `to` (as
/// `toTensor`, the same shape in a wider or the same element type).
void widenInto(const Tensor &fromTensor, const void *from,
               const Tensor &toTensor, void *to) {
  for (int64_t i = 0; i < fromTensor.globalCount; ++i)
    toTensor.store(to, i, fromTensor.load(from, i));
}

/// Runs the reference in host memory (on either backend) for --steps steps:
/// the inputs are loaded (or filled) as the program's, then widened exactly
/// where the reference computes in f64. Returns the reference's buffer
/// pointers (inputs, then outputs), which `buffers` owns.
std::vector<void *> runReference(const SummaProgramDesc &program,
                                 const ReferenceTensors &ref,
                                 const TensorSource *source,
                                 const std::vector<Tensor> &inputs,
                                 const Options &options, const Feed &feed,
                                 std::vector<HostBuffer> &buffers) {
  const Backend &host = hostBackend();
  buffers.reserve(2 * inputs.size() + ref.outputs.size());
  std::vector<void *> given, pointers;
  for (const Tensor &input : inputs) {
    buffers.emplace_back(input.globalBytes(), "the whole input '" + input.name +
                                                  "' of the --check reference");
    given.push_back(buffers.back().data());
  }
  loadInputs(source, inputs, given, /*coords=*/nullptr, host, options, feed);
  auto wideInput = [&](size_t i) {
    return ref.inputs[i].elementSize != inputs[i].elementSize;
  };
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!wideInput(i)) {
      pointers.push_back(given[i]);
      continue;
    }
    buffers.emplace_back(ref.inputs[i].globalBytes(),
                         "the f64 copy of the input '" + inputs[i].name +
                             "' of the --check reference");
    pointers.push_back(buffers.back().data());
    widenInto(inputs[i], given[i], ref.inputs[i], pointers[i]);
  }
  for (const Tensor &output : ref.outputs) {
    buffers.emplace_back(output.globalBytes(),
                         "the whole output '" + output.name +
                             "' of the --check reference");
    pointers.push_back(buffers.back().data());
  }
  for (int64_t step = 0; step < options.steps; ++step) {
    feed.beforeStep(step, inputs, given, /*coords=*/nullptr, options.seed,
                    host);
    for (size_t i = 0; i < inputs.size(); ++i)
      if (feed.feeds(i) && wideInput(i))
        widenInto(inputs[i], given[i], ref.inputs[i], pointers[i]);
    program.reference(pointers.data());
    if (step + 1 < options.steps)
      feedBack(host, ref.inputs, ref.outputs, pointers, /*local=*/false);
  }
  return pointers;
}

/// Runs the reference on rank 0 and compares; returns the exit status.
int checkOnRoot(const SummaProgramDesc &program, const Backend &backend,
                const TensorSource *source, const std::vector<Tensor> &inputs,
                const std::vector<Tensor> &outputs,
                const std::vector<HostBuffer> &gathered, const Options &options,
                const Feed &feed) {
  // The counters describe the spmd program, not the reference: settle the
  // spmd program's operations before pausing.
  settle(backend);
  ProfilePause pause;
  ReferenceTensors ref(program, inputs, outputs);
  std::vector<HostBuffer> buffers;
  std::vector<void *> pointers =
      runReference(program, ref, source, inputs, options, feed, buffers);

  double maxRel = 0;
  int failed = -1;
  double failedTol = 0;
  Comparison failure;
  size_t zeroReferences = 0;
  for (size_t o = 0; o < outputs.size(); ++o) {
    const Tensor &output = outputs[o];
    double tol = toleranceOf(output, options);
    Comparison cmp =
        compareOutput(output, static_cast<const char *>(gathered[o].data()),
                      ref.outputs[o], pointers[inputs.size() + o], tol);
    bool absolute = cmp.relErr > tol && cmp.maxAbsErr <= options.atol;
    zeroReferences += cmp.zeroReference;
    const char *note = cmp.nonFiniteReference ? " (non-finite reference)"
                       : cmp.nonFiniteOutput  ? " (non-finite output)"
                       : cmp.zeroReference    ? " (the reference is all zeros)"
                       : absolute             ? " (within --atol)"
                                              : "";
    std::printf("check: %s rel_err=%.3e max_abs_err=%.3e%s\n",
                output.name.c_str(), cmp.relErr, cmp.maxAbsErr, note);
    if (options.exactReplicas)
      std::printf("check: %s replicas %s\n", output.name.c_str(),
                  cmp.replicasIdentical ? "bit-identical" : "DIFFER");
    bool ok = !cmp.nonFiniteOutput && !cmp.nonFiniteReference &&
              (cmp.relErr <= tol || cmp.maxAbsErr <= options.atol) &&
              (!options.exactReplicas || cmp.replicasIdentical);
    if (!ok && failed < 0) {
      failed = static_cast<int>(o);
      failedTol = tol;
      failure = cmp;
    }
    if (ok && !absolute)
      maxRel = std::max(maxRel, cmp.relErr);
  }
  // A check whose every reference output is zero would pass any program
  // that writes zeros (or nothing): it proves nothing.
  bool vacuous = !outputs.empty() && zeroReferences == outputs.size();
  if (failed >= 0)
    std::printf("check: FAIL output %s rel_err=%.3e max_abs_err=%.3e (tol "
                "%g)\n",
                outputs[failed].name.c_str(), failure.relErr, failure.maxAbsErr,
                failedTol);
  else if (vacuous)
    std::printf("check: FAIL every reference output is all zeros: the "
                "comparison proves nothing (other --seed or inputs?)\n");
  else
    std::printf("check: PASS max_rel_err=%.3e\n", maxRel);
  std::fflush(stdout);
  return failed >= 0 || vacuous ? 1 : 0;
}

/// --expect on rank 0: every output against the tensor of its name in the
/// file; returns the exit status.
int expectOnRoot(const std::vector<Tensor> &outputs,
                 const std::vector<HostBuffer> &gathered,
                 const Options &options) {
  std::string error;
  std::unique_ptr<TensorSource> source =
      TensorSource::open(options.expect, error);
  if (!source)
    fatal("summaRtMain: --expect: %s", error.c_str());
  int compared = 0;
  bool failed = false;
  double maxRel = 0, allRefSq = 0, allDiffSq = 0;
  for (size_t o = 0; o < outputs.size(); ++o) {
    const Tensor &output = outputs[o];
    const StoredTensor *stored = findStored(*source, output);
    if (!stored) {
      std::printf("expect: %s not in '%s', not compared\n",
                  output.fileName.c_str(), options.expect.c_str());
      continue;
    }
    if (stored->dtype != output.desc->dtype || !sameShape(*stored, output)) {
      const char *want = safetensorsDTypeName(output.desc->dtype);
      std::printf(
          "expect: FAIL %s is %s %s, '%s' holds %s %s\n",
          output.fileName.c_str(), want ? want : "?",
          formatShape(output.desc->globalShape, output.rank).c_str(),
          options.expect.c_str(), stored->dtypeName.c_str(),
          formatShape(stored->shape.data(), stored->shape.size()).c_str());
      failed = true;
      continue;
    }
    ++compared;
    double tol = toleranceOf(output, options);
    // A sharded checkpoint's tensor, assembled whole.
    HostBuffer assembled(stored->data ? 0 : output.globalBytes(),
                         "the whole '" + stored->name + "' of --expect");
    if (!stored->data)
      readTileFromPieces(output, nullptr, *stored,
                         static_cast<char *>(assembled.data()));
    Comparison cmp = compareOutput(
        output, static_cast<const char *>(gathered[o].data()), output,
        stored->data ? stored->data
                     : static_cast<const char *>(assembled.data()),
        tol);
    allRefSq += cmp.refSq;
    allDiffSq += cmp.diffSq;
    bool ok = !cmp.nonFiniteOutput && !cmp.nonFiniteReference &&
              (cmp.relErr <= tol || cmp.maxAbsErr <= options.atol);
    // As --check: an output that passes by --atol alone (zero in exact
    // arithmetic) says so and does not count in max_rel_err.
    bool absolute = ok && cmp.relErr > tol;
    std::printf("expect: %s rel_err=%.3e max_abs_err=%.3e%s\n",
                output.fileName.c_str(), cmp.relErr, cmp.maxAbsErr,
                !ok        ? " (FAIL)"
                : absolute ? " (within --atol)"
                           : "");
    failed |= !ok;
    if (ok && !absolute)
      maxRel = std::max(maxRel, cmp.relErr);
  }
  if (compared == 0 && !failed) {
    std::printf("expect: FAIL no output is in '%s'\n", options.expect.c_str());
    failed = true;
  }
  // Every compared output together, one vector.
  double allRel =
      std::sqrt(allDiffSq) /
      std::max(std::sqrt(allRefSq), std::numeric_limits<double>::min());
  if (!failed)
    std::printf("expect: PASS max_rel_err=%.3e all_rel_err=%.3e\n", maxRel,
                allRel);
  else
    std::printf("expect: FAIL all_rel_err=%.3e\n", allRel);
  std::fflush(stdout);
  return failed ? 1 : 0;
}
/// Opens --inputs (into `source`) and --data (into `tokens`) and says what
/// feeds the steps besides the inputs; fatal on a bad file or option.
Feed openFeed(const Options &options, const std::vector<Tensor> &inputs,
              std::unique_ptr<TensorSource> &source,
              std::unique_ptr<TokenData> &tokens) {
  const char *caller = "summaRtMain";
  std::string error;
  Feed feed;
  if (!options.inputs.empty()) {
    source = TensorSource::open(options.inputs, error);
    if (!source)
      fatal("%s: --inputs: %s", caller, error.c_str());
    // A checkpoint says how many steps made it.
    auto step = source->metadata().find("summa.step");
    if (step != source->metadata().end() &&
        !parseInt(step->second.c_str(), feed.stepsBefore))
      fatal("%s: --inputs '%s': its metadata summa.step '%s' is not a step "
            "count",
            caller, options.inputs.c_str(), step->second.c_str());
  }
  if (!options.data.empty()) {
    tokens = TokenData::open(options.data, error);
    if (!tokens)
      fatal("%s: --data: %s", caller, error.c_str());
    feed.data = tokens.get();
    feed.which = chooseDataInputs(inputs, options.dataInputs, *tokens);
    feed.vocab = options.vocab;
  } else if (!options.dataInputs.empty() || options.vocab > 0) {
    fatal("%s: --data-inputs and --vocab need --data", caller);
  }
  return feed;
}

/// A scalar floating-point output named `name` (Tensor::fileName), or -1:
/// the lr and grad_norm of an optimizer step (summa-differentiate
/// optimizer=...), as the progress line reports them.
int scalarOutput(const std::vector<Tensor> &outputs, const char *name) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    const Tensor &output = outputs[o];
    int32_t dtype = output.desc->dtype;
    if (output.fileName == name && output.globalCount == 1 &&
        (dtype == SUMMA_DT_F32 || dtype == SUMMA_DT_F64 ||
         dtype == SUMMA_DT_F16 || dtype == SUMMA_DT_BF16))
      return static_cast<int>(o);
  }
  return -1;
}

/// --metrics and --tensorboard: what a step measured, gathered on rank 0
/// and written there.
class StepRecorder {
public:
  /// `log` is rank 0's writer (null on the other ranks); every rank makes
  /// a recorder when either option is given.
  StepRecorder(const Model &model, std::unique_ptr<MetricsLog> log,
               int64_t tokensPerStep)
      : model(model), log(std::move(log)), tokens(tokensPerStep) {
    loss = scalarOutput(model.outputs, "loss");
    if (loss < 0)
      loss = lossOutput(model.outputs);
    lr = scalarOutput(model.outputs, "lr");
    if (lr < 0)
      lr = scalarOutput(model.outputs, "learning_rate");
    gradNorm = scalarOutput(model.outputs, "grad_norm");
  }

  /// Before a step: the counters it starts from.
  void begin() { before = profileSnapshot(); }

  /// After step `step` (counted from the start of training), which took
  /// `seconds` on this rank. Every rank must call it (one reduction).
  void end(int64_t step, double seconds) {
    ProfileSnapshot after = profileSnapshot();
    // Per kind, this step's payload bytes; then the peak memory.
    int64_t local[kNumCollectiveKinds + 1] = {};
    for (int kind = 0; kind < kNumCollectiveKinds; ++kind)
      for (int mask = 1; mask < 8; ++mask)
        local[kind] += after.collectives[kind][mask].bytes -
                       before.collectives[kind][mask].bytes;
    local[kNumCollectiveKinds] = peakRssBytes();
    int64_t largest[kNumCollectiveKinds + 1] = {};
    SUMMA_MPI_CHECK(MPI_Reduce(local, largest, kNumCollectiveKinds + 1,
                               MPI_INT64_T, MPI_MAX, 0, grid().world));
    if (!log)
      return;
    StepMetrics metrics;
    metrics.step = step;
    metrics.loss = scalar(loss);
    metrics.lr = scalar(lr);
    metrics.gradNorm = scalar(gradNorm);
    metrics.tokens = tokens;
    metrics.seconds = seconds;
    for (int kind = 0; kind < kNumCollectiveKinds; ++kind)
      metrics.commBytes[kind] = largest[kind];
    metrics.peakRssBytes = largest[kNumCollectiveKinds];
    metrics.wallTime = wallClockSeconds();
    std::string error;
    if (!log->write(metrics, error))
      fatal("summaRtMain: %s", error.c_str());
  }

private:
  std::optional<double> scalar(int output) const {
    if (output < 0)
      return std::nullopt;
    const Tensor &tensor = model.outputs[output];
    HostView value(model.backend, model.outputTile(output), tensor.localBytes(),
                   "the host copy of " + tensor.name);
    return tensor.load(value.data(), 0);
  }

  const Model &model;
  std::unique_ptr<MetricsLog> log;
  int64_t tokens;
  int loss = -1, lr = -1, gradNorm = -1;
  ProfileSnapshot before;
};

/// The --steps calls: the ones --check verifies (from untouched inputs) and
/// the warm-up of the timing loop; batches, progress lines, metrics,
/// checkpoints.
void runSteps(Model &model, const Options &options, const Feed &feed,
              StepRecorder *recorder, const KillAt &kill) {
  const GridState &g = grid();
  const Backend &backend = model.backend;
  int64_t logEvery =
      options.logEvery >= 0 ? options.logEvery : (feed.data ? 1 : 0);
  // What a progress line reports: the loss, and the learning rate and the
  // gradients' norm of an optimizer step (outputs named lr and grad_norm).
  std::vector<ReportedScalar> reported;
  int loss = lossOutput(model.outputs);
  if (loss >= 0)
    reported.push_back(
        {"loss", " %s %.4f", &model.outputs[loss], model.outputTile(loss)});
  for (size_t o = 0; o < model.outputs.size(); ++o) {
    const Tensor &output = model.outputs[o];
    if (output.globalCount != 1 ||
        (output.fileName != "lr" && output.fileName != "grad_norm"))
      continue;
    reported.push_back({output.fileName == "lr" ? "lr" : "grad_norm",
                        output.fileName == "lr" ? " %s %.3e" : " %s %.4f",
                        &output, model.outputTile(static_cast<int>(o))});
  }
  int64_t tokensPerStep =
      feed.data ? model.inputs[feed.which.tokens].globalCount : 0;
  for (int64_t step = 0; step < options.steps; ++step) {
    int64_t done = feed.stepsBefore + step + 1;
    if (kill.at(done, /*checkpoint=*/false))
      kill.now("before");
    if (recorder)
      recorder->begin();
    double start = MPI_Wtime();
    feed.beforeStep(step, model.inputs, model.pointers, g.coords, options.seed,
                    backend);
    model.call();
    bool progress = logEvery > 0 &&
                    ((step + 1) % logEvery == 0 || step + 1 == options.steps);
    if (progress || recorder)
      settle(backend);
    double seconds = MPI_Wtime() - start;
    if (progress && g.worldRank == 0)
      printProgress(done, feed.stepsBefore + options.steps, reported, backend,
                    seconds, tokensPerStep);
    if (recorder)
      recorder->end(done, seconds);
    if (options.saveEvery > 0 && done % options.saveEvery == 0)
      writeCheckpoint(options, done, model.inputs, model.outputs,
                      model.pointers, backend, kill);
    if (step + 1 < options.steps)
      model.feedBack();
  }
}

/// --outputs and --dump after the steps; false if a --dump file could not
/// be written.
bool writeResults(const Model &model, const Options &options) {
  if (!options.outputs.empty()) {
    std::vector<std::pair<const Tensor *, const void *>> written;
    for (size_t o = 0; o < model.outputs.size(); ++o)
      written.emplace_back(&model.outputs[o], model.outputTile(o));
    // A .safetensors file is whole (gathered on rank 0); anything else a
    // directory each rank writes its own part of.
    const std::string &path = options.outputs;
    const std::string suffix = ".safetensors";
    if (path.size() > suffix.size() &&
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
      writeWhole(path, written, model.backend, "--outputs");
    else
      writeOwned(path, written, model.backend, "--outputs", {});
  }
  return options.dump.empty() ||
         dumpOutputs(options.dump, grid().worldRank, model.outputs,
                     model.pointers, model.inputs.size(), model.backend);
}

/// --iters: times `iters` calls between barriers and prints it on rank 0.
void timeCalls(Model &model, int64_t iters) {
  if (iters <= 0)
    return;
  const GridState &g = grid();
  settle(model.backend);
  SUMMA_MPI_CHECK(MPI_Barrier(g.world));
  double start = MPI_Wtime();
  for (int64_t iter = 0; iter < iters; ++iter)
    model.call();
  settle(model.backend);
  SUMMA_MPI_CHECK(MPI_Barrier(g.world));
  double elapsed = MPI_Wtime() - start;
  if (g.worldRank == 0) {
    std::printf("time: %.3f ms/iter (%lld iters, %d ranks, grid "
                "[%lld,%lld,%lld])\n",
                elapsed * 1e3 / iters, (long long)iters, g.worldSize,
                (long long)g.q, (long long)g.q, (long long)g.d);
    std::fflush(stdout);
  }
}

/// --check and --expect on rank 0 (outputs `gathered` there); every rank
/// returns the exit status.
int verify(const Model &model, const Options &options,
           const TensorSource *source, const Feed &feed,
           const std::vector<HostBuffer> &gathered) {
  const GridState &g = grid();
  int status = 0;
  if (options.check) {
    if (g.worldRank == 0)
      status = checkOnRoot(model.program, model.backend, source, model.inputs,
                           model.outputs, gathered, options, feed);
    SUMMA_MPI_CHECK(MPI_Bcast(&status, 1, MPI_INT, 0, g.world));
  }
  if (!options.expect.empty()) {
    int expected = 0;
    if (g.worldRank == 0)
      expected = expectOnRoot(model.outputs, gathered, options);
    SUMMA_MPI_CHECK(MPI_Bcast(&expected, 1, MPI_INT, 0, g.world));
    status = status ? status : expected;
  }
  return status;
}
} // namespace

//===----------------------------------------------------------------------===//
// summaRtMain
//===----------------------------------------------------------------------===//

int summa::rt::driver::run(int argc, char **argv,
                           const SummaProgramDesc *program,
                           const Backend &backend) {
  const char *caller = "summaRtMain";
  if (!program)
    fatal("%s: no program description", caller);
  const char *argv0 = argc > 0 && argv && argv[0] ? argv[0] : "summa-program";

  Options options;
  std::string error;
  switch (parseOptions(argc, argv, options, error)) {
  case ParseResult::Help:
    if (launcherRank() == 0)
      printUsage(argv0, *program, backend);
    return 0;
  case ParseResult::Error: {
    // Every rank found the same error. The others wait for rank 0 to have
    // said it: a rank that exits with 2 first makes the launcher kill the
    // job, rank 0 included, before its message is out.
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised)
      MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
      std::fprintf(stderr, "summa: %s; run %s --help for usage\n",
                   error.c_str(), argv0);
      std::fflush(stderr);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 2;
  }
  case ParseResult::Run:
    break;
  }

  summaRtInit(&argc, &argv, program->q, program->d);
  if (options.check && !program->reference)
    fatal("%s: --check needs a reference function, and the program has none",
          caller);

  int status = 0;
  bool dumped = true;
  {
    // The program's tensors and this rank's tiles (inputs filled below,
    // outputs zeroed): the model object of the library API.
    Model model(*program, backend);
    std::unique_ptr<TensorSource> source;
    std::unique_ptr<TokenData> tokens;
    Feed feed = openFeed(options, model.inputs, source, tokens);
    if (!options.checkpoint.empty() && grid().worldRank == 0 &&
        mkdir(options.checkpoint.c_str(), 0777) != 0 && errno != EEXIST)
      fatal("%s: --checkpoint: cannot create directory '%s': %s", caller,
            options.checkpoint.c_str(), std::strerror(errno));
    if (backend.announce)
      backend.announce();

    KillAt kill = KillAt::fromEnvironment();
    std::unique_ptr<StepRecorder> recorder;
    if (!options.metrics.empty() || !options.tensorboard.empty()) {
      std::unique_ptr<MetricsLog> log;
      if (grid().worldRank == 0) {
        log = MetricsLog::open(options.metrics, options.tensorboard,
                               feed.stepsBefore, error);
        if (!log)
          fatal("%s: %s", caller, error.c_str());
      }
      recorder = std::make_unique<StepRecorder>(
          model, std::move(log),
          feed.data ? model.inputs[feed.which.tokens].globalCount : 0);
    }

    loadInputs(source.get(), model.inputs, model.pointers, grid().coords,
               backend, options, feed);
    runSteps(model, options, feed, recorder.get(), kill);
    dumped = writeResults(model, options);
    std::vector<HostBuffer> gathered;
    if (options.check || !options.expect.empty())
      for (size_t o = 0; o < model.outputs.size(); ++o)
        gathered.push_back(gatherTiles(backend, model.outputs[o],
                                       model.outputTile(o),
                                       "output '" + model.outputs[o].name + "'",
                                       options.check ? "--check" : "--expect"));
    timeCalls(model, options.iters);
    status = verify(model, options, source.get(), feed, gathered);
  } // Buffers go back before the runtime is finalised.
  summaRtFinalize();
  return status == 0 && !dumped ? 1 : status;
}
