//===- Tiles.cpp - tiles between ranks, buffers, whole tensors --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Uploads cut a tile out of a whole tensor (dropping the pages of a mapped
// file behind the copy); gathers collect every rank's tile on rank 0 with
// MPI_Gather and, for a whole tensor, place each element by the layout.
//
//===----------------------------------------------------------------------===//

#include "Tiles.h"

#include "Error.h"
#include "GridState.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

using namespace summa::rt;
using namespace summa::rt::driver;

/// Copies every output that updates an input (SummaTensorDesc::updates)
/// over that input, local tiles or whole tensors.
void summa::rt::driver::feedBack(const Backend &backend,
                                 const std::vector<Tensor> &inputs,
                                 const std::vector<Tensor> &outputs,
                                 const std::vector<void *> &pointers,
                                 bool local) {
  for (size_t o = 0; o < outputs.size(); ++o) {
    int32_t updates = outputs[o].desc->updates;
    if (updates <= 0)
      continue;
    size_t bytes = local ? outputs[o].localBytes() : outputs[o].globalBytes();
    // An output that is its input's tile (Model::aliasOutput) is in place.
    if (bytes > 0 && pointers[updates - 1] != pointers[inputs.size() + o])
      backend.copy(pointers[updates - 1], pointers[inputs.size() + o], bytes);
  }
}

namespace {
/// Drops the pages of [begin, end) of a read-only file mapping from this
/// process (they are clean: reading them again maps them in again).
void releaseMappedPages(const char *begin, const char *end) {
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t first =
      (reinterpret_cast<uintptr_t>(begin) + page - 1) & ~(page - 1);
  uintptr_t last = reinterpret_cast<uintptr_t>(end) & ~(page - 1);
  if (last > first)
    madvise(reinterpret_cast<void *>(first), last - first, MADV_DONTNEED);
}
} // namespace

size_t summa::rt::driver::uploadTile(const Backend &backend,
                                     const Tensor &tensor,
                                     const int64_t *coords, const void *whole,
                                     void *buffer, bool mappedFile) {
  size_t bytes = coords ? tensor.localBytes() : tensor.globalBytes();
  HostBuffer host(bytes, "the host copy of '" + tensor.fileName + "'");
  size_t size = tensor.elementSize;
  char *to = static_cast<char *>(host.data());
  const char *from = static_cast<const char *>(whole);
  // A tile's elements come in increasing global order (row-major tiles of
  // a row-major tensor): what lies before the last one copied is done.
  constexpr int64_t kReleaseEvery = 8 << 20;
  const char *released = from;
  tensor.forEachElement(coords, [&](int64_t local, int64_t global) {
    const char *at = from + global * size;
    std::memcpy(to + local * size, at, size);
    if (mappedFile && at - released > kReleaseEvery && at > released) {
      releaseMappedPages(released, at);
      released = at;
    }
  });
  if (mappedFile)
    releaseMappedPages(from, from + tensor.globalBytes());
  upload(backend, buffer, host.data(), bytes);
  return bytes;
}

/// This rank's tile of `tensor` (`buffer`) from every rank, in world-rank
/// order, on rank 0 (every rank must call it; other ranks get an empty
/// buffer). `what` names the tensor and `purpose` the option in an error.
HostBuffer summa::rt::driver::gatherTiles(const Backend &backend,
                                          const Tensor &tensor,
                                          const void *buffer,
                                          const std::string &what,
                                          const char *purpose) {
  const GridState &g = grid();
  size_t bytes = tensor.localBytes();
  if (bytes > INT_MAX)
    fatal("summaRtMain: %s has %zu bytes per rank, more than %s can gather",
          what.c_str(), bytes, purpose);
  HostView tile(backend, buffer, bytes, "the host copy of " + what);
  HostBuffer tiles(g.worldRank == 0 ? bytes * g.worldSize : 0,
                   "the gathered tiles of " + what);
  SUMMA_MPI_CHECK(MPI_Gather(tile.data(), static_cast<int>(bytes), MPI_BYTE,
                             tiles.data(), static_cast<int>(bytes), MPI_BYTE, 0,
                             g.world));
  return tiles;
}

/// The whole of `tensor`, whose tile on this rank is `buffer`, assembled on
/// rank 0 (every rank must call it; other ranks get an empty buffer).
HostBuffer summa::rt::driver::gatherWhole(const Backend &backend,
                                          const Tensor &tensor,
                                          const void *buffer,
                                          const char *purpose) {
  const GridState &g = grid();
  size_t bytes = tensor.localBytes();
  HostBuffer tiles = gatherTiles(backend, tensor, buffer,
                                 "'" + tensor.fileName + "'", purpose);
  bool root = g.worldRank == 0;
  HostBuffer whole(root ? tensor.globalBytes() : 0,
                   "the whole '" + tensor.fileName + "'");
  if (!root)
    return whole;
  size_t size = tensor.elementSize;
  char *to = static_cast<char *>(whole.data());
  for (int rank = 0; rank < g.worldSize; ++rank) {
    int64_t coords[3];
    coordsOfRank(rank, coords);
    const char *from = static_cast<const char *>(tiles.data()) + rank * bytes;
    tensor.forEachElement(coords, [&](int64_t local, int64_t global) {
      std::memcpy(to + global * size, from + local * size, size);
    });
  }
  return whole;
}

void summa::rt::driver::broadcastFromRoot(void *data, size_t bytes) {
  char *at = static_cast<char *>(data);
  for (size_t done = 0; done < bytes;) {
    int piece = static_cast<int>(std::min<size_t>(bytes - done, 1 << 30));
    SUMMA_MPI_CHECK(MPI_Bcast(at + done, piece, MPI_BYTE, 0, grid().world));
    done += static_cast<size_t>(piece);
  }
}
