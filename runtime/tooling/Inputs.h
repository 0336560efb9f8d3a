//===- Inputs.h - a run's inputs from files, --data, the seed ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Where the inputs of a run come from: --inputs (a safetensors file, a
// directory of .npy files or a sharded checkpoint, matched by name; each rank
// reads only its tiles), --data (the token ids of each step's batch), and
// otherwise the seed. The same path fills this rank's tiles and the whole
// tensors of the --check reference.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_INPUTS_H
#define SUMMA_RUNTIME_TOOLING_INPUTS_H

#include "Backend.h"
#include "RunContext.h"
#include "Tensor.h"
#include "TensorFile.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace summa::rt::driver {

/// Opens --inputs (into run.source) and --data (into run.tokens) and says
/// what feeds the steps besides the inputs (run.feed); fatal on a bad file
/// or option.
void openInputs(RunContext &run);

/// Fills every input of `into`, but those run.feed fills each step: from
/// run.source by name (Tensor::fileName, else its positional name), reading
/// only the elements of the tile; from the seed when there is no source, or
/// the source lacks it and --fill-missing is given (zeros for a tensor
/// initialised to zeros, which may be missing). A tensor of another shape or
/// element type, or one missing without --fill-missing, is fatal with its
/// name.
void loadInputs(const RunContext &run, const Placement &into);

/// Copies `stored`, a tensor of `source`, into buffer `i` of `into` (the
/// tile of `input` it holds, or the whole tensor): fatal, naming both, when
/// its element type or shape is not the input's. A sharded checkpoint's
/// boxes are read where they meet the tile.
void loadStored(const TensorSource &source, const StoredTensor &stored,
                const Tensor &input, const Placement &into, size_t i);

/// The tensor of `source` that stands for `tensor`: by its file name, else
/// by its positional name; null if neither is there.
const StoredTensor *findStored(const TensorSource &source,
                               const Tensor &tensor);

/// Whether `stored` has the global shape of `tensor`.
bool sameShape(const StoredTensor &stored, const Tensor &tensor);

/// "[4, 8, 32]".
std::string formatShape(const int64_t *shape, size_t rank);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_INPUTS_H
