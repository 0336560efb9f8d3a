//===- Ckpt.cpp - summa-ckpt: sharded checkpoints to and from whole files -===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-ckpt converts between the sharded checkpoints the driver writes
// (--checkpoint, --outputs DIR: every rank its own boxes, ShardedFormat.h)
// and one whole safetensors file in the parameters' names, the layout
// Hugging Face and torch read:
//
//   summa-ckpt info PATH                        tensors, shapes, pieces
//   summa-ckpt whole CHECKPOINT OUT.safetensors  assemble every tensor
//   summa-ckpt shard IN OUT_DIR [--parts N]      cut every tensor along its
//                                               first dimension into N
//                                               pieces, one file each
//
// IN and CHECKPOINT may be any tensor file the driver reads (a whole
// safetensors file, a sharded checkpoint, a directory of .npy files); the
// metadata (summa.step) is kept, so a converted checkpoint resumes the
// same. A whole file summa wrote comes back byte for byte from
// `shard` then `whole`. It runs on one machine without MPI; the files it
// reads are mapped, the tensors it assembles are held until written.
//
//===----------------------------------------------------------------------===//

#include "ShardedFormat.h"
#include "TensorFile.h"

#include "summa/Runtime/SummaRuntime.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace summa::rt::driver;

namespace {

constexpr const char *kUsage =
    "usage: summa-ckpt info PATH\n"
    "       summa-ckpt whole CHECKPOINT OUT.safetensors\n"
    "       summa-ckpt shard IN OUT_DIR [--parts N]\n";

[[noreturn]] void die(const std::string &message) {
  std::fprintf(stderr, "summa-ckpt: %s\n", message.c_str());
  std::exit(1);
}

std::unique_ptr<TensorSource> openSource(const std::string &path) {
  std::string error;
  std::unique_ptr<TensorSource> source = TensorSource::open(path, error);
  if (!source)
    die(error);
  for (const StoredTensor &t : source->tensors())
    if (t.dtype < 0)
      die("'" + path + "': tensor '" + t.name + "' has element type " +
          t.dtypeName + ", which summa does not read");
  return source;
}

size_t elementSizeOf(const StoredTensor &t) {
  int64_t count = 1;
  for (int64_t s : t.shape)
    count *= s;
  return count ? t.bytes / count : 0;
}

/// The bytes of the whole tensor `t`: where a whole file maps it, else its
/// pieces assembled into a new buffer of `assembled`.
const char *wholeData(const StoredTensor &t,
                      std::vector<std::vector<char>> &assembled) {
  if (t.data)
    return t.data;
  std::vector<std::vector<Run>> runs;
  for (int64_t size : t.shape)
    runs.push_back({{0, 0, size}});
  assembled.emplace_back(t.bytes);
  readPieces(runs, t.shape.data(), elementSizeOf(t), t, assembled.back().data(),
             t.bytes);
  return assembled.back().data();
}

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string out = "[";
  for (size_t d = 0; d < shape.size(); ++d)
    out += (d ? ", " : "") + std::to_string(shape[d]);
  return out + "]";
}

int info(const std::string &path) {
  std::unique_ptr<TensorSource> source = openSource(path);
  std::printf("%s: %zu tensors, %s\n", path.c_str(), source->tensors().size(),
              isShardedCheckpoint(path) ? "sharded" : "whole");
  for (const auto &[key, value] : source->metadata())
    std::printf("metadata %s = %s\n", key.c_str(), value.c_str());
  uint64_t bytes = 0;
  for (const StoredTensor &t : source->tensors()) {
    std::printf("%s %s %s", t.name.c_str(), t.dtypeName.c_str(),
                shapeText(t.shape).c_str());
    if (!t.data)
      std::printf(" pieces %zu", t.pieces.size());
    std::printf("\n");
    bytes += t.bytes;
  }
  std::printf("%llu bytes\n", static_cast<unsigned long long>(bytes));
  return 0;
}

int whole(const std::string &in, const std::string &out) {
  std::unique_ptr<TensorSource> source = openSource(in);
  std::vector<std::vector<char>> assembled;
  std::vector<TensorToWrite> records;
  for (const StoredTensor &t : source->tensors()) {
    TensorToWrite record;
    record.name = t.name;
    record.dtype = t.dtype;
    record.shape = t.shape;
    record.bytes = t.bytes;
    record.data = wholeData(t, assembled);
    records.push_back(std::move(record));
  }
  std::string error;
  if (!writeSafetensors(out, records, error, source->metadata()))
    die(error);
  std::printf("summa-ckpt: %zu tensors of '%s' written whole to '%s'\n",
              records.size(), in.c_str(), out.c_str());
  return 0;
}

int shard(const std::string &in, const std::string &out, int parts) {
  std::unique_ptr<TensorSource> source = openSource(in);
  std::string temporary = out + ".tmp";
  std::string error;
  if (!removeCheckpointDirectory(temporary, error))
    die(error);
  if (mkdir(temporary.c_str(), 0777) != 0)
    die("cannot create '" + temporary + "': " + std::strerror(errno));
  // Whole tensors are cut along their first dimension: each piece is a
  // contiguous slab of the whole (a tensor of a sharded source is
  // assembled first).
  std::vector<std::vector<char>> assembled;
  std::vector<std::vector<TensorToWrite>> files(parts);
  std::vector<IndexedTensor> indexed;
  for (const StoredTensor &t : source->tensors()) {
    const char *data = wholeData(t, assembled);
    IndexedTensor entry{t.name, t.dtype, t.shape, {}};
    int64_t rows = t.shape.empty() ? 1 : t.shape[0];
    size_t rowBytes = rows ? t.bytes / rows : 0;
    for (int part = 0; part < parts; ++part) {
      int64_t begin = rows * part / parts, end = rows * (part + 1) / parts;
      if (begin == end)
        continue;
      Box box;
      box.offsets.assign(t.shape.size(), 0);
      box.sizes = t.shape;
      if (!t.shape.empty()) {
        box.offsets[0] = begin;
        box.sizes[0] = end - begin;
      }
      TensorToWrite record;
      record.name = pieceKey(t.name, box);
      record.dtype = t.dtype;
      record.shape = box.sizes;
      record.data = data + begin * rowBytes;
      record.bytes = t.shape.empty() ? t.bytes : (end - begin) * rowBytes;
      files[part].push_back(record);
      entry.pieces.push_back({part, record.name, box});
    }
    indexed.push_back(std::move(entry));
  }
  std::vector<std::string> names;
  for (int part = 0; part < parts; ++part) {
    names.push_back(pieceFile(part));
    if (!writeSafetensors(temporary + "/" + names.back(), files[part], error))
      die(error);
  }
  if (!commitShardedDirectory(
          temporary, out, shardedIndexJson(names, indexed, source->metadata()),
          error))
    die(error);
  std::printf("summa-ckpt: %zu tensors of '%s' written in %d parts to '%s'\n",
              indexed.size(), in.c_str(), parts, out.c_str());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "-h" || args[0] == "--help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  auto usage = [](const std::string &why) {
    std::fprintf(stderr, "summa-ckpt: %s\n%s", why.c_str(), kUsage);
    std::exit(2);
  };
  const std::string &command = args[0];
  if (command == "info") {
    if (args.size() != 2)
      usage("info takes one PATH");
    return info(args[1]);
  }
  if (command == "whole") {
    if (args.size() != 3)
      usage("whole takes CHECKPOINT and OUT.safetensors");
    return whole(args[1], args[2]);
  }
  if (command == "shard") {
    int parts = 1;
    std::vector<std::string> paths;
    for (size_t i = 1; i < args.size(); ++i) {
      if (args[i] == "--parts") {
        char *end = nullptr;
        long n = i + 1 < args.size()
                     ? std::strtol(args[i + 1].c_str(), &end, 10)
                     : 0;
        if (!end || *end || n < 1 || n > 65536)
          usage("--parts takes a number of parts from 1 to 65536");
        parts = static_cast<int>(n);
        ++i;
        continue;
      }
      paths.push_back(args[i]);
    }
    if (paths.size() != 2)
      usage("shard takes IN and OUT_DIR");
    return shard(paths[0], paths[1], parts);
  }
  usage("unknown command '" + command + "'");
}
