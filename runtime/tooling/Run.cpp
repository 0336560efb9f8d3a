//===- Run.cpp - summaRtMain: the steps of a compiled program ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The main that summa-compile links in (through each backend's summaRtMain):
// parses the options, initialises the runtime, fills each rank's input tiles
// (Inputs.h), runs the steps (with --data's batches, progress lines,
// --metrics and --checkpoint), writes --outputs and --dump, times the spmd
// function and, with --check or --expect, compares its outputs (Check.h).
//
//===----------------------------------------------------------------------===//

#include "Run.h"
#include "Check.h"
#include "Checkpoint.h"
#include "Gradcheck.h"
#include "Inputs.h"
#include "Metrics.h"
#include "RunContext.h"
#include "Tiles.h"

#include "Error.h"
#include "GridState.h"
#include "Profile.h"

#include <mpi.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace summa::rt;
using namespace summa::rt::driver;

namespace {

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
    collectiveBytesBetween(before, after, local);
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
void runSteps(const RunContext &run, StepRecorder *recorder) {
  const GridState &g = grid();
  Model &model = run.model;
  const Options &options = run.options;
  const Feed &feed = run.feed;
  const Backend &backend = model.backend;
  int64_t logEvery =
      options.logEvery >= 0 ? options.logEvery : (feed.batches.data ? 1 : 0);
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
  int64_t tokensPerStep = feed.tokensPerStep(model.inputs);
  for (int64_t step = 0; step < options.steps; ++step) {
    int64_t done = feed.stepsBefore + step + 1;
    if (run.kill.at(done, /*checkpoint=*/false))
      run.kill.now("before");
    if (recorder)
      recorder->begin();
    double start = MPI_Wtime();
    feed.beforeStep(step, model.inputs, run.tiles());
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
      writeCheckpoint(run, done);
    if (step + 1 < options.steps)
      model.feedBack();
  }
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
    // Every rank found the same error; rank 0 says it.
    return reportOptionError(argc, argv, argv0, error);
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
    RunContext run(options, model);
    openInputs(run);
    if (!options.checkpoint.empty() && grid().worldRank == 0 &&
        mkdir(options.checkpoint.c_str(), 0777) != 0 && errno != EEXIST)
      fatal("%s: --checkpoint: cannot create directory '%s': %s", caller,
            options.checkpoint.c_str(), std::strerror(errno));
    if (backend.announce)
      backend.announce();
    if (options.verbose && grid().worldRank == 0) {
      std::printf("summa: local products: %s\n", summaRtKernelInfo(0));
      std::fflush(stdout);
    }

    run.kill = KillAt::fromEnvironment();
    std::unique_ptr<StepRecorder> recorder;
    if (!options.metrics.empty() || !options.tensorboard.empty()) {
      std::unique_ptr<MetricsLog> log;
      if (grid().worldRank == 0) {
        log = MetricsLog::open(options.metrics, options.tensorboard,
                               run.feed.stepsBefore, error);
        if (!log)
          fatal("%s: %s", caller, error.c_str());
      }
      recorder = std::make_unique<StepRecorder>(
          model, std::move(log), run.feed.tokensPerStep(model.inputs));
    }

    loadInputs(run, run.tiles());
    runSteps(run, recorder.get());
    dumped = writeResults(run);
    std::vector<HostBuffer> gathered;
    if (options.check || !options.expect.empty())
      for (size_t o = 0; o < model.outputs.size(); ++o)
        gathered.push_back(gatherTiles(backend, model.outputs[o],
                                       model.outputTile(o),
                                       "output '" + model.outputs[o].name + "'",
                                       options.check ? "--check" : "--expect"));
    timeCalls(model, options.iters);
    status = verify(run, gathered);
    if (options.gradcheck) {
      int checked = gradcheck(run);
      status = status ? status : checked;
    }
  } // Buffers go back before the runtime is finalised.
  summaRtFinalize();
  return status == 0 && !dumped ? 1 : status;
}
