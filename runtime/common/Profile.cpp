//===- Profile.cpp - collective and matmul counters -------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "Profile.h"
#include "Error.h"
#include "GridState.h"

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/resource.h>

using namespace summa::rt;

namespace {
ProfileSnapshot counters;
bool recording = true;

std::string formatDouble(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.9g", value);
  return text;
}
} // namespace

std::string summa::rt::perRankPath(const std::string &pattern, int rank,
                                   const char *extension) {
  std::string rankText = std::to_string(rank);
  if (pattern.find("%r") == std::string::npos)
    return pattern + ".rank" + rankText + extension;
  std::string path;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern.compare(i, 2, "%r") == 0) {
      path += rankText;
      ++i;
    } else {
      path += pattern[i];
    }
  }
  return path;
}

bool summa::rt::closeRankFile(FILE *file, bool written, int rank,
                              const char *what, const std::string &path) {
  int error = errno;
  if (file && std::fclose(file) != 0 && written) {
    written = false;
    error = errno;
  }
  if (written)
    return true;
  std::string line = "summa: rank " + std::to_string(rank) + ": cannot write " +
                     what + " file '" + path + "': " + std::strerror(error) +
                     "\n";
  std::fflush(stdout);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  return false;
}

double summa::rt::profileClock() {
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

const char *summa::rt::collectiveName(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::Broadcast:
    return "broadcast";
  case CollectiveKind::Reduce:
    return "reduce";
  case CollectiveKind::AllReduce:
    return "all_reduce";
  case CollectiveKind::AllGather:
    return "all_gather";
  case CollectiveKind::ReduceScatter:
    return "reduce_scatter";
  }
  return "unknown";
}

std::string summa::rt::groupName(int32_t mask) {
  static const char *const axisNames[3] = {"row", "col", "depth"};
  std::string name;
  for (int axis = 0; axis < 3; ++axis) {
    if (!(mask & (1 << axis)))
      continue;
    if (!name.empty())
      name += '+';
    name += axisNames[axis];
  }
  return name;
}

ProfileSnapshot summa::rt::profileSnapshot() { return counters; }

void summa::rt::resetProfile() { counters = ProfileSnapshot(); }

ProfilePause::ProfilePause() : ScopedFlag(recording, false) {}

bool summa::rt::profileRecording() { return recording; }

void summa::rt::recordCollective(CollectiveKind kind, int32_t mask,
                                 int64_t bytes, double seconds, bool async) {
  if (!recording)
    return;
  CollectiveCounter &counter =
      counters.collectives[static_cast<int>(kind)][mask];
  ++counter.count;
  counter.bytes += bytes;
  counter.seconds += seconds;
  if (async)
    ++counter.async;
}

void summa::rt::recordCollectiveWait(CollectiveKind kind, int32_t mask,
                                     double seconds) {
  CollectiveCounter &counter =
      counters.collectives[static_cast<int>(kind)][mask];
  counter.seconds += seconds;
  counter.waitSeconds += seconds;
}

namespace {
bool localMatmuls = false;
} // namespace

summa::rt::LocalMatmulScope::LocalMatmulScope()
    : ScopedFlag(localMatmuls, true) {}

bool summa::rt::matmulsAreLocal() { return localMatmuls; }

void summa::rt::recordMatmul(int64_t flops, double seconds) {
  if (!recording)
    return;
  MatmulCounter &counter =
      localMatmuls ? counters.localMatmul : counters.matmul;
  ++counter.count;
  counter.flops += flops;
  counter.seconds += seconds;
}

int64_t summa::rt::peakRssBytes() {
  // Linux: ru_maxrss in KiB.
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return 0;
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

void summa::rt::recordRead(int64_t bytes) {
  if (recording)
    counters.readBytes += bytes;
}

void summa::rt::recordWrite(int64_t bytes) {
  if (recording)
    counters.writeBytes += bytes;
}

std::string summa::rt::profileToJson() {
  const GridState &g = grid();
  std::string json = "{\"rank\":" + std::to_string(g.worldRank);
  json += ",\"grid\":[" + std::to_string(g.q) + "," + std::to_string(g.q) +
          "," + std::to_string(g.d) + "]";
  json += ",\"coords\":[" + std::to_string(g.coords[SUMMA_AXIS_ROW]) + "," +
          std::to_string(g.coords[SUMMA_AXIS_COL]) + "," +
          std::to_string(g.coords[SUMMA_AXIS_DEPTH]) + "]";
  json += ",\"collectives\":[";
  bool first = true;
  for (int kind = 0; kind < kNumCollectiveKinds; ++kind) {
    for (int mask = 1; mask < 8; ++mask) {
      const CollectiveCounter &counter = counters.collectives[kind][mask];
      if (counter.count == 0)
        continue;
      if (!first)
        json += ",";
      first = false;
      json += "{\"op\":\"";
      json += collectiveName(static_cast<CollectiveKind>(kind));
      json += "\",\"group\":\"" + groupName(mask) + "\"";
      json += ",\"count\":" + std::to_string(counter.count);
      json += ",\"bytes\":" + std::to_string(counter.bytes);
      json += ",\"seconds\":" + formatDouble(counter.seconds);
      if (counter.async != 0) {
        json += ",\"async\":" + std::to_string(counter.async);
        json += ",\"wait_seconds\":" + formatDouble(counter.waitSeconds);
      }
      json += "}";
    }
  }
  json += "],\"matmul\":{\"count\":" + std::to_string(counters.matmul.count);
  json += ",\"flops\":" + std::to_string(counters.matmul.flops);
  json += ",\"seconds\":" + formatDouble(counters.matmul.seconds) + "}";
  if (const MatmulCounter &local = counters.localMatmul; local.count != 0)
    json += ",\"local_matmul\":{\"count\":" + std::to_string(local.count) +
            ",\"flops\":" + std::to_string(local.flops) +
            ",\"seconds\":" + formatDouble(local.seconds) + "}";
  if (counters.readBytes != 0 || counters.writeBytes != 0)
    json += ",\"io\":{\"read_bytes\":" + std::to_string(counters.readBytes) +
            ",\"write_bytes\":" + std::to_string(counters.writeBytes) + "}";
  if (int64_t peak = peakRssBytes())
    json += ",\"memory\":{\"peak_rss_bytes\":" + std::to_string(peak) + "}";
  json += ",\"kernels\":" + std::string(summaRtKernelInfo(1));
  json += "}\n";
  return json;
}

bool summa::rt::writeProfileIfRequested() {
  const char *pattern = std::getenv("SUMMA_PROFILE");
  if (!pattern || !*pattern)
    return true;
  int rank = grid().worldRank;
  std::string path = perRankPath(pattern, rank, ".json");
  std::string json = profileToJson();
  FILE *file = std::fopen(path.c_str(), "w");
  bool written =
      file && std::fwrite(json.data(), 1, json.size(), file) == json.size();
  return closeRankFile(file, written, rank, "SUMMA_PROFILE", path);
}
