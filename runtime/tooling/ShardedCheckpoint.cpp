//===- ShardedCheckpoint.cpp - checkpoints written by owners ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "ShardedCheckpoint.h"

#include "Error.h"
#include "GridState.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mpi.h>
#include <sys/stat.h>

using namespace summa::rt;
using namespace summa::rt::driver;

namespace {

/// Per dimension, the runs of the tile of `tensor` held at `coords` (null:
/// the whole tensor), without padding: one per group of a factored
/// dimension (Tensor::forEachElement's mapping).
std::vector<std::vector<Run>> tileRuns(const Tensor &tensor,
                                       const int64_t *coords) {
  std::vector<std::vector<Run>> runs(tensor.rank);
  for (int dim = 0; dim < tensor.rank; ++dim) {
    int64_t whole = tensor.desc->globalShape[dim];
    if (!coords) {
      runs[dim].push_back({0, 0, whole});
      continue;
    }
    int64_t chunk = tensor.desc->localShape[dim] / tensor.groups[dim];
    int64_t span = chunk * tensor.blocks[dim];
    int64_t origin = tensor.blockIndex(dim, coords) * chunk;
    for (int64_t group = 0; group < tensor.groups[dim]; ++group) {
      int64_t global = group * span + origin;
      int64_t length = std::min(chunk, whole - global);
      if (length > 0)
        runs[dim].push_back({global, group * chunk, length});
    }
  }
  return runs;
}

} // namespace

size_t summa::rt::driver::copyTileBox(const Tensor &tensor,
                                      const int64_t *coords, char *tile,
                                      const Box &box, char *boxData,
                                      bool toBox) {
  return copyRuns(tileRuns(tensor, coords),
                  coords ? tensor.desc->localShape : tensor.desc->globalShape,
                  tensor.elementSize, tile, box, boxData, toBox);
}

std::vector<Box> summa::rt::driver::ownedBoxes(const Tensor &tensor,
                                               const int64_t coords[3]) {
  // The replicas of this tile: the ranks that differ from this one only on
  // the axes no dimension is split over.
  int64_t replicas = 1, replica = 0;
  for (int axis = 0; axis < 3; ++axis) {
    bool used = false;
    for (int dim = 0; dim < tensor.rank; ++dim)
      for (int slot = 0; slot < 3 && tensor.desc->splitAxes[dim][slot] >= 0;
           ++slot)
        used |= tensor.desc->splitAxes[dim][slot] == axis;
    if (used)
      continue;
    replica = replica * axisExtent(axis) + coords[axis];
    replicas *= axisExtent(axis);
  }
  std::vector<std::vector<Run>> runs = tileRuns(tensor, coords);
  // Every combination of one run per dimension is a box of the tile.
  std::vector<Box> boxes;
  std::vector<size_t> pick(tensor.rank, 0);
  for (int dim = 0; dim < tensor.rank; ++dim)
    if (runs[dim].empty())
      return boxes;
  while (true) {
    Box box;
    for (int dim = 0; dim < tensor.rank; ++dim) {
      box.offsets.push_back(runs[dim][pick[dim]].global);
      box.sizes.push_back(runs[dim][pick[dim]].length);
    }
    // This replica's part: a cut of the longest dimension (a scalar goes
    // to the first replica).
    if (replicas > 1) {
      if (tensor.rank == 0) {
        if (replica != 0)
          return boxes;
      } else {
        int longest = static_cast<int>(
            std::max_element(box.sizes.begin(), box.sizes.end()) -
            box.sizes.begin());
        int64_t n = box.sizes[longest];
        int64_t begin = n * replica / replicas;
        int64_t end = n * (replica + 1) / replicas;
        box.offsets[longest] += begin;
        box.sizes[longest] = end - begin;
      }
    }
    if (box.count() > 0)
      boxes.push_back(std::move(box));
    int dim = tensor.rank - 1;
    while (dim >= 0 && ++pick[dim] == runs[dim].size())
      pick[dim--] = 0;
    if (dim < 0)
      break;
  }
  return boxes;
}

size_t summa::rt::driver::readTileFromPieces(const Tensor &tensor,
                                             const int64_t *coords,
                                             const StoredTensor &stored,
                                             char *tile) {
  return readPieces(tileRuns(tensor, coords),
                    coords ? tensor.desc->localShape : tensor.desc->globalShape,
                    tensor.elementSize, stored, tile,
                    coords ? tensor.localBytes() : tensor.globalBytes());
}

size_t summa::rt::driver::writeSharded(
    const std::string &directory, const std::vector<TileToWrite> &tensors,
    const char *purpose, const std::map<std::string, std::string> &metadata,
    const WriteProgress &progress) {
  const GridState &g = grid();
  std::string temporary = directory + ".tmp";
  std::string error;
  // A directory left by a writer that died is started again.
  if (g.worldRank == 0 && (!removeCheckpointDirectory(temporary, error) ||
                           mkdir(temporary.c_str(), 0777) != 0)) {
    if (error.empty())
      error = "cannot create '" + temporary + "': " + std::strerror(errno);
    fatal("summaRtMain: %s: %s", purpose, error.c_str());
  }
  SUMMA_MPI_CHECK(MPI_Barrier(g.world));

  int64_t coords[3];
  coordsOfRank(g.worldRank, coords);
  std::vector<std::vector<char>> pieces;
  std::vector<TensorToWrite> records;
  for (const TileToWrite &t : tensors) {
    for (const Box &box : ownedBoxes(*t.tensor, coords)) {
      pieces.emplace_back(box.count() * t.tensor->elementSize);
      copyTileBox(*t.tensor, coords,
                  const_cast<char *>(static_cast<const char *>(t.tile)), box,
                  pieces.back().data(), /*toBox=*/true);
      TensorToWrite record;
      record.name = pieceKey(t.tensor->fileName, box);
      record.dtype = t.tensor->desc->dtype;
      record.shape = box.sizes;
      record.data = pieces.back().data();
      record.bytes = pieces.back().size();
      records.push_back(std::move(record));
    }
  }
  size_t written = 0;
  for (const TensorToWrite &record : records)
    written += record.bytes;
  if (!writeSafetensors(temporary + "/" + pieceFile(g.worldRank), records,
                        error, {}, progress))
    fatal("summaRtMain: %s: %s", purpose, error.c_str());
  pieces.clear();
  SUMMA_MPI_CHECK(MPI_Barrier(g.world));
  if (g.worldRank != 0)
    return written;

  // The index: every rank's boxes, computed here as each rank did.
  std::vector<std::string> files;
  for (int rank = 0; rank < g.worldSize; ++rank)
    files.push_back(pieceFile(rank));
  std::vector<IndexedTensor> indexed;
  for (const TileToWrite &t : tensors) {
    IndexedTensor entry;
    entry.name = t.tensor->fileName;
    entry.dtype = t.tensor->desc->dtype;
    entry.shape.assign(t.tensor->desc->globalShape,
                       t.tensor->desc->globalShape + t.tensor->rank);
    for (const IndexedTensor &other : indexed)
      if (other.name == entry.name)
        fatal("summaRtMain: %s: two tensors are named '%s'", purpose,
              entry.name.c_str());
    for (int rank = 0; rank < g.worldSize; ++rank) {
      int64_t at[3];
      coordsOfRank(rank, at);
      for (Box &box : ownedBoxes(*t.tensor, at))
        entry.pieces.push_back(
            {rank, pieceKey(entry.name, box), std::move(box)});
    }
    indexed.push_back(std::move(entry));
  }
  if (!commitShardedDirectory(temporary, directory,
                              shardedIndexJson(files, indexed, metadata),
                              error))
    fatal("summaRtMain: %s: %s", purpose, error.c_str());
  return written;
}
