//===- Metrics.h - per-step metrics: JSON lines and TensorBoard -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// --metrics FILE writes one JSON object per step, on rank 0, a line each:
//
//   {"step":7,"loss":3.1416,"lr":null,"grad_norm":null,"tokens":256,
//    "tokens_per_s":23456.7,"ms_per_step":10.91,
//    "comm_bytes":{"broadcast":B,"reduce":B,"all_reduce":B,"all_gather":B,
//                  "reduce_scatter":B},
//    "peak_rss_bytes":M,"wall_time":1764930000.123}
//
//  * step: counted from the start of training (a resumed run goes on from
//    its checkpoint's step).
//  * loss, lr, grad_norm: scalar float outputs of the step, by their names
//    (summa.name on the function's result): `loss` (else the first scalar
//    float output that updates no input, as the progress line's), `lr` or
//    `learning_rate`, `grad_norm`; null where the program has none. Every
//    key is always there, so that a step that gains an optimizer output
//    fills a field its readers already know. A non-finite value is null.
//  * tokens: the tokens of a step's batch (--data), tokens_per_s from the
//    step's time; both null without --data.
//  * ms_per_step: the step's time on rank 0 (batch, call, and on the GPU the
//    wait for its work), without checkpoints and metrics.
//  * comm_bytes: the payload bytes of the step's collectives by kind, as
//    SUMMA_PROFILE counts them (Profile.h), the largest over the ranks.
//  * peak_rss_bytes: the largest peak resident memory of a rank so far.
//  * wall_time: seconds since the epoch at the end of the step.
//
// --tensorboard DIR writes the same numbers as scalars of an event file
// (EventFile.h): loss, lr, grad_norm, throughput/tokens_per_s,
// time/ms_per_step, comm/<kind>_bytes (kinds the step used),
// memory/peak_rss_mib.
//
// A run resumed from a checkpoint of step N (--inputs with summa.step N)
// keeps the lines of steps 1..N of an existing FILE and drops the later
// ones (written by the run that was killed), so that FILE reads like one
// uninterrupted run; the event files of DIR are cut back the same way. A
// run from the beginning (N = 0: no checkpoint, or a job summa-run relaunched
// before its first checkpoint) starts FILE afresh and removes the event files
// of DIR, so that no step is there twice.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_METRICS_H
#define SUMMA_RUNTIME_TOOLING_METRICS_H

#include "EventFile.h"
#include "Profile.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

namespace summa::rt::driver {

/// What one step measured (on rank 0; the byte counts and the memory are
/// the largest over the ranks).
struct StepMetrics {
  int64_t step = 0;
  std::optional<double> loss, lr, gradNorm;
  /// Tokens of the step's batch; 0: not known (no --data).
  int64_t tokens = 0;
  double seconds = 0;
  int64_t commBytes[kNumCollectiveKinds] = {};
  int64_t peakRssBytes = 0;
  double wallTime = 0;
};

/// The JSON object of `metrics`, one line with its newline.
std::string metricsJsonLine(const StepMetrics &metrics);

/// Rank 0's writer of --metrics and --tensorboard.
class MetricsLog {
public:
  /// Opens `jsonPath` (empty: no JSON lines) and a new event file in
  /// `tensorboardDir` (empty: none) for a run that starts after
  /// `stepsBefore` steps (see the file comment). On failure returns null
  /// and sets `error`.
  static std::unique_ptr<MetricsLog> open(const std::string &jsonPath,
                                          const std::string &tensorboardDir,
                                          int64_t stepsBefore,
                                          std::string &error);
  ~MetricsLog();
  MetricsLog(const MetricsLog &) = delete;
  MetricsLog &operator=(const MetricsLog &) = delete;

  /// Writes one step (a line, an event), flushed; false and `error` on a
  /// write error.
  bool write(const StepMetrics &metrics, std::string &error);

private:
  MetricsLog() = default;
  std::string jsonPath;
  std::FILE *json = nullptr;
  std::unique_ptr<EventFileWriter> events;
};

/// Seconds since the epoch.
double wallClockSeconds();

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_METRICS_H
