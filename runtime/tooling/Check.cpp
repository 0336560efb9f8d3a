//===- Check.cpp - --check and --expect -------------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The comparison of gathered output tiles with a whole reference tensor
// (each replica of a block on its own), the default tolerances, the
// reference run in host memory (widened to f64 where the program asks), and
// the lines and verdicts of --check and --expect.
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "Inputs.h"
#include "ShardedCheckpoint.h"
#include "Tiles.h"

#include "Error.h"
#include "GridState.h"
#include "Profile.h"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fnmatch.h>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace summa::rt;
using namespace summa::rt::driver;

namespace {

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
std::vector<void *> runReference(const RunContext &run,
                                 const ReferenceTensors &ref,
                                 std::vector<HostBuffer> &buffers) {
  const SummaProgramDesc &program = run.model.program;
  const std::vector<Tensor> &inputs = run.model.inputs;
  const Options &options = run.options;
  const Backend &host = hostBackend();
  buffers.reserve(2 * inputs.size() + ref.outputs.size());
  std::vector<void *> given, pointers;
  for (const Tensor &input : inputs) {
    buffers.emplace_back(input.globalBytes(), "the whole input '" + input.name +
                                                  "' of the --check reference");
    given.push_back(buffers.back().data());
  }
  loadInputs(run, Placement{host, given, /*coords=*/nullptr});
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
    run.feed.beforeStep(step, inputs,
                        Placement{host, given, /*coords=*/nullptr});
    for (size_t i = 0; i < inputs.size(); ++i)
      if (run.feed.feeds(i) && wideInput(i))
        widenInto(inputs[i], given[i], ref.inputs[i], pointers[i]);
    program.reference(pointers.data());
    if (step + 1 < options.steps)
      feedBack(host, ref.inputs, ref.outputs, pointers, /*local=*/false);
  }
  return pointers;
}

/// Runs the reference on rank 0 and compares; returns the exit status.
int checkOnRoot(const RunContext &run,
                const std::vector<HostBuffer> &gathered) {
  const std::vector<Tensor> &inputs = run.model.inputs;
  const std::vector<Tensor> &outputs = run.model.outputs;
  const Options &options = run.options;
  // The counters describe the spmd program, not the reference: settle the
  // spmd program's operations before pausing.
  settle(run.model.backend);
  ProfilePause pause;
  ReferenceTensors ref(run.model.program, inputs, outputs);
  std::vector<HostBuffer> buffers;
  std::vector<void *> pointers = runReference(run, ref, buffers);

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
} // namespace

int summa::rt::driver::verify(const RunContext &run,
                              const std::vector<HostBuffer> &gathered) {
  const Options &options = run.options;
  const GridState &g = grid();
  int status = 0;
  if (options.check) {
    if (g.worldRank == 0)
      status = checkOnRoot(run, gathered);
    SUMMA_MPI_CHECK(MPI_Bcast(&status, 1, MPI_INT, 0, g.world));
  }
  if (!options.expect.empty()) {
    int expected = 0;
    if (g.worldRank == 0)
      expected = expectOnRoot(run.model.outputs, gathered, options);
    SUMMA_MPI_CHECK(MPI_Bcast(&expected, 1, MPI_INT, 0, g.world));
    status = status ? status : expected;
  }
  return status;
}
