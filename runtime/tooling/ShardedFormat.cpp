//===- ShardedFormat.cpp - the files of a sharded checkpoint ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "ShardedFormat.h"

#include "Json.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace summa::rt::driver;

int64_t Box::count() const {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  return n;
}

namespace {

/// Row-major strides of `shape`, in elements.
std::vector<int64_t> stridesOf(const int64_t *shape, int rank) {
  std::vector<int64_t> strides(rank, 1);
  for (int dim = rank - 2; dim >= 0; --dim)
    strides[dim] = strides[dim + 1] * shape[dim + 1];
  return strides;
}

/// Along one dimension, `length` elements at `tile` of a tile and at `box`
/// of a box are the same elements of the tensor.
struct Overlap {
  int64_t tile, box, length;
};

/// Copies the elements of the overlaps, dimension `dim` on: between
/// `tile` + `tileAt` and `box` + `boxAt` (element offsets).
void copyOverlaps(const std::vector<std::vector<Overlap>> &overlaps,
                  const std::vector<int64_t> &tileStrides,
                  const std::vector<int64_t> &boxStrides, size_t size, int dim,
                  char *tile, int64_t tileAt, char *box, int64_t boxAt,
                  bool toBox, size_t &copied) {
  int rank = static_cast<int>(overlaps.size());
  for (const Overlap &o : overlaps[dim]) {
    int64_t t = tileAt + o.tile * tileStrides[dim];
    int64_t b = boxAt + o.box * boxStrides[dim];
    if (dim == rank - 1) {
      size_t bytes = o.length * size;
      if (toBox)
        std::memcpy(box + b * size, tile + t * size, bytes);
      else
        std::memcpy(tile + t * size, box + b * size, bytes);
      copied += bytes;
      continue;
    }
    for (int64_t i = 0; i < o.length; ++i)
      copyOverlaps(overlaps, tileStrides, boxStrides, size, dim + 1, tile,
                   t + i * tileStrides[dim], box, b + i * boxStrides[dim],
                   toBox, copied);
  }
}

} // namespace

/// Copies the elements that a tile, whose `runs` place it in the whole
/// tensor and which is row-major in `tileShape`, and `box` have in common.
size_t summa::rt::driver::copyRuns(const std::vector<std::vector<Run>> &runs,
                                   const int64_t *tileShape, size_t size,
                                   char *tile, const Box &box, char *boxData,
                                   bool toBox) {
  int rank = static_cast<int>(runs.size());
  if (rank == 0) {
    if (toBox)
      std::memcpy(boxData, tile, size);
    else
      std::memcpy(tile, boxData, size);
    return size;
  }
  std::vector<std::vector<Overlap>> overlaps(rank);
  for (int dim = 0; dim < rank; ++dim) {
    int64_t begin = box.offsets[dim], end = begin + box.sizes[dim];
    for (const Run &run : runs[dim]) {
      int64_t lo = std::max(begin, run.global);
      int64_t hi = std::min(end, run.global + run.length);
      if (lo < hi)
        overlaps[dim].push_back(
            {run.local + lo - run.global, lo - begin, hi - lo});
    }
    if (overlaps[dim].empty())
      return 0;
  }
  std::vector<int64_t> tileStrides = stridesOf(tileShape, rank);
  std::vector<int64_t> boxStrides = stridesOf(box.sizes.data(), rank);
  size_t copied = 0;
  copyOverlaps(overlaps, tileStrides, boxStrides, size, 0, tile, 0, boxData, 0,
               toBox, copied);
  return copied;
}

size_t summa::rt::driver::copyWholeBox(const std::vector<int64_t> &shape,
                                       size_t elementSize, char *whole,
                                       const Box &box, char *boxData,
                                       bool toBox) {
  std::vector<std::vector<Run>> runs;
  for (int64_t size : shape)
    runs.push_back({{0, 0, size}});
  return copyRuns(runs, shape.data(), elementSize, whole, box, boxData, toBox);
}

size_t summa::rt::driver::readPieces(const std::vector<std::vector<Run>> &runs,
                                     const int64_t *tileShape,
                                     size_t elementSize,
                                     const StoredTensor &stored, char *tile,
                                     size_t tileBytes) {
  std::memset(tile, 0, tileBytes);
  size_t read = 0;
  for (const StoredPiece &piece : stored.pieces) {
    read += copyRuns(runs, tileShape, elementSize, tile, piece.box,
                     const_cast<char *>(piece.data), /*toBox=*/false);
  }
  return read;
}

std::string summa::rt::driver::pieceKey(const std::string &name,
                                        const Box &box) {
  std::string key = name + "@";
  for (size_t d = 0; d < box.offsets.size(); ++d)
    key += (d ? "," : "") + std::to_string(box.offsets[d]);
  return key;
}

std::string summa::rt::driver::pieceFile(int rank) {
  return "rank" + std::to_string(rank) + ".safetensors";
}

bool summa::rt::driver::isShardedCheckpoint(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode) &&
         stat((path + "/index.json").c_str(), &st) == 0;
}

bool summa::rt::driver::removeCheckpointDirectory(const std::string &path,
                                                  std::string &error) {
  DIR *dir = opendir(path.c_str());
  if (!dir) {
    if (errno == ENOENT)
      return true;
    // A file of that name (an older whole output) goes as well.
    if (errno == ENOTDIR && std::remove(path.c_str()) == 0)
      return true;
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::vector<std::string> names;
  while (dirent *entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..")
      names.push_back(name);
  }
  closedir(dir);
  for (const std::string &name : names)
    if (std::remove((path + "/" + name).c_str()) != 0) {
      error =
          "cannot remove '" + path + "/" + name + "': " + std::strerror(errno);
      return false;
    }
  if (rmdir(path.c_str()) != 0) {
    error = "cannot remove '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

namespace {

/// fsync of the directory `path` (best effort: some file systems cannot).
void syncDirectory(const std::string &path) {
  int dir = ::open(path.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    fsync(dir);
    ::close(dir);
  }
}

std::string parentOf(const std::string &path) {
  size_t slash = path.find_last_not_of('/');
  slash = slash == std::string::npos ? slash : path.rfind('/', slash);
  return slash == std::string::npos ? "."
         : slash == 0               ? "/"
                                    : path.substr(0, slash);
}

std::string jsonList(const std::vector<int64_t> &values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

} // namespace

std::string summa::rt::driver::shardedIndexJson(
    const std::vector<std::string> &files,
    const std::vector<IndexedTensor> &tensors,
    const std::map<std::string, std::string> &metadata) {
  std::string out = "{\n  \"format\": \"summa-sharded\",\n  \"version\": 1,\n"
                    "  \"metadata\": {";
  bool first = true;
  for (const auto &[key, value] : metadata) {
    out += (first ? "" : ", ") + jsonString(key) + ": " + jsonString(value);
    first = false;
  }
  out += "},\n  \"files\": [";
  for (size_t f = 0; f < files.size(); ++f)
    out += (f ? ", " : "") + jsonString(files[f]);
  out += "],\n  \"tensors\": [";
  for (size_t t = 0; t < tensors.size(); ++t) {
    const IndexedTensor &tensor = tensors[t];
    const char *dtype = safetensorsDTypeName(tensor.dtype);
    out += std::string(t ? "," : "") +
           "\n    {\"name\": " + jsonString(tensor.name) + ", \"dtype\": \"" +
           (dtype ? dtype : "?") + "\", \"shape\": " + jsonList(tensor.shape) +
           ", \"pieces\": [";
    for (size_t p = 0; p < tensor.pieces.size(); ++p) {
      const IndexedPiece &piece = tensor.pieces[p];
      out += std::string(p ? "," : "") +
             "\n      {\"file\": " + std::to_string(piece.file) +
             ", \"key\": " + jsonString(piece.key) +
             ", \"offsets\": " + jsonList(piece.box.offsets) +
             ", \"sizes\": " + jsonList(piece.box.sizes) + "}";
    }
    out += "]}";
  }
  return out + "\n  ]\n}\n";
}

bool summa::rt::driver::commitShardedDirectory(const std::string &temporary,
                                               const std::string &directory,
                                               const std::string &index,
                                               std::string &error) {
  std::string path = temporary + "/index.json";
  FILE *file = std::fopen(path.c_str(), "wb");
  bool ok =
      file && std::fwrite(index.data(), 1, index.size(), file) == index.size();
  ok = ok && std::fflush(file) == 0 && fsync(fileno(file)) == 0;
  int saved = errno;
  if (file && std::fclose(file) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    error = "cannot write '" + path + "': " + std::strerror(saved);
    return false;
  }
  syncDirectory(temporary);
  // An older directory of the same name makes way: moved aside, replaced,
  // then removed, so that `directory` is at every moment complete or
  // absent.
  std::string aside = directory + ".old" + std::to_string(getpid());
  struct stat st;
  bool replacing = stat(directory.c_str(), &st) == 0;
  if (replacing && std::rename(directory.c_str(), aside.c_str()) != 0) {
    error = "cannot replace '" + directory + "': " + std::strerror(errno);
    return false;
  }
  if (std::rename(temporary.c_str(), directory.c_str()) != 0) {
    error = "cannot rename '" + temporary + "' to '" + directory +
            "': " + std::strerror(errno);
    return false;
  }
  syncDirectory(parentOf(directory));
  if (replacing && !removeCheckpointDirectory(aside, error))
    return false;
  return true;
}
