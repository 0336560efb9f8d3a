//===- Model.cpp - a compiled program's tensors and tiles -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "Model.h"
#include "Tiles.h"

#include "Error.h"
#include "GridState.h"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <memory>

using namespace summa::rt;
using namespace summa::rt::driver;

//===----------------------------------------------------------------------===//
// Model
//===----------------------------------------------------------------------===//

Model::Model(const SummaProgramDesc &program, const Backend &backend)
    : program(program), backend(backend) {
  const char *caller = "summaRtMain";
  if (program.numInputs < 0 || program.numOutputs < 0 ||
      (program.numInputs > 0 && !program.inputs) ||
      (program.numOutputs > 0 && !program.outputs))
    fatal("%s: invalid program description (%d inputs, %d outputs)", caller,
          program.numInputs, program.numOutputs);
  if (!program.spmd)
    fatal("%s: the program has no spmd function", caller);
  for (int i = 0; i < program.numInputs; ++i)
    inputs.push_back(analyseTensor(program.inputs[i], "input", i, backend));
  for (int i = 0; i < program.numOutputs; ++i)
    outputs.push_back(analyseTensor(program.outputs[i], "output", i, backend));
  for (Tensor &output : outputs) {
    int32_t updates = output.desc->updates;
    if (updates < 0 || updates > program.numInputs)
      fatal("%s: output '%s' updates input %d, which does not exist", caller,
            output.name.c_str(), updates - 1);
    if (updates == 0)
      continue;
    const Tensor &input = inputs[updates - 1];
    if (input.globalBytes() != output.globalBytes() ||
        input.localBytes() != output.localBytes())
      fatal("%s: output '%s' updates input '%s' of another shape or layout",
            caller, output.name.c_str(), input.name.c_str());
    // Saved under the input's name, so that a file of outputs loads as
    // inputs again.
    output.fileName = input.fileName;
  }
  for (const Tensor &input : inputs)
    tiles.emplace_back(backend, input.localBytes(),
                       "the tile of input '" + input.name + "'");
  for (const Tensor &output : outputs)
    tiles.emplace_back(backend, output.localBytes(),
                       "the tile of output '" + output.name + "'");
  for (const Buffer &tile : tiles)
    pointers.push_back(tile.data());
}

void Model::feedBack() {
  driver::feedBack(backend, inputs, outputs, pointers, /*local=*/true);
}

int Model::findInput(const std::string &name) const {
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].fileName == name || inputs[i].name == name)
      return static_cast<int>(i);
  return -1;
}

int Model::findOutput(const std::string &name) const {
  for (size_t o = 0; o < outputs.size(); ++o)
    if (outputs[o].name == name)
      return static_cast<int>(o);
  for (size_t o = 0; o < outputs.size(); ++o)
    if (outputs[o].fileName == name)
      return static_cast<int>(o);
  return -1;
}

//===----------------------------------------------------------------------===//
// The C API
//===----------------------------------------------------------------------===//

struct SummaModel {
  Model model;
  /// summaModelLastError.
  mutable std::string lastError;
};

void summa::rt::driver::startRuntime(int64_t q, int64_t d, int64_t comm,
                                     const char *caller) {
  GridState &g = grid();
  if (g.initialised)
    fatal("%s: a model is running already (one at a time)", caller);
  bool mpiStarted = mpiRunning();
  if (comm != -1) {
    if (!mpiStarted)
      fatal("%s: communicator %lld given before MPI is initialised", caller,
            (long long)comm);
    g.world = MPI_Comm_f2c(static_cast<MPI_Fint>(comm));
    if (g.world == MPI_COMM_NULL)
      fatal("%s: %lld is not a communicator handle", caller, (long long)comm);
  }
  summaRtInit(nullptr, nullptr, q, d);
  // A host that started MPI finalises it.
  grid().finalizeMpi = !mpiStarted;
}

SummaModel *summa::rt::driver::createModel(const SummaProgramDesc *program,
                                           int64_t comm,
                                           const Backend &backend) {
  const char *caller = "summaModelInit";
  if (!program)
    fatal("%s: no program description", caller);
  startRuntime(program->q, program->d, comm, caller);
  return new SummaModel{Model(*program, backend), std::string()};
}

namespace {
int32_t failWith(const SummaModel *model, const std::string &message) {
  model->lastError = message;
  return -1;
}

void validModel(const SummaModel *model, const char *caller) {
  if (!model)
    fatal("%s: no model (summaModelInit returns it)", caller);
}

/// The name (`name`: Tensor::name or Tensor::fileName) of `tensors[index]`,
/// or null when there is no such tensor.
const char *nameAt(const std::vector<Tensor> &tensors, int32_t index,
                   std::string Tensor::*name) {
  return index >= 0 && static_cast<size_t>(index) < tensors.size()
             ? (tensors[index].*name).c_str()
             : nullptr;
}

/// The input (`input`) or output named `name` for `caller`, with a valid
/// `layout` and `data` unless the tile is empty; -1 after failWith otherwise.
int findForCopy(const SummaModel *model, const char *caller, const char *name,
                int32_t layout, const void *data, bool input) {
  validModel(model, caller);
  const Model &m = model->model;
  std::string key = name ? name : "";
  int index = input ? m.findInput(key) : m.findOutput(key);
  if (index < 0)
    return failWith(model, std::string(caller) + ": the model has no " +
                               (input ? "input" : "output") + " named '" + key +
                               "'");
  if (layout != SUMMA_LAYOUT_WHOLE && layout != SUMMA_LAYOUT_TILE)
    return failWith(model, std::string(caller) + ": invalid layout " +
                               std::to_string(layout));
  const Tensor &tensor = input ? m.inputs[index] : m.outputs[index];
  if (!data && tensor.localBytes() > 0)
    return failWith(model, std::string(caller) +
                               (input ? ": no data for '" + tensor.fileName
                                      : ": no buffer for '" + tensor.name) +
                               "'");
  return index;
}
} // namespace

int32_t summaModelNumInputs(const SummaModel *model) {
  validModel(model, "summaModelNumInputs");
  return static_cast<int32_t>(model->model.inputs.size());
}

int32_t summaModelNumOutputs(const SummaModel *model) {
  validModel(model, "summaModelNumOutputs");
  return static_cast<int32_t>(model->model.outputs.size());
}

const char *summaModelInputName(const SummaModel *model, int32_t index) {
  validModel(model, "summaModelInputName");
  return nameAt(model->model.inputs, index, &Tensor::fileName);
}

const char *summaModelOutputName(const SummaModel *model, int32_t index) {
  validModel(model, "summaModelOutputName");
  return nameAt(model->model.outputs, index, &Tensor::name);
}

int32_t summaModelTensorInfo(const SummaModel *model, const char *name,
                             int32_t *rank, int32_t *dtype,
                             int64_t *globalShape, int64_t *tileShape) {
  validModel(model, "summaModelTensorInfo");
  const Model &m = model->model;
  std::string key = name ? name : "";
  int i = m.findInput(key), o = i < 0 ? m.findOutput(key) : -1;
  if (i < 0 && o < 0)
    return failWith(model, "summaModelTensorInfo: the model has no tensor "
                           "named '" +
                               key + "'");
  const Tensor &t = i >= 0 ? m.inputs[i] : m.outputs[o];
  if (rank)
    *rank = t.rank;
  if (dtype)
    *dtype = t.desc->dtype;
  for (int d = 0; d < t.rank; ++d) {
    if (globalShape)
      globalShape[d] = t.desc->globalShape[d];
    if (tileShape)
      tileShape[d] = t.desc->localShape[d];
  }
  return 0;
}

int32_t summaModelSetInput(SummaModel *model, const char *name,
                           const void *data, int32_t layout) {
  int i = findForCopy(model, "summaModelSetInput", name, layout, data,
                      /*input=*/true);
  if (i < 0)
    return -1;
  Model &m = model->model;
  const Tensor &input = m.inputs[i];
  if (layout == SUMMA_LAYOUT_TILE) {
    upload(m.backend, m.inputTile(i), data, input.localBytes());
    return 0;
  }
  uploadTile(m.backend, input, grid().coords, data, m.inputTile(i));
  return 0;
}

int32_t summaModelRun(SummaModel *model) {
  validModel(model, "summaModelRun");
  model->model.call();
  model->model.feedBack();
  return 0;
}

int32_t summaModelGetOutput(SummaModel *model, const char *name, void *data,
                            int32_t layout) {
  int o = findForCopy(model, "summaModelGetOutput", name, layout, data,
                      /*input=*/false);
  if (o < 0)
    return -1;
  Model &m = model->model;
  const Tensor &output = m.outputs[o];
  if (layout == SUMMA_LAYOUT_TILE) {
    HostView tile(m.backend, m.outputTile(o), output.localBytes(),
                  "the host copy of output '" + output.name + "'");
    std::memcpy(data, tile.data(), output.localBytes());
    return 0;
  }
  HostBuffer whole =
      gatherWhole(m.backend, output, m.outputTile(o), "summaModelGetOutput");
  const GridState &g = grid();
  if (g.worldRank == 0)
    std::memcpy(data, whole.data(), output.globalBytes());
  broadcastFromRoot(data, output.globalBytes());
  return 0;
}

const char *summaModelLastError(const SummaModel *model) {
  validModel(model, "summaModelLastError");
  return model->lastError.c_str();
}

void summaModelFinalize(SummaModel *model) {
  validModel(model, "summaModelFinalize");
  if (model->model.backend.settle)
    model->model.backend.settle();
  delete model; // The tiles go back before the runtime is finalised.
  summaRtFinalize();
}
