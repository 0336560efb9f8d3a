//===- DataLoader.cpp - batches of token ids for training -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "DataLoader.h"

#include "Error.h"
#include "Profile.h"
#include "SplitMix64.h"

#include <sys/mman.h>

using namespace summa::rt;
using namespace summa::rt::driver;

namespace {
std::string quoted(const std::string &s) { return "'" + s + "'"; }

/// The integer element types of a .npy token file: descr, size, signedness.
struct IdType {
  const char *descr;
  int size;
  bool isSigned;
};
constexpr IdType kIdTypes[] = {
    {"|u1", 1, false}, {"<u1", 1, false}, {"|i1", 1, true},  {"<i1", 1, true},
    {"<u2", 2, false}, {"<i2", 2, true},  {"<u4", 4, false}, {"<i4", 4, true},
    {"<u8", 8, false}, {"<i8", 8, true},
};
} // namespace

TokenData::~TokenData() {
  if (mapping)
    munmap(mapping, mappedBytes);
}

std::unique_ptr<TokenData> TokenData::open(const std::string &path,
                                           std::string &error) {
  std::unique_ptr<TokenData> data(new TokenData());
  data->where = path;
  bool npy = path.size() > 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
  if (npy) {
    data->source = TensorSource::open(path, error);
    if (!data->source)
      return nullptr;
    const StoredTensor &ids = data->source->tensors().front();
    const IdType *type = nullptr;
    for (const IdType &t : kIdTypes)
      if (ids.dtypeName == t.descr)
        type = &t;
    if (!type) {
      error = quoted(path) + " holds element type " + ids.dtypeName +
              "; token ids must be integers (uint8/16/32/64, int8/16/32/64)";
      return nullptr;
    }
    if (ids.shape.size() != 1) {
      error = quoted(path) + " holds an array of rank " +
              std::to_string(ids.shape.size()) +
              "; token ids must be a 1-D array";
      return nullptr;
    }
    data->data = reinterpret_cast<const unsigned char *>(ids.data);
    data->elementSize = type->size;
    data->isSigned = type->isSigned;
    data->count = ids.shape[0];
    data->kind = ids.dtypeName + " (.npy)";
    return data;
  }
  // A raw file of little-endian uint16, nanoGPT's train.bin.
  void *address = nullptr;
  size_t size = 0;
  if (!mapWholeFile(path, /*regularOnly=*/true, address, size, error))
    return nullptr;
  // Unmapped with `data`, also when the size is refused below.
  data->mapping = address;
  data->mappedBytes = size;
  if (size % 2 != 0) {
    error = quoted(path) + " has " + std::to_string(size) +
            " bytes, not a whole number of uint16 token ids (a raw token "
            "file is little-endian uint16, as nanoGPT's prepare.py writes; "
            "give other types as .npy)";
    return nullptr;
  }
  data->data = static_cast<const unsigned char *>(address);
  data->elementSize = 2;
  data->count = static_cast<int64_t>(size / 2);
  data->kind = "uint16 (raw)";
  return data;
}

int64_t TokenData::at(int64_t i) const {
  const unsigned char *p = data + i * elementSize;
  uint64_t value = 0;
  for (int byte = elementSize - 1; byte >= 0; --byte)
    value = (value << 8) | p[byte];
  if (isSigned && elementSize < 8 && (value >> (8 * elementSize - 1)) & 1)
    value |= ~uint64_t(0) << (8 * elementSize);
  return static_cast<int64_t>(value);
}

int64_t summa::rt::driver::batchOffset(uint64_t seed, int64_t step, int64_t row,
                                       int64_t tokens, int64_t seq) {
  uint64_t hash = splitMix64(seed);
  hash = splitMix64(hash ^ static_cast<uint64_t>(step));
  hash = splitMix64(hash ^ static_cast<uint64_t>(row));
  return static_cast<int64_t>(hash % static_cast<uint64_t>(tokens - seq));
}

DataInputs
summa::rt::driver::chooseDataInputs(const std::vector<Tensor> &inputs,
                                    const std::string &names,
                                    const TokenData &data) {
  const char *caller = "summaRtMain";
  std::vector<int> chosen;
  if (!names.empty()) {
    size_t start = 0;
    while (start <= names.size()) {
      size_t comma = names.find(',', start);
      std::string name =
          names.substr(start, comma == std::string::npos ? std::string::npos
                                                         : comma - start);
      int found = -1;
      for (size_t i = 0; i < inputs.size(); ++i)
        if (inputs[i].fileName == name || inputs[i].name == name)
          found = static_cast<int>(i);
      if (found < 0)
        fatal("%s: --data-inputs: the program has no input named '%s'", caller,
              name.c_str());
      chosen.push_back(found);
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
  } else {
    for (size_t i = 0; i < inputs.size(); ++i)
      if ((inputs[i].desc->dtype == SUMMA_DT_I32 ||
           inputs[i].desc->dtype == SUMMA_DT_I64) &&
          inputs[i].rank == 2)
        chosen.push_back(static_cast<int>(i));
  }
  if (chosen.empty() || chosen.size() > 2)
    fatal("%s: --data feeds one or two inputs (token ids, then the next "
          "ids), and %s %zu; name them with --data-inputs",
          caller,
          names.empty() ? "the program has integer inputs of rank 2:"
                        : "--data-inputs names",
          chosen.size());
  for (int i : chosen) {
    const Tensor &input = inputs[i];
    if ((input.desc->dtype != SUMMA_DT_I32 &&
         input.desc->dtype != SUMMA_DT_I64) ||
        input.rank != 2)
      fatal("%s: --data: input '%s' is not a [rows, seq] tensor of i32 or "
            "i64 token ids",
            caller, input.fileName.c_str());
    const int64_t *shape = input.desc->globalShape;
    const int64_t *first = inputs[chosen[0]].desc->globalShape;
    if (shape[0] != first[0] || shape[1] != first[1])
      fatal("%s: --data: inputs '%s' and '%s' have different shapes", caller,
            inputs[chosen[0]].fileName.c_str(), input.fileName.c_str());
  }
  int64_t seq = inputs[chosen[0]].desc->globalShape[1];
  if (data.size() <= seq + 1)
    fatal("%s: --data '%s' holds %lld token ids; rows of %lld (and the next "
          "ids) need more",
          caller, data.path().c_str(), (long long)data.size(), (long long)seq);
  DataInputs which;
  which.tokens = chosen[0];
  if (chosen.size() == 2)
    which.next = chosen[1];
  return which;
}

void Batches::load(int64_t step, const std::vector<Tensor> &inputs,
                   const Placement &into) const {
  const TokenData &file = *data;
  const Tensor &first = inputs[which.tokens];
  int64_t rows = first.desc->globalShape[0], seq = first.desc->globalShape[1];
  std::vector<int64_t> offsets(rows);
  for (int64_t row = 0; row < rows; ++row)
    offsets[row] = batchOffset(seed, step, row, file.size(), seq);
  for (int index : {which.tokens, which.next}) {
    if (index < 0)
      continue;
    const Tensor &input = inputs[index];
    int64_t shift = index == which.next ? 1 : 0;
    size_t bytes = into.coords ? input.localBytes() : input.globalBytes();
    HostBuffer batch(bytes, "the batch of '" + input.fileName + "'");
    void *host = batch.data();
    input.forEachElement(into.coords, [&](int64_t local, int64_t global) {
      int64_t at = offsets[global / seq] + global % seq + shift;
      int64_t id = file.at(at);
      if (id < 0 || (vocab > 0 && id >= vocab))
        fatal("summaRtMain: --data '%s': id %lld at position %lld is outside "
              "the vocabulary [0, %s)",
              file.path().c_str(), (long long)id, (long long)at,
              vocab > 0 ? std::to_string(vocab).c_str() : "inf");
      if (input.desc->dtype == SUMMA_DT_I64)
        static_cast<int64_t *>(host)[local] = id;
      else
        static_cast<int32_t *>(host)[local] = static_cast<int32_t>(id);
    });
    recordRead(static_cast<int64_t>(bytes / input.elementSize) *
               file.elementBytes());
    upload(into.backend, into.buffers[index], host, bytes);
  }
}
