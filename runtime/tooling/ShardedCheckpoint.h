//===- ShardedCheckpoint.h - checkpoints written by owners ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The driver's side of sharded checkpoints (the format: ShardedFormat.h):
// which boxes each rank writes, and the tile a rank reads back. Each
// element is written once: a tile held by several ranks (the replicas of a
// tensor not split over some grid axis) is cut into as many parts along
// its longest dimension, one per replica, so that the bytes spread over the
// ranks.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_SHARDEDCHECKPOINT_H
#define SUMMA_RUNTIME_TOOLING_SHARDEDCHECKPOINT_H

#include "ShardedFormat.h"
#include "Tensor.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace summa::rt::driver {

/// The boxes of `tensor` that the rank at `coords` writes: the parts of its
/// tile (one box per combination of the groups of its factored dimensions,
/// without padding) that fall to it among the replicas of the tile.
std::vector<Box> ownedBoxes(const Tensor &tensor, const int64_t coords[3]);

/// Copies the elements that the tile of `tensor` held at `coords` (null:
/// the whole tensor; row-major in its local shape) and `box` have in
/// common (copyRuns). Returns the bytes copied.
size_t copyTileBox(const Tensor &tensor, const int64_t *coords, char *tile,
                   const Box &box, char *boxData, bool toBox);

/// Fills the tile of `tensor` at `coords` (null: whole) from the pieces of
/// `stored` (a tensor of a sharded checkpoint of the same global shape);
/// padding is zero. Returns the bytes read.
size_t readTileFromPieces(const Tensor &tensor, const int64_t *coords,
                          const StoredTensor &stored, char *tile);

/// A tensor to write from its tile on this rank.
struct TileToWrite {
  const Tensor *tensor;
  /// Host memory, row-major in the tile's local shape.
  const void *tile;
};

/// Writes `tensors` as the sharded checkpoint `directory`; every rank must
/// call it. `metadata` goes to the index. `progress` runs on this rank
/// after each of its pieces reached its file (a testing aid). Fatal, naming
/// `purpose`, on failure. Returns the bytes this rank wrote.
size_t writeSharded(const std::string &directory,
                    const std::vector<TileToWrite> &tensors,
                    const char *purpose,
                    const std::map<std::string, std::string> &metadata,
                    const WriteProgress &progress = nullptr);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_SHARDEDCHECKPOINT_H
