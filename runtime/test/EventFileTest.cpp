//===- EventFileTest.cpp - TensorBoard event records by hand ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The bytes of the records --tensorboard writes, against values computed
// independently: CRC-32C check values (RFC 3720, B.4), and an Event
// serialized by the protobuf library (protoc's encoding of the same fields,
// pinned as bytes here so that the test needs no protobuf).
//
//===----------------------------------------------------------------------===//

#include "EventFile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

using namespace summa::rt::driver;

namespace {
std::string bytes(std::initializer_list<unsigned> values) {
  std::string out;
  for (unsigned v : values)
    out.push_back(static_cast<char>(v));
  return out;
}
} // namespace

TEST(EventFile, Crc32cCheckValues) {
  EXPECT_EQ(crc32c("123456789", 9), 0xE3069283u);
  std::string zeros(32, '\0'), ones(32, '\xff');
  EXPECT_EQ(crc32c(zeros.data(), zeros.size()), 0x8A9136AAu);
  EXPECT_EQ(crc32c(ones.data(), ones.size()), 0x62A8AB43u);
  EXPECT_EQ(crc32c("", 0), 0u);
}

TEST(EventFile, MaskRotatesAndAddsTheConstant) {
  EXPECT_EQ(maskCrc32c(0), 0xA282EAD8u);
  EXPECT_EQ(maskCrc32c(0x00008000u), 0xA282EAD9u);
  EXPECT_EQ(maskCrc32c(1), 0xA282EAD8u + (1u << 17));
}

TEST(EventFile, ScalarEventIsTheProtobufEncoding) {
  // Event{wall_time: 2.0, step: 300, summary{value{tag: "loss",
  // simple_value: 1.5}}}.
  std::string event = encodeScalarEvent(2.0, 300, {{"loss", 1.5f}});
  std::string expected =
      bytes({0x09, 0, 0, 0, 0, 0, 0, 0, 0x40}) + // wall_time, fixed64
      bytes({0x10, 0xAC, 0x02}) +                // step 300, varint
      bytes({0x2A, 0x0D}) +                      // summary, 13 bytes
      bytes({0x0A, 0x0B}) +                      // value, 11 bytes
      bytes({0x0A, 0x04}) + "loss" +             // tag
      bytes({0x15, 0, 0, 0xC0, 0x3F});           // simple_value 1.5f
  EXPECT_EQ(event, expected);
}

TEST(EventFile, FileVersionAndStep) {
  // Event{wall_time: 2.0, file_version: "brain.Event:2"}.
  std::string version = encodeFileVersionEvent(2.0);
  EXPECT_EQ(version, bytes({0x09, 0, 0, 0, 0, 0, 0, 0, 0x40}) +
                         bytes({0x1A, 0x0D}) + "brain.Event:2");
  EXPECT_EQ(eventStep(version), 0);
  EXPECT_EQ(eventStep(encodeScalarEvent(1.0, 300, {{"loss", 1.5f}})), 300);
  EXPECT_EQ(eventStep(encodeScalarEvent(1.0, 1LL << 40, {})), 1LL << 40);
}

/// The steps of the events in the file at `path`, and whether its records
/// are whole.
static std::vector<int64_t> stepsIn(const std::string &path, bool &whole) {
  std::ifstream file(path, std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(file)),
                   std::istreambuf_iterator<char>());
  std::vector<int64_t> steps;
  size_t at = 0;
  while (at + 16 <= data.size()) {
    uint64_t length = 0;
    std::memcpy(&length, data.data() + at, 8);
    if (at + 16 + length > data.size())
      break;
    steps.push_back(eventStep(data.substr(at + 12, length)));
    at += 16 + length;
  }
  whole = at == data.size();
  return steps;
}

// A run resumed from step 3 cuts what the killed run wrote after it, and
// the half record its writer left.
TEST(EventFile, TruncateKeepsTheStepsUpToTheCheckpoint) {
  char dir[] = "/tmp/summa-events-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string error, path;
  {
    std::unique_ptr<EventFileWriter> writer = EventFileWriter::open(dir, error);
    ASSERT_TRUE(writer) << error;
    path = writer->path();
    for (int64_t step = 1; step <= 5; ++step)
      ASSERT_TRUE(writer->write(encodeScalarEvent(1.0, step, {{"x", 1.0f}})));
  }
  std::string half = encodeRecord(encodeScalarEvent(1.0, 6, {{"x", 1.0f}}));
  std::ofstream(path, std::ios::binary | std::ios::app)
      << half.substr(0, half.size() / 2);
  bool whole = true;
  EXPECT_EQ(stepsIn(path, whole), (std::vector<int64_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_FALSE(whole);
  ASSERT_TRUE(truncateEventFiles(dir, 3, error)) << error;
  EXPECT_EQ(stepsIn(path, whole), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_TRUE(whole);
  // A record cut just after its length and CRC (its header whole, two of
  // its bytes written) goes too.
  std::ofstream(path, std::ios::binary | std::ios::app) << half.substr(0, 14);
  ASSERT_TRUE(truncateEventFiles(dir, 3, error)) << error;
  EXPECT_EQ(stepsIn(path, whole), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_TRUE(whole);
  // A new file of the resumed run sorts after the old one.
  std::unique_ptr<EventFileWriter> next = EventFileWriter::open(dir, error);
  ASSERT_TRUE(next) << error;
  EXPECT_GT(next->path(), path);
  ASSERT_TRUE(next->write(encodeScalarEvent(1.0, 4, {{"x", 1.0f}})));
  EXPECT_EQ(stepsIn(next->path(), whole), (std::vector<int64_t>{0, 4}));
  // A run from the beginning keeps no step of any file: the files go.
  ASSERT_TRUE(truncateEventFiles(dir, 0, error)) << error;
  EXPECT_NE(access(path.c_str(), F_OK), 0);
  EXPECT_NE(access(next->path().c_str(), F_OK), 0);
  EXPECT_EQ(rmdir(dir), 0);
}

TEST(EventFile, RecordFraming) {
  std::string data = "abc";
  std::string record = encodeRecord(data);
  ASSERT_EQ(record.size(), 8u + 4u + 3u + 4u);
  uint64_t length = 0;
  std::memcpy(&length, record.data(), 8);
  EXPECT_EQ(length, 3u);
  uint32_t lengthCrc = 0, dataCrc = 0;
  std::memcpy(&lengthCrc, record.data() + 8, 4);
  std::memcpy(&dataCrc, record.data() + 15, 4);
  EXPECT_EQ(lengthCrc, maskCrc32c(crc32c(record.data(), 8)));
  EXPECT_EQ(record.substr(12, 3), data);
  EXPECT_EQ(dataCrc, maskCrc32c(crc32c("abc", 3)));
}
