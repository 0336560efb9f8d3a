//===- Model.h - a compiled program's tensors and tiles ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The model object behind the library API (SummaModel.h) and the binaries'
// driver (summaRtMain, Run.cpp): a program's validated tensor tables
// and this rank's tiles of every input and output, and one call of the
// partitioned function.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_MODEL_H
#define SUMMA_RUNTIME_TOOLING_MODEL_H

#include "Backend.h"
#include "Tensor.h"

#include "summa/Runtime/SummaModel.h"

#include <string>
#include <vector>

namespace summa::rt::driver {

class Model {
public:
  /// Validates `program` (the runtime must be initialised for its grid) and
  /// allocates this rank's tiles, zeroed. Fatal, naming what is wrong, on an
  /// invalid description.
  Model(const SummaProgramDesc &program, const Backend &backend);

  const SummaProgramDesc &program;
  const Backend &backend;
  std::vector<Tensor> inputs, outputs;
  /// The tiles: inputs, then outputs (the argument of SummaProgramDesc::spmd).
  std::vector<void *> pointers;

  void *inputTile(size_t i) const { return pointers[i]; }
  void *outputTile(size_t o) const { return pointers[inputs.size() + o]; }

  /// One call of the partitioned function on the tiles.
  void call() { program.spmd(pointers.data()); }
  /// Copies every output that updates an input over that input's tile.
  void feedBack();

  /// Makes input `i` read `tile` (another model's tile of the same layout,
  /// which outlives this model's calls) instead of its own, which is freed:
  /// generation's prefill reads the decode step's weights.
  void shareInput(size_t i, void *tile) {
    tiles[i].reset();
    pointers[i] = tile;
  }

  /// Makes output `o`, which updates an input, the tile of that input: the
  /// step's result is written over its argument, and feedBack has nothing
  /// to copy. Only for a result no op of the step writes before its last
  /// read of the argument: the compiled step writes its results at its end,
  /// and a decode step's cache is written in place before it is read.
  void aliasOutput(size_t o) {
    int32_t updates = outputs[o].desc->updates;
    tiles[inputs.size() + o].reset();
    pointers[inputs.size() + o] = pointers[updates - 1];
  }

  /// The input named `name` (Tensor::fileName or Tensor::name), or -1.
  int findInput(const std::string &name) const;
  /// The output named `name`, else the output that updates the input named
  /// `name`; -1 if none.
  int findOutput(const std::string &name) const;

private:
  std::vector<Buffer> tiles;
};

/// Starts the runtime for grid [q, q, d] on `comm` (a Fortran handle, or -1
/// for MPI_COMM_WORLD; MPI initialised if it is not yet, then finalised by
/// summaRtFinalize), for the library's `caller`. One model at a time.
void startRuntime(int64_t q, int64_t d, int64_t comm, const char *caller);

/// summaModelInit of a backend: starts the runtime on `comm` (see
/// SummaModel.h) and makes the model.
SummaModel *createModel(const SummaProgramDesc *program, int64_t comm,
                        const Backend &backend);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_MODEL_H
