//===- DataLoader.h - batches of token ids for training ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// --data FILE: a flat file of token ids, as nanoGPT's prepare.py writes it
// (raw little-endian uint16) or a 1-D .npy array of integers. Step k of a
// training run draws row b of its batch from a position of the file given by
// the seed: o = splitmix64(splitmix64(splitmix64(seed) ^ k) ^ b) mod (N - S)
// for N tokens and rows of S; the tokens input gets ids [o, o + S) and the
// next-tokens input, if there is one, [o + 1, o + S + 1). The draw depends
// only on (seed, step, row), not on the grid, so every grid trains on the
// same batches, and a run resumed from a checkpoint of step k continues with
// the batches of step k + 1 on.
//
// Each rank reads only the ids of its own tiles of the two inputs (the
// elements its layout holds), from the mapped file; the bytes it read are
// counted in the profile ("io").
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_DATALOADER_H
#define SUMMA_RUNTIME_TOOLING_DATALOADER_H

#include "Backend.h"
#include "Tensor.h"
#include "TensorFile.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace summa::rt::driver {

class TokenData {
public:
  /// Opens `path`; on a missing or malformed file returns null and sets
  /// `error` to a message naming the file.
  static std::unique_ptr<TokenData> open(const std::string &path,
                                         std::string &error);

  const std::string &path() const { return where; }
  /// The number of token ids in the file.
  int64_t size() const { return count; }
  /// What the file holds: "uint16 (raw)", "<i4 (.npy)", ...
  const std::string &format() const { return kind; }

  /// Id number `i` (0 <= i < size()).
  int64_t at(int64_t i) const;
  /// The bytes of one id in the file.
  int elementBytes() const { return elementSize; }

private:
  TokenData() = default;
  TokenData(const TokenData &) = delete;
  TokenData &operator=(const TokenData &) = delete;

public:
  ~TokenData();

private:
  std::string where, kind;
  /// Keeps a .npy file mapped.
  std::unique_ptr<TensorSource> source;
  /// The mapping of a raw file.
  void *mapping = nullptr;
  size_t mappedBytes = 0;
  const unsigned char *data = nullptr;
  int elementSize = 0;
  bool isSigned = false;
  int64_t count = 0;
};

/// The first id of row `row` of the batch of step `step` (0-based, counted
/// from the start of training): see the file comment.
int64_t batchOffset(uint64_t seed, int64_t step, int64_t row, int64_t tokens,
                    int64_t seq);

/// The inputs a --data loader feeds: `tokens` and, if not null, `next`
/// (the same [rows, seq] shape), both integer tensors.
struct DataInputs {
  int tokens = -1;
  int next = -1;
};

/// Chooses the inputs --data feeds: the inputs named in `names` (a comma
/// list of file or positional names, one or two), else the integer inputs
/// of rank 2 in argument order (one or two of them). Fatal, with the
/// reason, when they are not one or two [rows, seq] integer tensors of one
/// shape, or when `data` has no more than seq ids.
DataInputs chooseDataInputs(const std::vector<Tensor> &inputs,
                            const std::string &names, const TokenData &data);

/// --data's batches: the token file, the inputs it feeds, the seed that
/// draws the rows (batchOffset) and --vocab.
struct Batches {
  /// Null: no --data.
  const TokenData *data = nullptr;
  DataInputs which;
  uint64_t seed = 0;
  int64_t vocab = 0;

  /// Whether input number `input` is one of the fed inputs.
  bool feeds(size_t input) const {
    return data && (static_cast<int>(input) == which.tokens ||
                    static_cast<int>(input) == which.next);
  }

  /// Fills the fed inputs of `into` with the batch of step `step`. An id
  /// that is negative, or not below `vocab` when it is positive, is fatal
  /// with its position in the file.
  void load(int64_t step, const std::vector<Tensor> &inputs,
            const Placement &into) const;
};

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_DATALOADER_H
