//===- TensorFile.h - tensors in safetensors and .npy files -----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The files a compiled program reads its inputs from (--inputs) and writes
// its outputs and checkpoints to (--outputs, --checkpoint): safetensors, the
// format torch and transformers write, and a directory of NumPy .npy files
// named after the tensors. Files are mapped read-only, so that a rank reads
// only the pages of the tiles it copies out of them.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_TENSORFILE_H
#define SUMMA_RUNTIME_TOOLING_TENSORFILE_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace summa::rt::driver {

/// A rectangular region of a tensor, in the whole tensor's coordinates.
struct Box {
  std::vector<int64_t> offsets;
  std::vector<int64_t> sizes;
  /// The number of elements (ShardedFormat.cpp).
  int64_t count() const;
};

/// A box of a tensor of a sharded checkpoint (ShardedFormat.h), row-major,
/// in a mapped file.
struct StoredPiece {
  Box box;
  const char *data = nullptr;
};

/// One tensor of a file.
struct StoredTensor {
  std::string name;
  /// SUMMA_DT_*, or -1 for an element type summa does not run.
  int32_t dtype = -1;
  /// The element type as the file names it ("F32", "<f4").
  std::string dtypeName;
  std::vector<int64_t> shape;
  /// The tensor's bytes, row-major, in the mapped file; null for a tensor
  /// of a sharded checkpoint, which is in `pieces`.
  const char *data = nullptr;
  uint64_t bytes = 0;
  std::vector<StoredPiece> pieces;
};

/// The tensors of a safetensors file, of a sharded checkpoint (a directory
/// with an index.json), of a directory of `<name>.npy` files, or of one
/// `<name>.npy` file, mapped read-only.
class TensorSource {
public:
  /// Opens `path`; on a missing or malformed file, returns null and sets
  /// `error` to a message that names the file and what is wrong.
  static std::unique_ptr<TensorSource> open(const std::string &path,
                                            std::string &error);
  /// Opens every one of `paths` as one source: the tensors of all of them,
  /// each name in one file only (else null, and `error` names both files).
  static std::unique_ptr<TensorSource>
  openAll(const std::vector<std::string> &paths, std::string &error);
  ~TensorSource();
  TensorSource(const TensorSource &) = delete;
  TensorSource &operator=(const TensorSource &) = delete;

  /// The tensor named `name`, or null.
  const StoredTensor *find(const std::string &name) const;
  /// The string entries of a safetensors file's "__metadata__" (empty for
  /// .npy files).
  const std::map<std::string, std::string> &metadata() const { return meta; }
  const std::vector<StoredTensor> &tensors() const { return stored; }
  const std::string &path() const { return where; }

private:
  TensorSource() = default;
  bool mapFile(const std::string &file, const char *&data, size_t &size,
               std::string &error);
  bool openSafetensors(std::string &error);
  bool openNpyDirectory(std::string &error);
  bool openSharded(std::string &error);
  /// Adds the tensor of the .npy file at `path`, named `name`.
  bool openNpyFile(const std::string &path, const std::string &name,
                   std::string &error);

  std::string where;
  std::vector<StoredTensor> stored;
  std::map<std::string, std::string> meta;
  struct Mapping {
    void *address;
    size_t size;
  };
  std::vector<Mapping> mappings;
  /// A sharded checkpoint's files.
  std::vector<std::unique_ptr<TensorSource>> parts;
};

/// A tensor to write: `bytes` bytes at `data`, row-major.
struct TensorToWrite {
  std::string name;
  int32_t dtype = 0;
  std::vector<int64_t> shape;
  const void *data = nullptr;
  size_t bytes = 0;
};

/// Called after each tensor of a file being written has reached the
/// temporary file: (tensors written, tensors in all). The driver's
/// SUMMA_KILL_AT testing aid kills the process there.
using WriteProgress = std::function<void(size_t, size_t)>;

/// Writes `tensors` as a safetensors file at `path` atomically: to a
/// temporary file beside it (`path`.tmp<pid>), flushed to the disk (fsync),
/// then renamed over `path` (and the directory synced), so that `path` is
/// never half a file, even when the process or the machine dies while it is
/// written. The bytes depend only on the tensors: two runs that compute the
/// same values write the same file. `metadata` becomes the "__metadata__"
/// entry (none when empty). Returns false and sets `error` on failure.
bool writeSafetensors(const std::string &path,
                      const std::vector<TensorToWrite> &tensors,
                      std::string &error,
                      const std::map<std::string, std::string> &metadata = {},
                      const WriteProgress &progress = nullptr);

/// Maps the whole file at `path` read-only at `address` (null for an empty
/// file, which maps nothing) and sets `size`; with `regularOnly` anything but
/// a regular file is refused. On failure returns false and sets `error`
/// ("cannot open|read|map '<path>': <reason>"). munmap releases the mapping.
bool mapWholeFile(const std::string &path, bool regularOnly, void *&address,
                  size_t &size, std::string &error);

/// The safetensors name of a SUMMA_DT_* element type ("F32"), or null.
const char *safetensorsDTypeName(int32_t dtype);

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_TENSORFILE_H
