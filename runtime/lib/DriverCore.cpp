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
#include "TensorFile.h"

#include "Error.h"
#include "Grid.h"
#include "HalfFloat.h"
#include "Profile.h"

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <sys/stat.h>
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
  /// --outputs: the safetensors file the outputs are written to (whole
  /// tensors, by rank 0) after the checked steps. Empty: none.
  std::string outputs;
  /// --checkpoint DIR --save-every K: after every K-th step, the state the
  /// next step starts from (every input, updated ones included) is written
  /// to DIR/step<N>.safetensors, which --inputs loads again.
  std::string checkpoint;
  int64_t saveEvery = 0;
  /// --expect: a safetensors file (or .npy directory) of the outputs the
  /// framework computed; each output is compared with it by name, like
  /// --check compares with the reference. Empty: none.
  std::string expect;
};

enum class ParseResult { Run, Help, Error };

/// The rank the launcher gave this process. Options are parsed before MPI is
/// initialised (so that --help runs on any number of ranks), and this keeps
/// --help and option errors to one copy.
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
                  name == "--expect";
    if (!isPath && name != "--iters" && name != "--seed" && name != "--tol" &&
        name != "--atol" && name != "--steps" && name != "--save-every") {
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
      (name == "--dump"      ? options.dump
       : name == "--inputs"  ? options.inputs
       : name == "--outputs" ? options.outputs
       : name == "--expect"  ? options.expect
                             : options.checkpoint) = value;
      continue;
    }
    bool valid = name == "--iters"   ? parseInt(value.c_str(), options.iters)
                 : name == "--steps" ? parseInt(value.c_str(), options.steps) &&
                                           options.steps >= 1
                 : name == "--save-every"
                     ? parseInt(value.c_str(), options.saveEvery) &&
                           options.saveEvery >= 1
                 : name == "--seed" ? parseUnsigned(value.c_str(), options.seed)
                 : name == "--atol" ? parseDouble(value.c_str(), options.atol)
                                    : parseDouble(value.c_str(), options.tol);
    if (!valid) {
      error = "invalid value '" + value + "' for " + name + " (expected " +
              (name == "--tol" || name == "--atol" ? "a non-negative number"
               : name == "--steps" || name == "--save-every"
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
      "       [--outputs FILE] [--expect FILE] [--checkpoint DIR --save-every "
      "K] [--help]\n"
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
      "  --outputs FILE  write the outputs after the checked steps to FILE "
      "(safetensors,\n"
      "             whole tensors; an output that updates an input takes "
      "its name)\n"
      "  --expect FILE  compare the outputs after the checked steps with "
      "FILE's tensors\n"
      "             of the same names (e.g. the framework's outputs), with "
      "--tol and --atol;\n"
      "             exit status 1 if one differs\n"
      "  --checkpoint DIR --save-every K  after every K-th step write the "
      "next step's\n"
      "             inputs to DIR/step<N>.safetensors; --inputs resumes from "
      "it\n"
      "  --help     print this message\n"
      "\n"
      "environment:\n"
      "  SUMMA_PROFILE=path  write each rank's collective and matmul "
      "counters as JSON\n"
      "                      to path.rank<R>.json (or to path with %%r "
      "replaced by R)\n"
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
  else
    static_cast<float *>(data)[i] = static_cast<float>(value);
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

namespace {
/// A backend buffer (see Backend::allocate), released on destruction.
class Buffer {
public:
  Buffer(const Backend &backend, size_t bytes, const std::string &what)
      : backend(&backend), data_(backend.allocate(bytes, what)) {}
  Buffer(Buffer &&other) noexcept : backend(other.backend), data_(other.data_) {
    other.data_ = nullptr;
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  Buffer &operator=(Buffer &&) = delete;
  ~Buffer() {
    if (data_)
      backend->release(data_);
  }

  void *data() const { return data_; }

private:
  const Backend *backend;
  void *data_;
};

/// Host memory, zeroed (allocateHost), freed on destruction.
class HostBuffer {
public:
  HostBuffer(size_t bytes, const std::string &what)
      : data_(allocateHost(bytes, what)) {}
  HostBuffer(HostBuffer &&other) noexcept : data_(other.data_) {
    other.data_ = nullptr;
  }
  HostBuffer(const HostBuffer &) = delete;
  HostBuffer &operator=(const HostBuffer &) = delete;
  HostBuffer &operator=(HostBuffer &&) = delete;
  ~HostBuffer() { std::free(data_); }

  void *data() const { return data_; }

private:
  void *data_;
};

/// A backend buffer as host memory: the buffer itself where buffers are host
/// memory, otherwise a host copy.
class HostView {
public:
  HostView(const Backend &backend, const void *buffer, size_t bytes,
           const std::string &what) {
    if (!backend.toHost) {
      data_ = buffer;
      return;
    }
    copy_ = allocateHost(bytes, what);
    backend.toHost(copy_, buffer, bytes);
    data_ = copy_;
  }
  HostView(const HostView &) = delete;
  HostView &operator=(const HostView &) = delete;
  ~HostView() { std::free(copy_); }

  const void *data() const { return data_; }

private:
  const void *data_ = nullptr;
  void *copy_ = nullptr;
};

Tensor analyseTensor(const SummaTensorDesc &desc, const char *role, int index,
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
    int64_t global = 0;
    if (local < 0 ||
        __builtin_mul_overflow(local, tensor.blocks[dim], &global) ||
        desc.globalShape[dim] != global)
      fatal("%s: %s '%s' dimension %d: global size %lld is not the local "
            "size %lld times the %lld blocks of its split axes",
            caller, role, name, dim, (long long)desc.globalShape[dim],
            (long long)local, (long long)tensor.blocks[dim]);
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
  int error = errno;
  if (file && std::fclose(file) != 0 && written) {
    written = false;
    error = errno;
  }
  if (!written) {
    std::string line = "summa: rank " + std::to_string(rank) +
                       ": cannot write --dump file '" + path +
                       "': " + std::strerror(error) + "\n";
    std::fflush(stdout);
    std::fputs(line.c_str(), stderr);
    std::fflush(stderr);
  }
  return written;
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
};

/// Compares every rank's tile of `tensor` (`tiles`, in world-rank order) with
/// the reference. Ranks that hold the same block (replicas over axes that
/// split no dimension) are numbered by world rank; the relative error is the
/// worst over the tensors assembled from the c-th replica of every block, so
/// a single wrong replica fails the check.
Comparison compareOutput(const Tensor &tensor, const char *tiles,
                         const void *reference, double tol) {
  const GridState &g = grid();
  Comparison result;
  double refSq = 0;
  for (int64_t i = 0; i < tensor.globalCount; ++i) {
    double value = tensor.load(reference, i);
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
      double ref = tensor.load(reference, global);
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

/// Copies every output that updates an input (SummaTensorDesc::updates)
/// over that input, local tiles or whole tensors.
void feedBack(const Backend &backend, const std::vector<Tensor> &inputs,
              const std::vector<Tensor> &outputs,
              const std::vector<void *> &pointers, bool local) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    int32_t updates = outputs[o].desc->updates;
    if (updates <= 0)
      continue;
    size_t bytes = local ? outputs[o].localBytes() : outputs[o].globalBytes();
    if (bytes > 0)
      backend.copy(pointers[updates - 1], pointers[inputs.size() + o], bytes);
  }
}

/// "[4, 8, 32]".
std::string formatShape(const int64_t *shape, size_t rank) {
  std::string s = "[";
  for (size_t d = 0; d < rank; ++d)
    s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

/// Copies `bytes` of host memory into a backend buffer.
void upload(const Backend &backend, void *buffer, const void *host,
            size_t bytes) {
  if (bytes == 0)
    return;
  if (backend.fromHost)
    backend.fromHost(buffer, host, bytes);
  else
    std::memcpy(buffer, host, bytes);
}

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

/// This rank's tile of `tensor` (`buffer`) from every rank, in world-rank
/// order, on rank 0 (every rank must call it; other ranks get an empty
/// buffer). `what` names the tensor and `purpose` the option in an error.
HostBuffer gatherTiles(const Backend &backend, const Tensor &tensor,
                       const void *buffer, const std::string &what,
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
                             tiles.data(), static_cast<int>(bytes), MPI_BYTE,
                             0, MPI_COMM_WORLD));
  return tiles;
}

/// Fills every input held at `coords` (null: whole tensors) into
/// `buffers`: from `source` by name (Tensor::fileName, else its positional
/// name), reading only the elements of the tile; from the seed when there
/// is no source, or the source lacks it and --fill-missing is given. A
/// tensor of another shape or element type, or one missing without
/// --fill-missing, is fatal with its name.
void loadInputs(const TensorSource *source, const std::vector<Tensor> &inputs,
                const std::vector<void *> &buffers, const int64_t *coords,
                const Backend &backend, const Options &options) {
  const char *caller = "summaRtMain";
  std::string missing;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor &input = inputs[i];
    const StoredTensor *stored = source ? findStored(*source, input) : nullptr;
    if (!stored) {
      if (source && !options.fillMissing) {
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
    size_t bytes = coords ? input.localBytes() : input.globalBytes();
    HostBuffer host(bytes, "the host copy of input '" + input.fileName + "'");
    size_t size = input.elementSize;
    char *to = static_cast<char *>(host.data());
    const char *from = stored->data;
    input.forEachElement(coords, [&](int64_t local, int64_t global) {
      std::memcpy(to + local * size, from + global * size, size);
    });
    upload(backend, buffers[i], host.data(), bytes);
  }
  if (!missing.empty())
    fatal("%s: --inputs '%s' has no tensor named %s (inputs are matched by "
          "name, then as arg<N>; --fill-missing takes missing ones from the "
          "seed)",
          caller, source->path().c_str(), missing.c_str());
}

/// The whole of `tensor`, whose tile on this rank is `buffer`, assembled on
/// rank 0 (every rank must call it; other ranks get an empty buffer).
HostBuffer gatherWhole(const Backend &backend, const Tensor &tensor,
                       const void *buffer, const char *purpose) {
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

/// Writes the whole tensors of `tensors` (each a tensor and its tile on
/// this rank) as a safetensors file at `path`, from rank 0; fatal on
/// failure. Every rank must call it.
void writeWhole(const std::string &path,
                const std::vector<std::pair<const Tensor *, const void *>>
                    &tensors,
                const Backend &backend, const char *purpose) {
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
  if (!writeSafetensors(path, records, error))
    fatal("summaRtMain: %s: %s", purpose, error.c_str());
}

/// --checkpoint: the state the step after `step` (1-based) starts from,
/// every input with the outputs that update it in its place.
void writeCheckpoint(const Options &options, int64_t step,
                     const std::vector<Tensor> &inputs,
                     const std::vector<Tensor> &outputs,
                     const std::vector<void *> &pointers,
                     const Backend &backend) {
  std::vector<std::pair<const Tensor *, const void *>> state;
  for (size_t i = 0; i < inputs.size(); ++i)
    state.emplace_back(&inputs[i], pointers[i]);
  for (size_t o = 0; o < outputs.size(); ++o)
    if (int32_t updates = outputs[o].desc->updates; updates > 0)
      state[updates - 1].second = pointers[inputs.size() + o];
  std::string path =
      options.checkpoint + "/step" + std::to_string(step) + ".safetensors";
  writeWhole(path, state, backend, "--checkpoint");
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

/// Runs the reference on rank 0 and compares; returns the exit status.
int checkOnRoot(const SummaProgramDesc &program, const Backend &backend,
                const TensorSource *source,
                const std::vector<Tensor> &inputs,
                const std::vector<Tensor> &outputs,
                const std::vector<HostBuffer> &gathered,
                const Options &options) {
  // The counters describe the spmd program, not the reference: settle the
  // spmd program's operations before pausing.
  settle(backend);
  ProfilePause pause;
  std::vector<Buffer> buffers;
  std::vector<void *> pointers;
  for (size_t i = 0; i < inputs.size(); ++i)
    buffers.emplace_back(backend, inputs[i].globalBytes(),
                         "the whole input '" + inputs[i].name +
                             "' of the --check reference");
  for (const Tensor &output : outputs)
    buffers.emplace_back(backend, output.globalBytes(),
                         "the whole output '" + output.name +
                             "' of the --check reference");
  for (const Buffer &buffer : buffers)
    pointers.push_back(buffer.data());
  loadInputs(source, inputs, pointers, /*coords=*/nullptr, backend, options);
  for (int64_t step = 0; step < options.steps; ++step) {
    program.reference(pointers.data());
    if (step + 1 < options.steps)
      feedBack(backend, inputs, outputs, pointers, /*local=*/false);
  }
  settle(backend);

  double maxRel = 0;
  int failed = -1;
  double failedTol = 0;
  Comparison failure;
  size_t zeroReferences = 0;
  for (size_t o = 0; o < outputs.size(); ++o) {
    const Tensor &output = outputs[o];
    double tol = std::isnan(options.tol) ? toleranceFor(output) : options.tol;
    HostView reference(
        backend, pointers[inputs.size() + o], output.globalBytes(),
        "the host copy of the reference's '" + output.name + "'");
    Comparison cmp =
        compareOutput(output, static_cast<const char *>(gathered[o].data()),
                      reference.data(), tol);
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
  double maxRel = 0;
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
      std::printf("expect: FAIL %s is %s %s, '%s' holds %s %s\n",
                  output.fileName.c_str(), want ? want : "?",
                  formatShape(output.desc->globalShape, output.rank).c_str(),
                  options.expect.c_str(), stored->dtypeName.c_str(),
                  formatShape(stored->shape.data(), stored->shape.size())
                      .c_str());
      failed = true;
      continue;
    }
    ++compared;
    double tol = std::isnan(options.tol) ? toleranceFor(output) : options.tol;
    Comparison cmp =
        compareOutput(output, static_cast<const char *>(gathered[o].data()),
                      stored->data, tol);
    bool ok = !cmp.nonFiniteOutput && !cmp.nonFiniteReference &&
              (cmp.relErr <= tol || cmp.maxAbsErr <= options.atol);
    std::printf("expect: %s rel_err=%.3e max_abs_err=%.3e%s\n",
                output.fileName.c_str(), cmp.relErr, cmp.maxAbsErr,
                ok ? "" : " (FAIL)");
    failed |= !ok;
    if (ok)
      maxRel = std::max(maxRel, cmp.relErr);
  }
  if (compared == 0 && !failed) {
    std::printf("expect: FAIL no output is in '%s'\n", options.expect.c_str());
    failed = true;
  }
  if (!failed)
    std::printf("expect: PASS max_rel_err=%.3e\n", maxRel);
  else
    std::printf("expect: FAIL\n");
  std::fflush(stdout);
  return failed ? 1 : 0;
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
  case ParseResult::Error:
    if (launcherRank() == 0) {
      std::fprintf(stderr, "summa: %s; run %s --help for usage\n",
                   error.c_str(), argv0);
      std::fflush(stderr);
    }
    return 2;
  case ParseResult::Run:
    break;
  }

  summaRtInit(&argc, &argv, program->q, program->d);
  const GridState &g = grid();

  if (program->numInputs < 0 || program->numOutputs < 0 ||
      (program->numInputs > 0 && !program->inputs) ||
      (program->numOutputs > 0 && !program->outputs))
    fatal("%s: invalid program description (%d inputs, %d outputs)", caller,
          program->numInputs, program->numOutputs);
  if (!program->spmd)
    fatal("%s: the program has no spmd function", caller);
  if (options.check && !program->reference)
    fatal("%s: --check needs a reference function, and the program has none",
          caller);
  std::vector<Tensor> inputs, outputs;
  for (int i = 0; i < program->numInputs; ++i)
    inputs.push_back(analyseTensor(program->inputs[i], "input", i, backend));
  for (int i = 0; i < program->numOutputs; ++i)
    outputs.push_back(analyseTensor(program->outputs[i], "output", i, backend));
  for (const Tensor &output : outputs) {
    int32_t updates = output.desc->updates;
    if (updates < 0 || updates > program->numInputs)
      fatal("%s: output '%s' updates input %d, which does not exist", caller,
            output.name.c_str(), updates - 1);
    if (updates > 0 &&
        (inputs[updates - 1].globalBytes() != output.globalBytes() ||
         inputs[updates - 1].localBytes() != output.localBytes()))
      fatal("%s: output '%s' updates input '%s' of another shape or layout",
            caller, output.name.c_str(), inputs[updates - 1].name.c_str());
  }

  // An output that updates an input is saved under the input's name, so
  // that a file of outputs loads as inputs again.
  for (Tensor &output : outputs)
    if (int32_t updates = output.desc->updates; updates > 0)
      output.fileName = inputs[updates - 1].fileName;

  std::unique_ptr<TensorSource> source;
  if (!options.inputs.empty()) {
    source = TensorSource::open(options.inputs, error);
    if (!source)
      fatal("%s: --inputs: %s", caller, error.c_str());
  }
  if (!options.checkpoint.empty() && g.worldRank == 0 &&
      mkdir(options.checkpoint.c_str(), 0777) != 0 && errno != EEXIST)
    fatal("%s: --checkpoint: cannot create directory '%s': %s", caller,
          options.checkpoint.c_str(), std::strerror(errno));

  if (backend.announce)
    backend.announce();

  int status = 0;
  bool dumped = true;
  {
    // This rank's tiles: inputs filled, outputs zeroed.
    std::vector<Buffer> tiles;
    std::vector<void *> pointers;
    for (const Tensor &input : inputs)
      tiles.emplace_back(backend, input.localBytes(),
                         "the tile of input '" + input.name + "'");
    for (const Tensor &output : outputs)
      tiles.emplace_back(backend, output.localBytes(),
                         "the tile of output '" + output.name + "'");
    for (const Buffer &tile : tiles)
      pointers.push_back(tile.data());
    loadInputs(source.get(), inputs, pointers, g.coords, backend, options);

    // The first --steps calls are the ones --check verifies (starting from
    // untouched inputs) and the warm-up of the timing loop.
    for (int64_t step = 0; step < options.steps; ++step) {
      program->spmd(pointers.data());
      if (options.saveEvery > 0 && (step + 1) % options.saveEvery == 0)
        writeCheckpoint(options, step + 1, inputs, outputs, pointers,
                        backend);
      if (step + 1 < options.steps)
        feedBack(backend, inputs, outputs, pointers, /*local=*/true);
    }
    if (!options.outputs.empty()) {
      std::vector<std::pair<const Tensor *, const void *>> written;
      for (size_t o = 0; o < outputs.size(); ++o)
        written.emplace_back(&outputs[o], pointers[inputs.size() + o]);
      writeWhole(options.outputs, written, backend, "--outputs");
    }

    dumped =
        options.dump.empty() || dumpOutputs(options.dump, g.worldRank, outputs,
                                            pointers, inputs.size(), backend);

    std::vector<HostBuffer> gathered;
    if (options.check || !options.expect.empty()) {
      for (size_t o = 0; o < outputs.size(); ++o)
        gathered.push_back(gatherTiles(
            backend, outputs[o], pointers[inputs.size() + o],
            "output '" + outputs[o].name + "'",
            options.check ? "--check" : "--expect"));
    }

    if (options.iters > 0) {
      settle(backend);
      SUMMA_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
      double start = MPI_Wtime();
      for (int64_t iter = 0; iter < options.iters; ++iter)
        program->spmd(pointers.data());
      settle(backend);
      SUMMA_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
      double elapsed = MPI_Wtime() - start;
      if (g.worldRank == 0) {
        std::printf("time: %.3f ms/iter (%lld iters, %d ranks, grid "
                    "[%lld,%lld,%lld])\n",
                    elapsed * 1e3 / options.iters, (long long)options.iters,
                    g.worldSize, (long long)g.q, (long long)g.q,
                    (long long)g.d);
        std::fflush(stdout);
      }
    }

    if (options.check) {
      if (g.worldRank == 0)
        status = checkOnRoot(*program, backend, source.get(), inputs, outputs,
                             gathered, options);
      // Every rank returns the verdict of rank 0.
      SUMMA_MPI_CHECK(MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD));
    }
    if (!options.expect.empty()) {
      int expected = 0;
      if (g.worldRank == 0)
        expected = expectOnRoot(outputs, gathered, options);
      SUMMA_MPI_CHECK(MPI_Bcast(&expected, 1, MPI_INT, 0, MPI_COMM_WORLD));
      status = status ? status : expected;
    }
  } // Buffers go back before the runtime is finalised.
  summaRtFinalize();
  return status == 0 && !dumped ? 1 : status;
}
