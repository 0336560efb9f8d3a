//===- EventFile.cpp - TensorBoard event files, written by hand -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "EventFile.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace summa::rt::driver;

//===----------------------------------------------------------------------===//
// CRC-32C
//===----------------------------------------------------------------------===//

namespace {
struct Crc32cTable {
  uint32_t entries[256];
  Crc32cTable() {
    // The reflected Castagnoli polynomial 0x1EDC6F41.
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t crc = i;
      for (int bit = 0; bit < 8; ++bit)
        crc = (crc >> 1) ^ (crc & 1 ? 0x82F63B78u : 0u);
      entries[i] = crc;
    }
  }
};
} // namespace

uint32_t summa::rt::driver::crc32c(const void *data, size_t size) {
  static const Crc32cTable table;
  const unsigned char *bytes = static_cast<const unsigned char *>(data);
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i)
    crc = table.entries[(crc ^ bytes[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

uint32_t summa::rt::driver::maskCrc32c(uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xA282EAD8u;
}

//===----------------------------------------------------------------------===//
// Protocol buffers: the few wire types an Event needs
//===----------------------------------------------------------------------===//

namespace {
enum WireType { Varint = 0, Fixed64 = 1, LengthDelimited = 2, Fixed32 = 5 };

void putVarint(std::string &out, uint64_t value) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void putKey(std::string &out, int field, WireType type) {
  putVarint(out, static_cast<uint64_t>(field) << 3 | type);
}

void putLittleEndian(std::string &out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i)
    out.push_back(static_cast<char>(value >> (8 * i)));
}

void putDouble(std::string &out, int field, double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  putKey(out, field, Fixed64);
  putLittleEndian(out, bits, 8);
}

void putFloat(std::string &out, int field, float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  putKey(out, field, Fixed32);
  putLittleEndian(out, bits, 4);
}

void putBytes(std::string &out, int field, const std::string &bytes) {
  putKey(out, field, LengthDelimited);
  putVarint(out, bytes.size());
  out += bytes;
}

/// Event's wall_time and step; the caller adds the oneof.
std::string eventHeader(double wallTime, int64_t step) {
  std::string event;
  putDouble(event, /*wall_time=*/1, wallTime);
  if (step != 0) {
    putKey(event, /*step=*/2, Varint);
    putVarint(event, static_cast<uint64_t>(step));
  }
  return event;
}
} // namespace

std::string summa::rt::driver::encodeScalarEvent(
    double wallTime, int64_t step,
    const std::vector<std::pair<std::string, float>> &scalars) {
  std::string summary;
  for (const auto &[tag, value] : scalars) {
    std::string entry;
    putBytes(entry, /*Value.tag=*/1, tag);
    putFloat(entry, /*Value.simple_value=*/2, value);
    putBytes(summary, /*Summary.value=*/1, entry);
  }
  std::string event = eventHeader(wallTime, step);
  putBytes(event, /*Event.summary=*/5, summary);
  return event;
}

std::string summa::rt::driver::encodeFileVersionEvent(double wallTime) {
  std::string event = eventHeader(wallTime, 0);
  putBytes(event, /*Event.file_version=*/3, "brain.Event:2");
  return event;
}

std::string summa::rt::driver::encodeRecord(const std::string &data) {
  std::string record;
  putLittleEndian(record, data.size(), 8);
  putLittleEndian(record, maskCrc32c(crc32c(record.data(), 8)), 4);
  record += data;
  putLittleEndian(record, maskCrc32c(crc32c(data.data(), data.size())), 4);
  return record;
}

namespace {
/// Reads a varint at `at` of `data` (advancing `at`); false past the end.
bool readVarint(const std::string &data, size_t &at, uint64_t &value) {
  value = 0;
  for (int shift = 0; shift < 64 && at < data.size(); shift += 7) {
    unsigned char byte = static_cast<unsigned char>(data[at++]);
    value |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if (byte < 0x80)
      return true;
  }
  return false;
}

uint64_t readLittleEndian(const char *data, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i)
    value |= static_cast<uint64_t>(static_cast<unsigned char>(data[i]))
             << (8 * i);
  return value;
}
} // namespace

int64_t summa::rt::driver::eventStep(const std::string &event) {
  size_t at = 0;
  uint64_t key, value;
  while (at < event.size() && readVarint(event, at, key)) {
    switch (key & 7) {
    case Varint:
      if (!readVarint(event, at, value))
        return 0;
      if (key >> 3 == /*step=*/2)
        return static_cast<int64_t>(value);
      break;
    case Fixed64:
      at += 8;
      break;
    case LengthDelimited:
      if (!readVarint(event, at, value))
        return 0;
      at += value;
      break;
    case Fixed32:
      at += 4;
      break;
    default:
      return 0;
    }
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// The file
//===----------------------------------------------------------------------===//

namespace {
constexpr const char kPrefix[] = "events.out.tfevents.";

/// The largest <seconds> of the event files in `dir` (0 if none).
long long newestEventSeconds(const std::string &dir) {
  long long newest = 0;
  DIR *listing = opendir(dir.c_str());
  if (!listing)
    return 0;
  while (const dirent *entry = readdir(listing)) {
    if (std::strncmp(entry->d_name, kPrefix, sizeof(kPrefix) - 1) != 0)
      continue;
    long long seconds =
        std::strtoll(entry->d_name + sizeof(kPrefix) - 1, nullptr, 10);
    if (seconds > newest)
      newest = seconds;
  }
  closedir(listing);
  return newest;
}

double wallClock() {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return now.tv_sec + now.tv_nsec * 1e-9;
}
} // namespace

std::unique_ptr<EventFileWriter> EventFileWriter::open(const std::string &dir,
                                                       std::string &error) {
  if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) {
    error = "cannot create directory '" + dir + "': " + std::strerror(errno);
    return nullptr;
  }
  char host[256] = "localhost";
  if (gethostname(host, sizeof(host)) != 0)
    std::strcpy(host, "localhost");
  host[sizeof(host) - 1] = '\0';
  long long seconds = static_cast<long long>(std::time(nullptr));
  long long newest = newestEventSeconds(dir);
  if (seconds <= newest)
    seconds = newest + 1;
  std::unique_ptr<EventFileWriter> writer(new EventFileWriter());
  writer->where = dir + "/" + kPrefix + std::to_string(seconds) + "." + host +
                  "." + std::to_string(static_cast<long long>(getpid()));
  writer->file = std::fopen(writer->where.c_str(), "wb");
  if (!writer->file) {
    error = "cannot write '" + writer->where + "': " + std::strerror(errno);
    return nullptr;
  }
  if (!writer->write(encodeFileVersionEvent(wallClock()))) {
    error = "cannot write '" + writer->where + "': " + std::strerror(errno);
    return nullptr;
  }
  return writer;
}

namespace {
/// The whole records of `data` whose step is at most `lastStep`; sets
/// `changed` when one is dropped (or a cut record ends the file), `steps`
/// when one kept is of a step (not the file_version record).
std::string keepSteps(const std::string &data, int64_t lastStep, bool &changed,
                      bool &steps) {
  std::string kept;
  size_t at = 0;
  while (at + 12 <= data.size()) {
    uint64_t length = readLittleEndian(data.data() + at, 8);
    if (data.size() - at < 16 || length > data.size() - at - 16 ||
        readLittleEndian(data.data() + at + 8, 4) !=
            maskCrc32c(crc32c(data.data() + at, 8)))
      break;
    std::string event = data.substr(at + 12, length);
    if (readLittleEndian(data.data() + at + 12 + length, 4) !=
        maskCrc32c(crc32c(event.data(), event.size())))
      break;
    int64_t step = eventStep(event);
    if (step <= lastStep) {
      kept.append(data, at, 16 + length);
      steps |= step > 0;
    } else
      changed = true;
    at += 16 + length;
  }
  changed |= at != data.size();
  return kept;
}
} // namespace

bool summa::rt::driver::truncateEventFiles(const std::string &dir,
                                           int64_t lastStep,
                                           std::string &error) {
  DIR *listing = opendir(dir.c_str());
  if (!listing)
    return true; // Nothing written yet.
  std::vector<std::string> names;
  while (const dirent *entry = readdir(listing))
    if (std::strncmp(entry->d_name, kPrefix, sizeof(kPrefix) - 1) == 0)
      names.push_back(entry->d_name);
  closedir(listing);
  for (const std::string &name : names) {
    std::string path = dir + "/" + name;
    std::FILE *file = std::fopen(path.c_str(), "rb");
    if (!file)
      continue;
    std::string data;
    char buffer[1 << 16];
    size_t got;
    while ((got = std::fread(buffer, 1, sizeof(buffer), file)) > 0)
      data.append(buffer, got);
    std::fclose(file);
    bool changed = false, steps = false;
    std::string kept = keepSteps(data, lastStep, changed, steps);
    // A file left without a step (all of it after `lastStep`, or a run that
    // died before its first step) goes.
    if (!steps) {
      if (std::remove(path.c_str()) != 0) {
        error = "cannot remove '" + path + "': " + std::strerror(errno);
        return false;
      }
      continue;
    }
    if (!changed)
      continue;
    std::string temporary = path + ".tmp";
    std::FILE *out = std::fopen(temporary.c_str(), "wb");
    bool ok = out &&
              std::fwrite(kept.data(), 1, kept.size(), out) == kept.size() &&
              std::fflush(out) == 0 && fsync(fileno(out)) == 0;
    if (out)
      ok = std::fclose(out) == 0 && ok;
    if (!ok || std::rename(temporary.c_str(), path.c_str()) != 0) {
      error = "cannot rewrite '" + path + "': " + std::strerror(errno);
      std::remove(temporary.c_str());
      return false;
    }
  }
  return true;
}

EventFileWriter::~EventFileWriter() {
  if (file)
    std::fclose(file);
}

bool EventFileWriter::write(const std::string &event) {
  std::string record = encodeRecord(event);
  return std::fwrite(record.data(), 1, record.size(), file) == record.size() &&
         std::fflush(file) == 0;
}
