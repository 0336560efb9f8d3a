//===- Checkpoint.cpp - a run's tensors written to files --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Gathered whole files (--outputs FILE.safetensors), sharded directories
// each rank writes its own boxes of (--outputs DIR, --checkpoint), and the
// per-rank raw tiles of --dump.
//
//===----------------------------------------------------------------------===//

#include "Checkpoint.h"
#include "ShardedCheckpoint.h"
#include "Tiles.h"

#include "Error.h"
#include "GridState.h"
#include "Profile.h"

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

using namespace summa::rt;
using namespace summa::rt::driver;

namespace {

/// Writes this rank's output tiles; on failure says so and returns false
/// (every rank writes its own file: no coordination, no hang).
bool dumpOutputs(const std::string &pattern, int rank, const Model &model) {
  const std::vector<Tensor> &outputs = model.outputs;
  std::string path = perRankPath(pattern, rank, ".bin");
  FILE *file = std::fopen(path.c_str(), "wb");
  bool written = file != nullptr;
  for (size_t o = 0; written && o < outputs.size(); ++o) {
    HostView tile(model.backend, model.outputTile(o), outputs[o].localBytes(),
                  "the --dump copy of output '" + outputs[o].name + "'");
    written = std::fwrite(tile.data(), 1, outputs[o].localBytes(), file) ==
              outputs[o].localBytes();
  }
  return closeRankFile(file, written, rank, "--dump", path);
}

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

} // namespace

void summa::rt::driver::writeCheckpoint(const RunContext &run, int64_t step) {
  const std::vector<Tensor> &inputs = run.model.inputs;
  const std::vector<Tensor> &outputs = run.model.outputs;
  const std::vector<void *> &pointers = run.model.pointers;
  std::vector<std::pair<const Tensor *, const void *>> state;
  for (size_t i = 0; i < inputs.size(); ++i)
    state.emplace_back(&inputs[i], pointers[i]);
  for (size_t o = 0; o < outputs.size(); ++o)
    if (int32_t updates = outputs[o].desc->updates; updates > 0)
      state[updates - 1].second = pointers[inputs.size() + o];
  std::string path = run.options.checkpoint + "/step" + std::to_string(step);
  WriteProgress progress;
  if (run.kill.at(step, /*checkpoint=*/true))
    progress = [&](size_t, size_t) {
      run.kill.now("while writing the checkpoint of");
    };
  writeOwned(path, state, run.model.backend, "--checkpoint",
             {{"summa.step", std::to_string(step)}}, progress);
  if (grid().worldRank == 0) {
    std::printf("checkpoint: step %lld written to %s\n", (long long)step,
                path.c_str());
    std::fflush(stdout);
  }
}

bool summa::rt::driver::writeResults(const RunContext &run) {
  const Model &model = run.model;
  const Options &options = run.options;
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
         dumpOutputs(options.dump, grid().worldRank, model);
}
