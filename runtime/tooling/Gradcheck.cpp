//===- Gradcheck.cpp - --gradcheck: derivatives by finite differences -----===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The loss function and the gradients' function of a derived step
// (SummaGradcheckDesc) on the step's whole inputs in host memory, widened
// to f64 where they compute in f64; per parameter, --gradcheck-dirs random
// unit directions (a pure function of --seed, the parameter and the
// direction; zero on a row the gradient leaves out by definition, an
// embedding's padding row), the central difference of the loss along each
// against the gradient's projection on it (FiniteDifferences.h, which
// summa-opt's test mode shares).
//
//===----------------------------------------------------------------------===//

#include "Gradcheck.h"
#include "Inputs.h"

#include "Error.h"
#include "FiniteDifferences.h"
#include "GridState.h"
#include "Profile.h"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

using namespace summa::rt;
using namespace summa::rt::driver;

namespace {

bool isFloat(int32_t dtype) {
  return dtype == SUMMA_DT_F32 || dtype == SUMMA_DT_F64 ||
         dtype == SUMMA_DT_F16 || dtype == SUMMA_DT_BF16;
}

/// Tensors in host memory as the gradient check's functions take them: the
/// description's element type, or f64 for floats where they compute in
/// f64. Owns the descriptions (a Tensor points at its own) and the buffers.
class HostTensors {
public:
  explicit HostTensors(bool f64) : f64(f64) {}

  /// A whole tensor like `desc` (its global shape), zeroed; returns its
  /// index.
  size_t add(const SummaTensorDesc &like, const std::string &what) {
    descs.push_back(like);
    SummaTensorDesc &desc = descs.back();
    if (f64 && isFloat(desc.dtype))
      desc.dtype = SUMMA_DT_F64;
    for (int d = 0; d < desc.rank; ++d) {
      desc.localShape[d] = desc.globalShape[d];
      desc.splitAxes[d][0] = -1;
      desc.groups[d] = 1;
    }
    tensors.push_back(analyseTensor(desc, "gradient check",
                                    static_cast<int>(size()), hostBackend()));
    buffers.emplace_back(tensors.back().globalBytes(), what);
    return size() - 1;
  }
  size_t size() const { return tensors.size(); }
  const Tensor &tensor(size_t i) const { return tensors[i]; }
  void *data(size_t i) const { return buffers[i].data(); }
  double load(size_t i, int64_t e) const { return tensors[i].load(data(i), e); }
  void store(size_t i, int64_t e, double v) const {
    tensors[i].store(data(i), e, v);
  }

private:
  bool f64;
  std::deque<SummaTensorDesc> descs;
  std::deque<Tensor> tensors;
  std::deque<HostBuffer> buffers;
};

int gradcheckOnRoot(const RunContext &run) {
  const SummaProgramDesc &program = run.model.program;
  const SummaGradcheckDesc &gc = *program.gradcheck;
  const std::vector<Tensor> &inputs = run.model.inputs;
  const Options &options = run.options;
  const Backend &host = hostBackend();
  if (gc.numInputs < 0 || gc.numInputs > static_cast<int32_t>(inputs.size()))
    fatal("summaRtMain: --gradcheck: the program's gradient check takes %d "
          "inputs, the program has %zu",
          static_cast<int>(gc.numInputs), inputs.size());

  // The whole inputs in their own types (as --check's reference loads them).
  std::vector<HostBuffer> given;
  std::vector<void *> givenPointers;
  given.reserve(inputs.size());
  for (const Tensor &input : inputs) {
    given.emplace_back(input.globalBytes(),
                       "the whole input '" + input.name + "' of --gradcheck");
    givenPointers.push_back(given.back().data());
  }
  loadInputs(run, Placement{host, givenPointers, /*coords=*/nullptr});

  HostTensors t(gc.f64 != 0);
  std::vector<void *> lossArgs, gradArgs;
  for (int32_t i = 0; i < gc.numInputs; ++i) {
    size_t k = t.add(*inputs[i].desc,
                     "the input '" + inputs[i].name + "' of --gradcheck");
    for (int64_t e = 0; e < inputs[i].globalCount; ++e)
      t.store(k, e, inputs[i].load(givenPointers[i], e));
    lossArgs.push_back(t.data(k));
  }
  gradArgs = lossArgs;
  size_t firstLossOutput = t.size();
  for (int32_t o = 0; o < gc.numLossOutputs; ++o)
    lossArgs.push_back(
        t.data(t.add(gc.lossOutputs[o], "an output of the loss function")));
  gradArgs.push_back(
      t.data(t.add(gc.lossOutputs[0], "the loss of the gradients' function")));
  size_t firstGradient = t.size();
  for (int32_t p = 0; p < gc.numParams; ++p) {
    int32_t input = gc.params[p];
    if (input < 0 || input >= gc.numInputs)
      fatal("summaRtMain: --gradcheck: parameter %d is input %d, not one of "
            "the loss function's %d inputs",
            static_cast<int>(p), static_cast<int>(input),
            static_cast<int>(gc.numInputs));
    gradArgs.push_back(t.data(t.add(
        *inputs[input].desc, "the gradient of '" + inputs[input].name + "'")));
  }

  // The loss: the sum of output 0 (the adjoint a derived step seeds).
  const Tensor &lossTensor = t.tensor(firstLossOutput);
  auto loss = [&]() {
    gc.loss(lossArgs.data());
    double sum = 0;
    for (int64_t e = 0; e < lossTensor.globalCount; ++e)
      sum += t.load(firstLossOutput, e);
    return sum;
  };
  gc.gradients(gradArgs.data());
  double l0 = loss();

  bool f64 = gc.f64 != 0;
  FiniteDifferenceSettings settings = FiniteDifferenceSettings::forF64(f64);
  if (!std::isnan(options.gradcheckTol))
    settings.tolerance = options.gradcheckTol;
  if (!f64)
    std::printf("gradcheck: note: the functions compute in the model's own "
                "types (not f64): finite differences of step %g, tolerance "
                "%g\n",
                settings.step, settings.tolerance);
  std::printf("gradcheck: loss %.9g, %d parameters, %lld directions each, "
              "step %g\n",
              l0, static_cast<int>(gc.numParams),
              static_cast<long long>(options.gradcheckDirections),
              settings.step);

  double maxErr = 0;
  int failed = -1;
  for (int32_t p = 0; p < gc.numParams; ++p) {
    size_t w = static_cast<size_t>(gc.params[p]);
    size_t g = firstGradient + p;
    const Tensor &param = t.tensor(w);
    FiniteDifferenceParameter view;
    view.count = param.globalCount;
    view.get = [&](int64_t e) { return t.load(w, e); };
    view.set = [&](int64_t e, double v) { t.store(w, e, v); };
    view.gradient = [&](int64_t e) { return t.load(g, e); };
    if (gc.frozenRows && gc.frozenRows[p] >= 0 && param.rank > 0 &&
        param.desc->globalShape[0] > 0) {
      view.frozenRow = gc.frozenRows[p];
      view.rowSize = param.globalCount / param.desc->globalShape[0];
    }
    FiniteDifferenceResult result = checkParameter(
        view, p, loss, l0, options.seed, options.gradcheckDirections, settings);
    const std::string &name = inputs[w].fileName;
    if (!result.finite)
      std::printf("gradcheck: %s non-finite gradient or loss\n", name.c_str());
    else
      std::printf("gradcheck: %s rel_err=%.3e |grad|=%.3e\n", name.c_str(),
                  result.worst, result.gradientNorm);
    bool ok = result.finite && result.worst <= settings.tolerance;
    if (!ok && failed < 0)
      failed = p;
    maxErr = std::max(maxErr, result.finite ? result.worst : INFINITY);
  }
  if (failed >= 0)
    std::printf("gradcheck: FAIL %s: the derived gradient differs from the "
                "finite differences of the loss (tol %g)\n",
                inputs[gc.params[failed]].fileName.c_str(), settings.tolerance);
  else
    std::printf("gradcheck: PASS max_rel_err=%.3e\n", maxErr);
  std::fflush(stdout);
  return failed >= 0 ? 1 : 0;
}

} // namespace

int summa::rt::driver::gradcheck(const RunContext &run) {
  const GridState &g = grid();
  int status = 0;
  if (g.worldRank == 0) {
    if (!run.model.program.gradcheck) {
      std::printf("gradcheck: this program has no gradient check: only a "
                  "training step that summa-differentiate derived has one "
                  "(unless it was compiled with --gradcheck=false)\n");
      status = 2;
    } else {
      // The counters describe the spmd program, not the check.
      settle(run.model.backend);
      ProfilePause pause;
      status = gradcheckOnRoot(run);
    }
  }
  SUMMA_MPI_CHECK(MPI_Bcast(&status, 1, MPI_INT, 0, g.world));
  return status;
}
