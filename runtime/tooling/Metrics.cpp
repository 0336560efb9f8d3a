//===- Metrics.cpp - per-step metrics: JSON lines, TensorBoard --*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "Metrics.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>
#include <vector>

using namespace summa::rt;
using namespace summa::rt::driver;

double summa::rt::driver::wallClockSeconds() {
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return now.tv_sec + now.tv_nsec * 1e-9;
}

namespace {
std::string number(double value, const char *format = "%.9g") {
  if (!std::isfinite(value))
    return "null";
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

std::string optionalNumber(const std::optional<double> &value) {
  return value ? number(*value) : "null";
}

/// The step of a line this log wrote ({"step":N,...}), or -1.
int64_t stepOfLine(const std::string &line) {
  static const char prefix[] = "{\"step\":";
  if (line.compare(0, sizeof(prefix) - 1, prefix) != 0)
    return -1;
  char *end = nullptr;
  long long step = std::strtoll(line.c_str() + sizeof(prefix) - 1, &end, 10);
  return end && *end == ',' ? step : -1;
}

/// Keeps the complete lines of steps 1..`stepsBefore` of the file at
/// `path` (if there is one) and returns it open for appending; null and
/// `error` on failure.
std::FILE *openKeepingSteps(const std::string &path, int64_t stepsBefore,
                            std::string &error) {
  std::string kept;
  if (stepsBefore > 0) {
    if (std::FILE *old = std::fopen(path.c_str(), "r")) {
      std::string line;
      int c;
      while ((c = std::fgetc(old)) != EOF) {
        line.push_back(static_cast<char>(c));
        if (c != '\n')
          continue;
        int64_t step = stepOfLine(line);
        if (step >= 1 && step <= stepsBefore)
          kept += line;
        line.clear();
      }
      std::fclose(old);
    }
  }
  std::FILE *file = std::fopen(path.c_str(), "w");
  if (!file || std::fwrite(kept.data(), 1, kept.size(), file) != kept.size() ||
      std::fflush(file) != 0) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    if (file)
      std::fclose(file);
    return nullptr;
  }
  return file;
}
} // namespace

std::string summa::rt::driver::metricsJsonLine(const StepMetrics &m) {
  std::string line = "{\"step\":" + std::to_string(m.step);
  line += ",\"loss\":" + optionalNumber(m.loss);
  line += ",\"lr\":" + optionalNumber(m.lr);
  line += ",\"grad_norm\":" + optionalNumber(m.gradNorm);
  bool rate = m.tokens > 0 && m.seconds > 0;
  line += ",\"tokens\":" + (m.tokens > 0 ? std::to_string(m.tokens) : "null");
  line += ",\"tokens_per_s\":" +
          (rate ? number(m.tokens / m.seconds, "%.1f") : "null");
  line += ",\"ms_per_step\":" + number(m.seconds * 1e3, "%.4f");
  line += ",\"comm_bytes\":{";
  for (int kind = 0; kind < kNumCollectiveKinds; ++kind)
    line += std::string(kind ? "," : "") + "\"" +
            collectiveName(static_cast<CollectiveKind>(kind)) +
            "\":" + std::to_string(m.commBytes[kind]);
  line += "},\"peak_rss_bytes\":" + std::to_string(m.peakRssBytes);
  line += ",\"wall_time\":" + number(m.wallTime, "%.3f") + "}\n";
  return line;
}

std::unique_ptr<MetricsLog> MetricsLog::open(const std::string &jsonPath,
                                             const std::string &tensorboardDir,
                                             int64_t stepsBefore,
                                             std::string &error) {
  std::unique_ptr<MetricsLog> log(new MetricsLog());
  if (!jsonPath.empty()) {
    log->jsonPath = jsonPath;
    log->json = openKeepingSteps(jsonPath, stepsBefore, error);
    if (!log->json) {
      error = "--metrics: " + error;
      return nullptr;
    }
  }
  if (!tensorboardDir.empty()) {
    // What a killed run wrote after the checkpoint (all of it, for a run
    // from the beginning) is written again.
    if (!truncateEventFiles(tensorboardDir, stepsBefore, error)) {
      error = "--tensorboard: " + error;
      return nullptr;
    }
    log->events = EventFileWriter::open(tensorboardDir, error);
    if (!log->events) {
      error = "--tensorboard: " + error;
      return nullptr;
    }
  }
  return log;
}

MetricsLog::~MetricsLog() {
  if (json)
    std::fclose(json);
}

bool MetricsLog::write(const StepMetrics &m, std::string &error) {
  if (json) {
    std::string line = metricsJsonLine(m);
    if (std::fwrite(line.data(), 1, line.size(), json) != line.size() ||
        std::fflush(json) != 0) {
      error =
          "--metrics: cannot write '" + jsonPath + "': " + std::strerror(errno);
      return false;
    }
  }
  if (!events)
    return true;
  std::vector<std::pair<std::string, float>> scalars;
  auto add = [&](const char *tag, const std::optional<double> &value) {
    if (value && std::isfinite(*value))
      scalars.emplace_back(tag, static_cast<float>(*value));
  };
  add("loss", m.loss);
  add("lr", m.lr);
  add("grad_norm", m.gradNorm);
  if (m.tokens > 0 && m.seconds > 0)
    scalars.emplace_back("throughput/tokens_per_s",
                         static_cast<float>(m.tokens / m.seconds));
  scalars.emplace_back("time/ms_per_step", static_cast<float>(m.seconds * 1e3));
  for (int kind = 0; kind < kNumCollectiveKinds; ++kind)
    if (m.commBytes[kind] > 0)
      scalars.emplace_back(
          std::string("comm/") +
              collectiveName(static_cast<CollectiveKind>(kind)) + "_bytes",
          static_cast<float>(m.commBytes[kind]));
  scalars.emplace_back("memory/peak_rss_mib",
                       static_cast<float>(m.peakRssBytes / 1048576.0));
  if (!events->write(encodeScalarEvent(m.wallTime, m.step, scalars))) {
    error = "--tensorboard: cannot write '" + events->path() +
            "': " + std::strerror(errno);
    return false;
  }
  return true;
}
