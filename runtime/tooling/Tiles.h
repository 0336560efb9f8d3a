//===- Tiles.h - tiles between ranks, buffers, whole tensors ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The copies of the harness that know a tensor's layout: a rank's tile cut
// out of a whole tensor into a backend buffer, every rank's tile gathered on
// rank 0 (as tiles, or assembled into the whole tensor), and the outputs that
// update an input copied over it between steps.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_TILES_H
#define SUMMA_RUNTIME_TOOLING_TILES_H

#include "Backend.h"
#include "Tensor.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace summa::rt::driver {

/// Copies every output that updates an input (SummaTensorDesc::updates)
/// over that input, local tiles or whole tensors.
void feedBack(const Backend &backend, const std::vector<Tensor> &inputs,
              const std::vector<Tensor> &outputs,
              const std::vector<void *> &pointers, bool local);

/// Copies the tile of `tensor` held at `coords` (null: the whole tensor)
/// out of `whole`, the whole tensor in host memory, into `buffer`; returns
/// the bytes copied. With `mappedFile`, `whole` lies in a read-only mapping
/// of a file, whose pages are dropped from this process behind the copy:
/// a rank that reads its tile of a large table holds the pages of a few
/// megabytes of it at a time, not the table.
size_t uploadTile(const Backend &backend, const Tensor &tensor,
                  const int64_t *coords, const void *whole, void *buffer,
                  bool mappedFile = false);

/// This rank's tile of `tensor` (`buffer`) from every rank, in world-rank
/// order, on rank 0 (every rank must call it; other ranks get an empty
/// buffer). `what` names the tensor and `purpose` the option in an error.
HostBuffer gatherTiles(const Backend &backend, const Tensor &tensor,
                       const void *buffer, const std::string &what,
                       const char *purpose);

/// Copies `bytes` of host memory at `data` from world rank 0 to every rank
/// (MPI_Bcast in pieces an int counts).
void broadcastFromRoot(void *data, size_t bytes);

/// The whole of `tensor`, whose tile on this rank is `buffer`, assembled on
/// rank 0 (every rank must call it; other ranks get an empty buffer).
HostBuffer gatherWhole(const Backend &backend, const Tensor &tensor,
                       const void *buffer, const char *purpose);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_TILES_H
