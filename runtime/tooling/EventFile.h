//===- EventFile.h - TensorBoard event files, written by hand ---*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// --tensorboard DIR: the driver writes TensorBoard's event files itself, no
// TensorFlow or protobuf library needed. An event file is a sequence of
// records (TFRecord):
//
//   uint64 length (little-endian)
//   uint32 masked CRC-32C of the 8 length bytes
//   byte   data[length]          a serialized tensorflow.Event
//   uint32 masked CRC-32C of data
//
// where masked(crc) = ((crc >> 15) | (crc << 17)) + 0xa282ead8. The Event
// messages used (tensorflow/core/util/event.proto, summary.proto):
//
//   Event   { double wall_time = 1; int64 step = 2;
//             oneof { string file_version = 3; Summary summary = 5; } }
//   Summary { repeated Value value = 1; }
//   Value   { string tag = 1; float simple_value = 2; }
//
// The first record says file_version "brain.Event:2"; every step is one
// Event with a Summary of scalars. A run resumed from a checkpoint of step N
// first cuts the event files of the directory back to their events of
// steps up to N (the killed run wrote later ones, which the resumed run
// writes again), so that every reader (TensorBoard, tbparse) sees each step
// once, as from an uninterrupted run; then it starts a new file.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_EVENTFILE_H
#define SUMMA_RUNTIME_TOOLING_EVENTFILE_H

#include "summa/Runtime/SummaRuntime.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace summa::rt::driver {

/// CRC-32C (Castagnoli, the polynomial of iSCSI and TFRecord) of `size`
/// bytes at `data`.
SUMMA_RT_EXPORT uint32_t crc32c(const void *data, size_t size);
/// TFRecord's mask of a CRC stored next to the data it covers.
SUMMA_RT_EXPORT uint32_t maskCrc32c(uint32_t crc);

/// The serialized Event of `scalars` (tag, value) at `step`.
SUMMA_RT_EXPORT std::string
encodeScalarEvent(double wallTime, int64_t step,
                  const std::vector<std::pair<std::string, float>> &scalars);
/// The serialized Event that opens a file: file_version "brain.Event:2".
SUMMA_RT_EXPORT std::string encodeFileVersionEvent(double wallTime);
/// `data` framed as one TFRecord.
SUMMA_RT_EXPORT std::string encodeRecord(const std::string &data);
/// The step of a serialized Event (0 when it has none).
SUMMA_RT_EXPORT int64_t eventStep(const std::string &event);

/// Cuts every event file in `dir` back to its whole records whose Event's
/// step is at most `lastStep` (a record cut short by a killed writer goes
/// too); a file that changes is rewritten under a temporary name and
/// renamed over the old one, one left without a step is removed. False and
/// `error` on failure.
SUMMA_RT_EXPORT bool truncateEventFiles(const std::string &dir,
                                        int64_t lastStep, std::string &error);

class SUMMA_RT_EXPORT EventFileWriter {
public:
  /// Creates the directory `dir` if it does not exist and a new event file
  /// in it, `events.out.tfevents.<seconds>.<host>.<pid>`, whose name sorts
  /// after every event file already there (TensorBoard reads a directory's
  /// files in name order: <seconds> is one more than the newest file's
  /// when the clock has not moved past it); writes its file_version
  /// record. On failure returns null and sets `error`.
  static std::unique_ptr<EventFileWriter> open(const std::string &dir,
                                               std::string &error);
  ~EventFileWriter();
  EventFileWriter(const EventFileWriter &) = delete;
  EventFileWriter &operator=(const EventFileWriter &) = delete;

  /// Appends one Event and flushes it to the file; false on a write error.
  bool write(const std::string &event);
  const std::string &path() const { return where; }

private:
  EventFileWriter() = default;
  std::string where;
  std::FILE *file = nullptr;
};

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_EVENTFILE_H
