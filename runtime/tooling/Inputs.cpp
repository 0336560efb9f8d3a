//===- Inputs.cpp - a run's inputs from files, --data, the seed -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// openInputs opens --inputs and --data once per run; loadInputs fills the
// model's tiles, and the whole tensors of the --check reference, by name
// from the file (whole tensors or a sharded checkpoint's boxes), else from
// the seed.
//
//===----------------------------------------------------------------------===//

#include "Inputs.h"
#include "ShardedCheckpoint.h"
#include "Tiles.h"

#include "Error.h"
#include "Profile.h"

using namespace summa::rt;
using namespace summa::rt::driver;

std::string summa::rt::driver::formatShape(const int64_t *shape, size_t rank) {
  std::string s = "[";
  for (size_t d = 0; d < rank; ++d)
    s += (d ? ", " : "") + std::to_string(shape[d]);
  return s + "]";
}

const StoredTensor *summa::rt::driver::findStored(const TensorSource &source,
                                                  const Tensor &tensor) {
  const StoredTensor *stored = source.find(tensor.fileName);
  if (!stored && tensor.fileName != tensor.name)
    stored = source.find(tensor.name);
  return stored;
}

bool summa::rt::driver::sameShape(const StoredTensor &stored,
                                  const Tensor &tensor) {
  if (stored.shape.size() != static_cast<size_t>(tensor.rank))
    return false;
  for (int d = 0; d < tensor.rank; ++d)
    if (stored.shape[d] != tensor.desc->globalShape[d])
      return false;
  return true;
}

void summa::rt::driver::loadStored(const TensorSource &source,
                                   const StoredTensor &stored,
                                   const Tensor &input, const Placement &into,
                                   size_t i) {
  const char *caller = "summaRtMain";
  const char *path = source.path().c_str();
  if (stored.dtype != input.desc->dtype) {
    const char *want = safetensorsDTypeName(input.desc->dtype);
    fatal("%s: --inputs '%s': tensor '%s' has element type %s; input '%s' "
          "is %s",
          caller, path, stored.name.c_str(), stored.dtypeName.c_str(),
          input.fileName.c_str(), want ? want : "?");
  }
  if (!sameShape(stored, input))
    fatal("%s: --inputs '%s': tensor '%s' has shape %s; input '%s' has "
          "shape %s",
          caller, path, stored.name.c_str(),
          formatShape(stored.shape.data(), stored.shape.size()).c_str(),
          input.fileName.c_str(),
          formatShape(input.desc->globalShape, input.rank).c_str());
  if (!stored.data) {
    // A sharded checkpoint: the tile from the boxes that hold it.
    size_t bytes = into.coords ? input.localBytes() : input.globalBytes();
    HostBuffer tile(bytes, "the host copy of '" + input.fileName + "'");
    recordRead(static_cast<int64_t>(readTileFromPieces(
        input, into.coords, stored, static_cast<char *>(tile.data()))));
    upload(into.backend, into.buffers[i], tile.data(), bytes);
    return;
  }
  recordRead(static_cast<int64_t>(uploadTile(into.backend, input, into.coords,
                                             stored.data, into.buffers[i],
                                             /*mappedFile=*/true)));
}

void summa::rt::driver::loadInputs(const RunContext &run,
                                   const Placement &into) {
  const Options &options = run.options;
  const TensorSource *source = run.source.get();
  const std::vector<Tensor> &inputs = run.model.inputs;
  const char *caller = "summaRtMain";
  std::string missing;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (run.feed.feeds(i))
      continue;
    const Tensor &input = inputs[i];
    const StoredTensor *stored = source ? findStored(*source, input) : nullptr;
    if (!stored) {
      // State that starts at zero (an optimizer's moments, the step
      // counter) need not be in the file.
      if (source && !options.fillMissing &&
          input.desc->init != SUMMA_INIT_ZEROS) {
        missing += (missing.empty() ? "'" : ", '") + input.fileName + "'";
        continue;
      }
      into.backend.fill(input, static_cast<int>(i), options.seed, into.coords,
                        into.buffers[i]);
      continue;
    }
    loadStored(*source, *stored, input, into, i);
  }
  if (!missing.empty())
    fatal("%s: --inputs '%s' has no tensor named %s (inputs are matched by "
          "name, then as arg<N>; --fill-missing takes missing ones from the "
          "seed)",
          caller, source->path().c_str(), missing.c_str());
}

void summa::rt::driver::openInputs(RunContext &run) {
  const Options &options = run.options;
  std::unique_ptr<TensorSource> &source = run.source;
  std::unique_ptr<TokenData> &tokens = run.tokens;
  Feed &feed = run.feed;
  const char *caller = "summaRtMain";
  std::string error;
  if (!options.inputs.empty()) {
    source = TensorSource::openAll(options.inputs, error);
    if (!source)
      fatal("%s: --inputs: %s", caller, error.c_str());
    // A checkpoint says how many steps made it.
    auto step = source->metadata().find("summa.step");
    if (step != source->metadata().end() &&
        !parseInt(step->second.c_str(), feed.stepsBefore))
      fatal("%s: --inputs '%s': its metadata summa.step '%s' is not a step "
            "count",
            caller, source->path().c_str(), step->second.c_str());
  }
  if (!options.data.empty()) {
    tokens = TokenData::open(options.data, error);
    if (!tokens)
      fatal("%s: --data: %s", caller, error.c_str());
    feed.batches.data = tokens.get();
    feed.batches.which =
        chooseDataInputs(run.model.inputs, options.dataInputs, *tokens);
    feed.batches.seed = options.seed;
    feed.batches.vocab = options.vocab;
  } else if (!options.dataInputs.empty() || options.vocab > 0) {
    fatal("%s: --data-inputs and --vocab need --data", caller);
  }
}
