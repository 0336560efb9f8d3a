//===- TensorFile.cpp - tensors in safetensors and .npy files ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// safetensors: an 8-byte little-endian header length N, N bytes of JSON
//   {"<name>": {"dtype": "F32", "shape": [..], "data_offsets": [b, e]}, ...,
//    "__metadata__": {...}}, then the data; offsets count from the data.
// .npy (format 1.0, 2.0, 3.0): the magic "\x93NUMPY", a version, a header
//   length (2 bytes, or 4 from 2.0), a Python dict literal
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }, the data.
//
//===----------------------------------------------------------------------===//

#include "TensorFile.h"

#include "Json.h"

#include "summa/Runtime/SummaRuntime.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace summa::rt::driver;

namespace {

struct DTypeNames {
  int32_t dtype;
  const char *safetensors;
  const char *npy;
  size_t size;
};

constexpr DTypeNames kDTypes[] = {
    {SUMMA_DT_F32, "F32", "<f4", 4}, {SUMMA_DT_F64, "F64", "<f8", 8},
    {SUMMA_DT_F16, "F16", "<f2", 2}, {SUMMA_DT_BF16, "BF16", nullptr, 2},
    {SUMMA_DT_I64, "I64", "<i8", 8}, {SUMMA_DT_I32, "I32", "<i4", 4},
};

const DTypeNames *byDType(int32_t dtype) {
  for (const DTypeNames &d : kDTypes)
    if (d.dtype == dtype)
      return &d;
  return nullptr;
}

/// The element count of `shape`, or -1 when it overflows or is negative.
int64_t elementCount(const std::vector<int64_t> &shape) {
  int64_t count = 1;
  for (int64_t s : shape)
    if (s < 0 || __builtin_mul_overflow(count, s, &count))
      return -1;
  return count;
}

std::string quoted(const std::string &s) { return "'" + s + "'"; }

/// The failure of a `format` file at `path`: a function that sets `error` to
/// "'<path>' is not a valid <format> file: <why>" and returns false.
auto invalidFile(std::string &error, const std::string &path,
                 const char *format) {
  return [&error, &path, format](const std::string &why) {
    error = quoted(path) + " is not a valid " + format + " file: " + why;
    return false;
  };
}

} // namespace

//===----------------------------------------------------------------------===//
// TensorSource
//===----------------------------------------------------------------------===//

const char *summa::rt::driver::safetensorsDTypeName(int32_t dtype) {
  const DTypeNames *d = byDType(dtype);
  return d ? d->safetensors : nullptr;
}

TensorSource::~TensorSource() {
  for (const Mapping &m : mappings)
    if (m.size > 0)
      munmap(m.address, m.size);
}

bool summa::rt::driver::mapWholeFile(const std::string &path, bool regularOnly,
                                     void *&address, size_t &size,
                                     std::string &error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = "cannot open " + quoted(path) + ": " + std::strerror(errno);
    return false;
  }
  struct stat st;
  bool unreadable = fstat(fd, &st) != 0;
  if (unreadable || (regularOnly && !S_ISREG(st.st_mode))) {
    error = "cannot read " + quoted(path) + ": " +
            (unreadable ? std::strerror(errno) : "not a file");
    ::close(fd);
    return false;
  }
  size = static_cast<size_t>(st.st_size);
  address = nullptr;
  if (size > 0) {
    void *mapped = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
      error = "cannot map " + quoted(path) + ": " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    address = mapped;
  }
  ::close(fd);
  return true;
}

bool TensorSource::mapFile(const std::string &file, const char *&data,
                           size_t &size, std::string &error) {
  void *address = nullptr;
  if (!mapWholeFile(file, /*regularOnly=*/false, address, size, error))
    return false;
  if (address)
    mappings.push_back({address, size});
  data = static_cast<const char *>(address);
  return true;
}

bool TensorSource::openSafetensors(std::string &error) {
  const char *data;
  size_t size;
  if (!mapFile(where, data, size, error))
    return false;
  auto bad = invalidFile(error, where, "safetensors");
  if (size < 8)
    return bad("shorter than its 8-byte header length");
  uint64_t headerLength = 0;
  for (int i = 7; i >= 0; --i)
    headerLength = (headerLength << 8) | static_cast<unsigned char>(data[i]);
  if (headerLength > size - 8)
    return bad("its header length (" + std::to_string(headerLength) +
               " bytes) runs past the end of the file (" +
               std::to_string(size) + " bytes)");
  Json header;
  std::string why;
  if (!parseJson(data + 8, data + 8 + headerLength, header, why))
    return bad("its header: " + why);
  if (header.kind != Json::Object)
    return bad("its header is not a JSON object");
  const char *payload = data + 8 + headerLength;
  uint64_t payloadSize = size - 8 - headerLength;
  for (const auto &[name, entry] : header.members) {
    if (name == "__metadata__") {
      if (entry.kind != Json::Object)
        return bad("its \"__metadata__\" is not an object");
      for (const auto &[key, value] : entry.members)
        if (value.kind == Json::String)
          meta[key] = value.string;
      continue;
    }
    auto badTensor = [&](const std::string &why) {
      return bad("tensor " + quoted(name) + ": " + why);
    };
    if (entry.kind != Json::Object)
      return badTensor("not an object");
    const Json *dtype = member(entry, "dtype");
    const Json *shape = member(entry, "shape");
    const Json *offsets = member(entry, "data_offsets");
    if (!dtype || dtype->kind != Json::String)
      return badTensor("no \"dtype\" string");
    if (!shape || shape->kind != Json::Array)
      return badTensor("no \"shape\" array");
    if (!offsets || offsets->kind != Json::Array || offsets->items.size() != 2)
      return badTensor("no \"data_offsets\" pair");
    StoredTensor t;
    t.name = name;
    t.dtypeName = dtype->string;
    for (const DTypeNames &d : kDTypes)
      if (t.dtypeName == d.safetensors)
        t.dtype = d.dtype;
    for (const Json &s : shape->items) {
      if (s.kind != Json::Number || !s.integral || s.integer < 0)
        return badTensor("a shape entry that is not a size");
      t.shape.push_back(s.integer);
    }
    for (const Json &o : offsets->items)
      if (o.kind != Json::Number || !o.integral || o.integer < 0)
        return badTensor("a data offset that is not a byte count");
    uint64_t begin = offsets->items[0].integer,
             stop = offsets->items[1].integer;
    if (begin > stop || stop > payloadSize)
      return badTensor("data offsets [" + std::to_string(begin) + ", " +
                       std::to_string(stop) + ") outside the " +
                       std::to_string(payloadSize) + " data bytes");
    t.data = payload + begin;
    t.bytes = stop - begin;
    if (const DTypeNames *d = byDType(t.dtype)) {
      int64_t count = elementCount(t.shape);
      if (count < 0 || static_cast<uint64_t>(count) * d->size != t.bytes)
        return badTensor("its shape and dtype need " +
                         (count < 0 ? std::string("too many")
                                    : std::to_string(count * d->size)) +
                         " bytes, its data offsets give " +
                         std::to_string(t.bytes));
    }
    stored.push_back(std::move(t));
  }
  return true;
}

bool TensorSource::openSharded(std::string &error) {
  std::string indexPath = where + "/index.json";
  const char *text;
  size_t size;
  if (!mapFile(indexPath, text, size, error))
    return false;
  auto bad = invalidFile(error, indexPath, "sharded checkpoint index");
  Json index;
  std::string why;
  if (!parseJson(text, text + size, index, why))
    return bad(why);
  const Json *format = member(index, "format");
  if (index.kind != Json::Object || !format || format->kind != Json::String ||
      format->string != "summa-sharded")
    return bad("no \"format\": \"summa-sharded\"");
  const Json *files = member(index, "files");
  const Json *tensors = member(index, "tensors");
  if (!files || files->kind != Json::Array)
    return bad("no \"files\" array");
  if (!tensors || tensors->kind != Json::Array)
    return bad("no \"tensors\" array");
  if (const Json *metadata = member(index, "metadata"))
    for (const auto &[key, value] : metadata->members)
      if (value.kind == Json::String)
        meta[key] = value.string;
  for (const Json &file : files->items) {
    if (file.kind != Json::String || file.string.empty() ||
        file.string.find('/') != std::string::npos)
      return bad("a file that is not a name in the directory");
    std::unique_ptr<TensorSource> part =
        TensorSource::open(where + "/" + file.string, error);
    if (!part)
      return false;
    parts.push_back(std::move(part));
  }
  // Each entry of an array of sizes, or false.
  auto sizes = [](const Json *array, std::vector<int64_t> &out) {
    if (!array || array->kind != Json::Array)
      return false;
    for (const Json &item : array->items) {
      if (item.kind != Json::Number || !item.integral || item.integer < 0)
        return false;
      out.push_back(item.integer);
    }
    return true;
  };
  for (const Json &entry : tensors->items) {
    const Json *name = member(entry, "name");
    const Json *dtype = member(entry, "dtype");
    const Json *pieces = member(entry, "pieces");
    if (entry.kind != Json::Object || !name || name->kind != Json::String)
      return bad("a tensor without a \"name\"");
    auto badTensor = [&](const std::string &why) {
      return bad("tensor " + quoted(name->string) + ": " + why);
    };
    StoredTensor t;
    t.name = name->string;
    if (!dtype || dtype->kind != Json::String)
      return badTensor("no \"dtype\" string");
    t.dtypeName = dtype->string;
    for (const DTypeNames &d : kDTypes)
      if (t.dtypeName == d.safetensors)
        t.dtype = d.dtype;
    if (!sizes(member(entry, "shape"), t.shape))
      return badTensor("no \"shape\" array of sizes");
    int64_t count = elementCount(t.shape);
    const DTypeNames *d = byDType(t.dtype);
    if (!d || count < 0)
      return badTensor("an element type or shape summa cannot read");
    t.bytes = static_cast<uint64_t>(count) * d->size;
    if (!pieces || pieces->kind != Json::Array)
      return badTensor("no \"pieces\" array");
    int64_t covered = 0;
    for (const Json &p : pieces->items) {
      const Json *file = member(p, "file");
      const Json *key = member(p, "key");
      StoredPiece piece;
      if (!file || file->kind != Json::Number || !file->integral ||
          file->integer < 0 ||
          file->integer >= static_cast<int64_t>(parts.size()) || !key ||
          key->kind != Json::String ||
          !sizes(member(p, "offsets"), piece.box.offsets) ||
          !sizes(member(p, "sizes"), piece.box.sizes) ||
          piece.box.offsets.size() != t.shape.size() ||
          piece.box.sizes.size() != t.shape.size())
        return badTensor("a piece without a file, key, offsets and sizes of "
                         "its rank");
      const TensorSource &part = *parts[file->integer];
      const StoredTensor *found = part.find(key->string);
      if (!found)
        return badTensor("its piece " + quoted(key->string) + " is not in " +
                         quoted(part.path()));
      for (size_t dim = 0; dim < t.shape.size(); ++dim)
        if (piece.box.offsets[dim] + piece.box.sizes[dim] > t.shape[dim])
          return badTensor("its piece " + quoted(key->string) +
                           " runs past the tensor's shape");
      if (found->dtype != t.dtype || found->shape != piece.box.sizes)
        return badTensor("its piece " + quoted(key->string) + " in " +
                         quoted(part.path()) +
                         " has another element type or shape than the "
                         "index gives");
      piece.data = found->data;
      covered += elementCount(piece.box.sizes);
      t.pieces.push_back(std::move(piece));
    }
    if (covered != count)
      return badTensor("its pieces hold " + std::to_string(covered) +
                       " elements, the tensor has " + std::to_string(count));
    stored.push_back(std::move(t));
  }
  return true;
}

bool TensorSource::openNpyDirectory(std::string &error) {
  DIR *dir = opendir(where.c_str());
  if (!dir) {
    error =
        "cannot open directory " + quoted(where) + ": " + std::strerror(errno);
    return false;
  }
  std::vector<std::string> files;
  while (dirent *entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0)
      files.push_back(name);
  }
  closedir(dir);
  std::sort(files.begin(), files.end());
  for (const std::string &file : files)
    if (!openNpyFile(where + "/" + file, file.substr(0, file.size() - 4),
                     error))
      return false;
  return true;
}

bool TensorSource::openNpyFile(const std::string &path, const std::string &name,
                               std::string &error) {
  const char *data;
  size_t size;
  if (!mapFile(path, data, size, error))
    return false;
  auto bad = invalidFile(error, path, ".npy");
  if (size < 10 || std::memcmp(data, "\x93NUMPY", 6) != 0)
    return bad("no \\x93NUMPY magic");
  int major = static_cast<unsigned char>(data[6]);
  size_t lengthBytes = major == 1 ? 2 : major <= 3 ? 4 : 0;
  if (lengthBytes == 0)
    return bad("unknown format version " + std::to_string(major));
  if (size < 8 + lengthBytes)
    return bad("truncated header");
  size_t headerLength = 0;
  for (size_t i = lengthBytes; i-- > 0;)
    headerLength =
        (headerLength << 8) | static_cast<unsigned char>(data[8 + i]);
  size_t start = 8 + lengthBytes;
  if (headerLength > size - start)
    return bad("truncated header");
  std::string header(data + start, headerLength);
  auto field = [&](const char *key) -> std::string {
    std::string k = std::string("'") + key + "'";
    size_t at = header.find(k);
    if (at == std::string::npos)
      return {};
    at = header.find(':', at + k.size());
    if (at == std::string::npos)
      return {};
    ++at;
    while (at < header.size() && header[at] == ' ')
      ++at;
    size_t stop = at;
    if (at < header.size() && header[at] == '(') {
      stop = header.find(')', at);
      return stop == std::string::npos ? std::string()
                                       : header.substr(at, stop - at + 1);
    }
    if (at < header.size() && header[at] == '\'') {
      stop = header.find('\'', at + 1);
      return stop == std::string::npos ? std::string()
                                       : header.substr(at + 1, stop - at - 1);
    }
    while (stop < header.size() && header[stop] != ',' && header[stop] != '}')
      ++stop;
    return header.substr(at, stop - at);
  };
  StoredTensor t;
  t.name = name;
  t.dtypeName = field("descr");
  if (t.dtypeName.empty())
    return bad("no 'descr'");
  for (const DTypeNames &d : kDTypes)
    if (d.npy && t.dtypeName == d.npy)
      t.dtype = d.dtype;
  std::string order = field("fortran_order");
  if (order.rfind("True", 0) == 0)
    return bad("Fortran order; save it with numpy.ascontiguousarray");
  std::string shape = field("shape");
  if (shape.size() < 2)
    return bad("no 'shape'");
  const char *s = shape.c_str() + 1;
  while (*s && *s != ')') {
    while (*s == ' ' || *s == ',')
      ++s;
    if (*s == ')')
      break;
    char *stop = nullptr;
    long long dim = std::strtoll(s, &stop, 10);
    if (stop == s || dim < 0)
      return bad("a malformed shape " + shape);
    t.shape.push_back(dim);
    s = stop;
  }
  t.data = data + start + headerLength;
  t.bytes = size - start - headerLength;
  if (const DTypeNames *d = byDType(t.dtype)) {
    int64_t count = elementCount(t.shape);
    if (count < 0 || static_cast<uint64_t>(count) * d->size > t.bytes)
      return bad("its shape " + shape + " needs more bytes than the " +
                 std::to_string(t.bytes) + " it holds");
    t.bytes = count * d->size;
  }
  stored.push_back(std::move(t));
  return true;
}

std::unique_ptr<TensorSource> TensorSource::open(const std::string &path,
                                                 std::string &error) {
  std::unique_ptr<TensorSource> source(new TensorSource());
  source->where = path;
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    error = "cannot open " + quoted(path) + ": " + std::strerror(errno);
    return nullptr;
  }
  auto endsWith = [&](const char *suffix) {
    size_t n = std::strlen(suffix);
    return path.size() > n && path.compare(path.size() - n, n, suffix) == 0;
  };
  std::string base = path.substr(path.find_last_of('/') + 1);
  bool ok =
      S_ISDIR(st.st_mode) ? (::stat((path + "/index.json").c_str(), &st) == 0
                                 ? source->openSharded(error)
                                 : source->openNpyDirectory(error))
      : endsWith(".npy")
          ? source->openNpyFile(path, base.substr(0, base.size() - 4), error)
          : source->openSafetensors(error);
  if (!ok)
    return nullptr;
  return source;
}

std::unique_ptr<TensorSource>
TensorSource::openAll(const std::vector<std::string> &paths,
                      std::string &error) {
  if (paths.size() == 1)
    return open(paths.front(), error);
  std::unique_ptr<TensorSource> all(new TensorSource());
  std::map<std::string, std::string> from; // tensor name -> its file
  for (const std::string &path : paths) {
    std::unique_ptr<TensorSource> part = open(path, error);
    if (!part)
      return nullptr;
    all->where += (all->where.empty() ? "" : ", ") + path;
    for (const StoredTensor &t : part->stored) {
      auto [at, fresh] = from.emplace(t.name, path);
      if (!fresh) {
        error = "tensor " + quoted(t.name) + " is in both " +
                quoted(at->second) + " and " + quoted(path) +
                " (each input comes from one file)";
        return nullptr;
      }
      all->stored.push_back(t);
    }
    for (const auto &[key, value] : part->meta)
      all->meta.emplace(key, value);
    all->parts.push_back(std::move(part));
  }
  return all;
}

const StoredTensor *TensorSource::find(const std::string &name) const {
  for (const StoredTensor &t : stored)
    if (t.name == name)
      return &t;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

bool summa::rt::driver::writeSafetensors(
    const std::string &path, const std::vector<TensorToWrite> &tensors,
    std::string &error, const std::map<std::string, std::string> &metadata,
    const WriteProgress &progress) {
  std::string header = "{";
  if (!metadata.empty()) {
    header += "\"__metadata__\":{";
    for (const auto &[key, value] : metadata)
      header += (header.back() == '{' ? "" : ",") + jsonString(key) + ":" +
                jsonString(value);
    header += "}";
  }
  uint64_t offset = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorToWrite &t = tensors[i];
    const char *dtype = safetensorsDTypeName(t.dtype);
    if (!dtype) {
      error = "tensor '" + t.name +
              "' has an element type safetensors "
              "cannot name";
      return false;
    }
    if (header.size() > 1)
      header += ",";
    header += jsonString(t.name) + ":{\"dtype\":\"" + dtype + "\",\"shape\":[";
    for (size_t d = 0; d < t.shape.size(); ++d)
      header += (d ? "," : "") + std::to_string(t.shape[d]);
    header += "],\"data_offsets\":[" + std::to_string(offset) + "," +
              std::to_string(offset + t.bytes) + "]}";
    offset += t.bytes;
  }
  header += "}";
  // The data starts 8-byte aligned, as the reference writer pads it.
  while ((8 + header.size()) % 8 != 0)
    header.push_back(' ');

  // A checkpoint is complete once it has its name: the bytes go to a
  // temporary name beside it, reach the disk (fsync), and only then are
  // renamed over `path`, and the rename itself is made durable (fsync of
  // the directory). A process killed at any point leaves either the old
  // file or the new one under `path`, never half a file; scripts/summa-run
  // restarts from such files only.
  std::string temporary = path + ".tmp" + std::to_string(getpid());
  FILE *file = std::fopen(temporary.c_str(), "wb");
  if (!file) {
    error = "cannot write " + quoted(path) + ": " + std::strerror(errno);
    return false;
  }
  unsigned char length[8];
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i)
    length[i] = static_cast<unsigned char>(n >> (8 * i));
  bool ok = std::fwrite(length, 1, 8, file) == 8 &&
            std::fwrite(header.data(), 1, header.size(), file) == header.size();
  for (size_t i = 0; i < tensors.size(); ++i) {
    const TensorToWrite &t = tensors[i];
    ok = ok &&
         (t.bytes == 0 || std::fwrite(t.data, 1, t.bytes, file) == t.bytes);
    if (ok && progress) {
      // What was written so far is in the file when the hook runs.
      ok = std::fflush(file) == 0;
      progress(i + 1, tensors.size());
    }
  }
  ok = ok && std::fflush(file) == 0 && fsync(fileno(file)) == 0;
  int saved = errno;
  if (std::fclose(file) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && std::rename(temporary.c_str(), path.c_str()) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    std::remove(temporary.c_str());
    error = "cannot write " + quoted(path) + ": " + std::strerror(saved);
    return false;
  }
  // The directory entry: without it a crash of the machine may lose the
  // rename. A directory that cannot be opened or synced (some network file
  // systems) leaves the file written all the same.
  size_t slash = path.rfind('/');
  std::string directory = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  int dir = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    fsync(dir);
    ::close(dir);
  }
  return ok;
}
