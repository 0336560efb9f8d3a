//===- ShardedFormat.h - the files of a sharded checkpoint ------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// A sharded checkpoint is a directory that every rank writes its own part
// of, so that no rank ever holds more than its own tiles:
//
//   DIR/rank<R>.safetensors  the boxes rank R owns, each a tensor named
//                            "<name>@<offset>,<offset>,..." (its corner)
//   DIR/index.json           {"format": "summa-sharded", "version": 1,
//                             "metadata": {...}, "files": ["rank0...", ...],
//                             "tensors": [{"name", "dtype", "shape",
//                               "pieces": [{"file": F, "key", "offsets",
//                                           "sizes"}]}]}
//
// A box is a rectangular region of the whole tensor in its global
// coordinates, so a checkpoint does not depend on the grid that wrote it:
// any grid reads it, each rank copying out of the boxes only the elements
// of its own tile (TensorSource reads the index and maps the files).
//
// The directory is written under DIR.tmp and renamed to DIR once every
// file and the index are on the disk: DIR is always a complete checkpoint.
//
// This file is the format alone (no grid, no MPI), which summa-ckpt shares;
// ShardedCheckpoint.h is what the driver writes and reads with it.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_SHARDEDFORMAT_H
#define SUMMA_RUNTIME_TOOLING_SHARDEDFORMAT_H

#include "TensorFile.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace summa::rt::driver {

/// Along one dimension, the elements [global, global + length) of the
/// whole tensor are at [local, local + length) of a tile.
struct Run {
  int64_t global, local, length;
};

/// Copies the elements that a tile and `box` (row-major in `box.sizes`)
/// have in common: the tile is row-major in `tileShape`, and `runs` (per
/// dimension) say where its elements lie in the whole tensor. Into the box
/// when `toBox`, else into the tile. Returns the bytes copied.
size_t copyRuns(const std::vector<std::vector<Run>> &runs,
                const int64_t *tileShape, size_t elementSize, char *tile,
                const Box &box, char *boxData, bool toBox);

/// copyRuns between a whole tensor of `shape` (row-major) and `box`.
size_t copyWholeBox(const std::vector<int64_t> &shape, size_t elementSize,
                    char *whole, const Box &box, char *boxData, bool toBox);

/// Fills a tile (`tileBytes` bytes; copyRuns' `runs` and `tileShape`) from
/// the pieces of `stored`, a tensor of a sharded checkpoint; elements no
/// piece covers are zero. Returns the bytes read from the pieces.
size_t readPieces(const std::vector<std::vector<Run>> &runs,
                  const int64_t *tileShape, size_t elementSize,
                  const StoredTensor &stored, char *tile, size_t tileBytes);

/// The name of a box of the tensor `name` in its file: "<name>@<offsets>".
std::string pieceKey(const std::string &name, const Box &box);

/// The name of the file of rank (or part) `index`: "rank<index>.safetensors".
std::string pieceFile(int index);

/// A box of a tensor in the index: in files[file] under `key`.
struct IndexedPiece {
  int file;
  std::string key;
  Box box;
};

/// A tensor in the index.
struct IndexedTensor {
  std::string name;
  int32_t dtype = 0;
  std::vector<int64_t> shape;
  std::vector<IndexedPiece> pieces;
};

/// The text of index.json.
std::string
shardedIndexJson(const std::vector<std::string> &files,
                 const std::vector<IndexedTensor> &tensors,
                 const std::map<std::string, std::string> &metadata);

/// Writes `index` as `temporary`/index.json, durably, and renames
/// `temporary` to `directory` (replacing an older one). False and `error`
/// on failure.
bool commitShardedDirectory(const std::string &temporary,
                            const std::string &directory,
                            const std::string &index, std::string &error);

/// Removes the flat directory `path` and its files, or the file `path`
/// (nothing when it does not exist). False and `error` on failure.
bool removeCheckpointDirectory(const std::string &path, std::string &error);

/// Whether `path` names a sharded checkpoint (a directory with an
/// index.json).
bool isShardedCheckpoint(const std::string &path);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_SHARDEDFORMAT_H
