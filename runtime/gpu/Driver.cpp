//===- Driver.cpp - summaRtMain of the GPU backend --------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The GPU backend's driver: the CPU driver (runtime/lib/Driver.cpp) with the
// tensors on the device. Options, output lines, exit statuses and the
// --check comparison are the CPU driver's; what differs:
//  * every input tile is allocated from the device pool and filled ON THE
//    DEVICE from the hash of summaRtInputValue (DeviceFill.h), outputs are
//    zeroed device tiles; the spmd function receives device pointers;
//  * the reference also runs on the device (rank 0, whole tensors, device
//    pointers: the compiled reference calls the same runtime), then its
//    outputs and the gathered spmd tiles are compared on the host;
//  * f16 and bf16 tensors are accepted (compared in double after exact
//    widening);
//  * timing synchronises the device (waiting for NCCL with error checks)
//    before the closing barrier.
//
// Why duplicated: the CPU driver keeps its option parsing, tensor analysis
// and comparison in an anonymous namespace of runtime/lib/Driver.cpp on host
// buffers. Sharing them needs that file split into a host-buffer-agnostic
// header (docs/GPU.md proposes the split); until then this copy follows it
// section by section, and the driver tests of both backends pin the common
// behaviour.
//
//===----------------------------------------------------------------------===//

#include "DeviceFill.h"
#include "Error.h"
#include "GpuCheck.h"
#include "GpuContext.h"
#include "Grid.h"
#include "HalfFloat.h"
#include "Profile.h"
#include "Validate.h"

#include "summa/Runtime/SummaRuntime.h"

#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace summa::gpu;
using summa::rt::fatal;
using summa::rt::GridState;

//===----------------------------------------------------------------------===//
// Input values
//===----------------------------------------------------------------------===//

float summaRtInputValue(uint64_t seed, int32_t tensor, int64_t globalIndex) {
  return inputValue(seed, tensor, globalIndex);
}

//===----------------------------------------------------------------------===//
// Options (as runtime/lib/Driver.cpp)
//===----------------------------------------------------------------------===//

namespace {
struct Options {
  int64_t iters = 1;
  int64_t steps = 1;
  bool check = false;
  bool exactReplicas = false;
  uint64_t seed = 42;
  double tol = 1e-5;
  double atol = 1e-8;
};

enum class ParseResult { Run, Help, Error };

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
    std::string name = arg.substr(0, arg.find('='));
    if (name != "--iters" && name != "--seed" && name != "--tol" &&
        name != "--atol" && name != "--steps") {
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
    bool valid = name == "--iters"   ? parseInt(value.c_str(), options.iters)
                 : name == "--steps" ? parseInt(value.c_str(), options.steps) &&
                                           options.steps >= 1
                 : name == "--seed" ? parseUnsigned(value.c_str(), options.seed)
                 : name == "--atol" ? parseDouble(value.c_str(), options.atol)
                                    : parseDouble(value.c_str(), options.tol);
    if (!valid) {
      error = "invalid value '" + value + "' for " + name + " (expected " +
              (name == "--tol" || name == "--atol" ? "a non-negative number"
                                                   : "a non-negative integer") +
              ")";
      return ParseResult::Error;
    }
  }
  return ParseResult::Run;
}

void printUsage(const char *argv0, const SummaProgramDesc &program) {
  long long q = program.q, d = program.d;
  std::printf(
      "usage: %s [--iters N] [--check] [--steps N] [--exact-replicas] "
      "[--seed S]\n"
      "       [--tol T] [--atol A] [--help]\n"
      "\n"
      "Runs the summa program '%s', compiled for the grid [%lld,%lld,%lld], "
      "on GPUs\n"
      "(libsumma_runtime_cuda.so); launch it as\n"
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
      "(default 1e-5)\n"
      "  --help     print this message\n"
      "\n"
      "environment:\n"
      "  SUMMA_PROFILE=path  write each rank's collective and matmul "
      "counters as JSON\n"
      "                      to path.rank<R>.json (or to path with %%r "
      "replaced by R)\n"
      "  SUMMA_ALLOW_TF32=1  let f32 GEMMs use TF32 tensor cores\n"
      "  SUMMA_GPU_COLLECTIVES=mpi  collectives over MPI through host "
      "memory, so that\n"
      "                      several ranks can share one GPU (testing "
      "only)\n",
      argv0, program.name ? program.name : "(unnamed)", q, q, d, q * q * d,
      argv0);
  std::fflush(stdout);
}
} // namespace

//===----------------------------------------------------------------------===//
// Tensors and tiles
//===----------------------------------------------------------------------===//

namespace {
struct Tensor {
  const SummaTensorDesc *desc = nullptr;
  std::string name;
  GpuDType type{};
  int rank = 0;
  int64_t localCount = 1;
  int64_t globalCount = 1;
  int64_t globalStrides[SUMMA_MAX_RANK] = {0, 0, 0, 0};
  int64_t blocks[SUMMA_MAX_RANK] = {1, 1, 1, 1};

  size_t localBytes() const { return localCount * type.size; }
  size_t globalBytes() const { return globalCount * type.size; }

  int64_t blockIndex(int dim, const int64_t coords[3]) const {
    int64_t index = 0;
    for (int slot = 0; slot < 3 && desc->splitAxes[dim][slot] >= 0; ++slot) {
      int axis = desc->splitAxes[dim][slot];
      index = index * summa::rt::axisExtent(axis) + coords[axis];
    }
    return index;
  }

  int64_t blockKey(const int64_t coords[3]) const {
    int64_t key = 0;
    for (int dim = 0; dim < rank; ++dim)
      key = key * blocks[dim] + blockIndex(dim, coords);
    return key;
  }

  /// The tile held at `coords` (or, with nullptr, the whole tensor).
  TileMap tileMap(const int64_t *coords) const {
    TileMap map;
    map.rank = rank;
    map.count = coords ? localCount : globalCount;
    const int64_t *shape = coords ? desc->localShape : desc->globalShape;
    for (int dim = 0; dim < rank; ++dim) {
      map.shape[dim] = shape[dim];
      map.origin[dim] = coords ? blockIndex(dim, coords) * shape[dim] : 0;
      map.globalStrides[dim] = globalStrides[dim];
    }
    return map;
  }

  double load(const void *data, int64_t i) const {
    switch (desc->dtype) {
    case SUMMA_DT_F64:
      return static_cast<const double *>(data)[i];
    case SUMMA_DT_F16:
      return halfToFloat(static_cast<const uint16_t *>(data)[i]);
    case SUMMA_DT_BF16:
      return bfloat16ToFloat(static_cast<const uint16_t *>(data)[i]);
    default:
      return static_cast<const float *>(data)[i];
    }
  }
};

Tensor analyseTensor(const SummaTensorDesc &desc, const char *role, int index) {
  const char *caller = "summaRtMain";
  Tensor tensor;
  tensor.desc = &desc;
  tensor.name =
      desc.name ? desc.name : std::string(role) + " #" + std::to_string(index);
  const char *name = tensor.name.c_str();
  if (desc.rank < 0 || desc.rank > SUMMA_MAX_RANK)
    fatal("%s: %s '%s' has rank %d (expected 0..%d)", caller, role, name,
          desc.rank, SUMMA_MAX_RANK);
  tensor.rank = desc.rank;
  if (!gpuDTypeName(desc.dtype))
    fatal("%s: %s '%s' has an invalid element type %d", caller, role, name,
          desc.dtype);
  requireValid(checkDType(caller, desc.dtype, /*allowF64=*/true, &tensor.type));
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
      tensor.blocks[dim] *= summa::rt::axisExtent(axis);
    }
    int64_t local = desc.localShape[dim];
    if (local < 0 || desc.globalShape[dim] != local * tensor.blocks[dim])
      fatal("%s: %s '%s' dimension %d: global size %lld is not the local "
            "size %lld times the %lld blocks of its split axes",
            caller, role, name, dim, (long long)desc.globalShape[dim],
            (long long)local, (long long)tensor.blocks[dim]);
    tensor.localCount *= local;
    tensor.globalCount *= desc.globalShape[dim];
  }
  int64_t stride = 1;
  for (int dim = tensor.rank - 1; dim >= 0; --dim) {
    tensor.globalStrides[dim] = stride;
    stride *= desc.globalShape[dim];
  }
  return tensor;
}

/// A zeroed device buffer from the pool (never a null pointer).
class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t bytes) : bytes(bytes) {
    cudaStream_t stream = computeStream();
    data_ = allocate(bytes, stream);
    if (bytes > 0)
      SUMMA_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes, stream));
  }
  DeviceBuffer(DeviceBuffer &&other) noexcept
      : data_(other.data_), bytes(other.bytes) {
    other.data_ = nullptr;
  }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(DeviceBuffer &&) = delete;
  ~DeviceBuffer() {
    if (data_)
      release(data_, computeStream());
  }

  void *data() const { return data_; }

  /// Copies the buffer to the host (after the queued work).
  std::vector<char> toHost() const {
    std::vector<char> host(bytes);
    if (bytes > 0) {
      SUMMA_CUDA_CHECK(cudaMemcpyAsync(
          host.data(), data_, bytes, cudaMemcpyDeviceToHost, computeStream()));
      synchronize();
    }
    return host;
  }

private:
  void *data_;
  size_t bytes;
};

void fillInput(const Tensor &tensor, int index, uint64_t seed,
               const int64_t *coords, void *data) {
  fillInputOnDevice(data, tensor.desc->dtype, tensor.tileMap(coords), seed,
                    index, tensor.desc->scale,
                    tensor.desc->init == SUMMA_INIT_NONNEGATIVE,
                    computeStream());
}

/// Copies every output that updates an input over that input, on the device.
void feedBack(const std::vector<Tensor> &inputs,
              const std::vector<Tensor> &outputs,
              const std::vector<void *> &pointers, bool local) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    int32_t updates = outputs[o].desc->updates;
    if (updates <= 0)
      continue;
    size_t bytes = local ? outputs[o].localBytes() : outputs[o].globalBytes();
    if (bytes > 0)
      SUMMA_CUDA_CHECK(
          cudaMemcpyAsync(pointers[updates - 1], pointers[inputs.size() + o],
                          bytes, cudaMemcpyDeviceToDevice, computeStream()));
  }
}
} // namespace

//===----------------------------------------------------------------------===//
// --check (as runtime/lib/Driver.cpp, on host copies)
//===----------------------------------------------------------------------===//

namespace {
struct Comparison {
  double relErr = 0;
  double maxAbsErr = 0;
  bool replicasIdentical = true;
  bool nonFiniteOutput = false;
  bool nonFiniteReference = false;
};

Comparison compareOutput(const Tensor &tensor, const char *tiles,
                         const void *reference, double tol) {
  const GridState &g = summa::rt::grid();
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
    summa::rt::coordsOfRank(rank, coords);
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
    TileMap map = tensor.tileMap(coords);
    double diffSq = 0, replicaDiffSq = 0, replicaSq = 0;
    for (int64_t local = 0; local < map.count; ++local) {
      int64_t global = globalIndexOf(map, local);
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
    }
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

int checkOnRoot(const SummaProgramDesc &program,
                const std::vector<Tensor> &inputs,
                const std::vector<Tensor> &outputs,
                const std::vector<std::vector<char>> &gathered,
                const Options &options) {
  // The counters describe the spmd program, not the reference: settle the
  // timed spmd operations before pausing.
  synchronize();
  flushProfile();
  std::vector<std::vector<char>> references;
  {
    summa::rt::ProfilePause pause;
    std::vector<DeviceBuffer> buffers;
    std::vector<void *> pointers;
    for (size_t i = 0; i < inputs.size(); ++i) {
      buffers.emplace_back(inputs[i].globalBytes());
      fillInput(inputs[i], static_cast<int>(i), options.seed, nullptr,
                buffers.back().data());
    }
    for (const Tensor &output : outputs)
      buffers.emplace_back(output.globalBytes());
    for (const DeviceBuffer &buffer : buffers)
      pointers.push_back(buffer.data());
    for (int64_t step = 0; step < options.steps; ++step) {
      program.reference(pointers.data());
      if (step + 1 < options.steps)
        feedBack(inputs, outputs, pointers, /*local=*/false);
    }
    for (size_t o = 0; o < outputs.size(); ++o)
      references.push_back(buffers[inputs.size() + o].toHost());
    flushProfile();
  }

  double maxRel = 0;
  int failed = -1;
  Comparison failure;
  for (size_t o = 0; o < outputs.size(); ++o) {
    const Tensor &output = outputs[o];
    Comparison cmp = compareOutput(output, gathered[o].data(),
                                   references[o].data(), options.tol);
    bool absolute = cmp.relErr > options.tol && cmp.maxAbsErr <= options.atol;
    const char *note = cmp.nonFiniteReference ? " (non-finite reference)"
                       : cmp.nonFiniteOutput  ? " (non-finite output)"
                       : absolute             ? " (within --atol)"
                                              : "";
    std::printf("check: %s rel_err=%.3e max_abs_err=%.3e%s\n",
                output.name.c_str(), cmp.relErr, cmp.maxAbsErr, note);
    if (options.exactReplicas)
      std::printf("check: %s replicas %s\n", output.name.c_str(),
                  cmp.replicasIdentical ? "bit-identical" : "DIFFER");
    bool ok = !cmp.nonFiniteOutput && !cmp.nonFiniteReference &&
              (cmp.relErr <= options.tol || cmp.maxAbsErr <= options.atol) &&
              (!options.exactReplicas || cmp.replicasIdentical);
    if (!ok && failed < 0) {
      failed = static_cast<int>(o);
      failure = cmp;
    }
    if (ok && !absolute)
      maxRel = std::max(maxRel, cmp.relErr);
  }
  if (failed >= 0)
    std::printf("check: FAIL output %s rel_err=%.3e max_abs_err=%.3e (tol "
                "%g)\n",
                outputs[failed].name.c_str(), failure.relErr, failure.maxAbsErr,
                options.tol);
  else
    std::printf("check: PASS max_rel_err=%.3e\n", maxRel);
  std::fflush(stdout);
  return failed >= 0 ? 1 : 0;
}
} // namespace

//===----------------------------------------------------------------------===//
// summaRtMain
//===----------------------------------------------------------------------===//

int summaRtMain(int argc, char **argv, const SummaProgramDesc *program) {
  const char *caller = "summaRtMain";
  if (!program)
    fatal("%s: no program description", caller);
  const char *argv0 = argc > 0 && argv && argv[0] ? argv[0] : "summa-program";

  Options options;
  std::string error;
  switch (parseOptions(argc, argv, options, error)) {
  case ParseResult::Help:
    if (launcherRank() == 0)
      printUsage(argv0, *program);
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
  const GridState &g = summa::rt::grid();

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
    inputs.push_back(analyseTensor(program->inputs[i], "input", i));
  for (int i = 0; i < program->numOutputs; ++i)
    outputs.push_back(analyseTensor(program->outputs[i], "output", i));
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

  if (g.worldRank == 0) {
    const DeviceInfo &device = deviceInfo();
    std::printf("gpu: %s (sm_%d), collectives over %s\n", device.name,
                device.computeCapability,
                collectiveMode() == CollectiveMode::Nccl
                    ? "NCCL"
                    : "MPI through host memory (test mode)");
    std::fflush(stdout);
  }

  int status = 0;
  {
    // This rank's device tiles: inputs filled on the device, outputs zeroed.
    std::vector<DeviceBuffer> tiles;
    std::vector<void *> pointers;
    for (size_t i = 0; i < inputs.size(); ++i) {
      tiles.emplace_back(inputs[i].localBytes());
      fillInput(inputs[i], static_cast<int>(i), options.seed, g.coords,
                tiles.back().data());
    }
    for (const Tensor &output : outputs)
      tiles.emplace_back(output.localBytes());
    for (const DeviceBuffer &tile : tiles)
      pointers.push_back(tile.data());

    for (int64_t step = 0; step < options.steps; ++step) {
      program->spmd(pointers.data());
      if (step + 1 < options.steps)
        feedBack(inputs, outputs, pointers, /*local=*/true);
    }

    std::vector<std::vector<char>> gathered;
    if (options.check) {
      for (size_t o = 0; o < outputs.size(); ++o) {
        size_t bytes = outputs[o].localBytes();
        if (bytes > INT_MAX)
          fatal("%s: output '%s' has %zu bytes per rank, more than --check "
                "can gather",
                caller, outputs[o].name.c_str(), bytes);
        std::vector<char> local = tiles[inputs.size() + o].toHost();
        gathered.emplace_back(g.worldRank == 0 ? bytes * g.worldSize : 0);
        SUMMA_MPI_CHECK(MPI_Gather(local.data(), static_cast<int>(bytes),
                                   MPI_BYTE, gathered.back().data(),
                                   static_cast<int>(bytes), MPI_BYTE, 0,
                                   MPI_COMM_WORLD));
      }
    }

    if (options.iters > 0) {
      synchronize();
      SUMMA_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
      double start = MPI_Wtime();
      for (int64_t iter = 0; iter < options.iters; ++iter)
        program->spmd(pointers.data());
      synchronize();
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
        status = checkOnRoot(*program, inputs, outputs, gathered, options);
      SUMMA_MPI_CHECK(MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD));
    }
  }
  summaRtFinalize();
  return status;
}
