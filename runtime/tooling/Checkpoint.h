//===- Checkpoint.h - a run's tensors written to files ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// What a run writes: --checkpoint (after every K-th step, the state the next
// step starts from, as a sharded checkpoint), --outputs (the outputs after
// the checked steps: a whole safetensors file gathered on rank 0, or a
// sharded directory) and --dump (each rank's raw output tiles).
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_CHECKPOINT_H
#define SUMMA_RUNTIME_TOOLING_CHECKPOINT_H

#include "RunContext.h"

#include <cstdint>

namespace summa::rt::driver {

/// --checkpoint: the state the step after `step` (1-based, counted from the
/// start of training) starts from, every input with the outputs that update
/// it in its place, to DIR/step<step>; its "summa.step" metadata is `step`.
/// Every rank must call it.
void writeCheckpoint(const RunContext &run, int64_t step);

/// --outputs and --dump after the steps; false if a --dump file could not
/// be written. Every rank must call it.
bool writeResults(const RunContext &run);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_CHECKPOINT_H
