//===- RunContext.h - what one run of summaRtMain works with ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// A run of a compiled program: its options, the model (the program's tensors
// and this rank's tiles), the file --inputs reads, the batches of --data and
// the steps before the run, and the fault SUMMA_KILL_AT asks for. Loading
// inputs, the steps, checkpoints and the checks take it whole.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_RUNCONTEXT_H
#define SUMMA_RUNTIME_TOOLING_RUNCONTEXT_H

#include "Backend.h"
#include "DataLoader.h"
#include "KillAt.h"
#include "Model.h"
#include "Options.h"
#include "TensorFile.h"

#include "GridState.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace summa::rt::driver {

/// What feeds the steps of a run besides the inputs: --data's batches, and
/// the number of steps done before the run (the "summa.step" of the
/// checkpoint --inputs resumes from).
struct Feed {
  Batches batches;
  int64_t stepsBefore = 0;

  bool feeds(size_t input) const { return batches.feeds(input); }
  /// Fills the fed inputs of `into` for step `step` of this run (0-based).
  void beforeStep(int64_t step, const std::vector<Tensor> &inputs,
                  const Placement &into) const {
    if (batches.data)
      batches.load(stepsBefore + step, inputs, into);
  }
  /// The tokens of a step's batch; 0 without --data.
  int64_t tokensPerStep(const std::vector<Tensor> &inputs) const {
    return batches.data ? inputs[batches.which.tokens].globalCount : 0;
  }
};

struct RunContext {
  RunContext(const Options &options, Model &model)
      : options(options), model(model) {}
  RunContext(const RunContext &) = delete;
  RunContext &operator=(const RunContext &) = delete;

  const Options &options;
  Model &model;
  /// --inputs (openInputs); null without it.
  std::unique_ptr<TensorSource> source;
  /// --data (openInputs); null without it.
  std::unique_ptr<TokenData> tokens;
  Feed feed;
  KillAt kill;

  /// This rank's tiles of the model.
  Placement tiles() const {
    return {model.backend, model.pointers, grid().coords};
  }
};

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_RUNCONTEXT_H
