//===- KillAt.h - SUMMA_KILL_AT, a fault at a step --------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// SUMMA_KILL_AT=R:S[:checkpoint], a testing aid (docs/Reliability.md): rank R
// raises SIGKILL on itself just before step S (counted from the start of
// training), or with ":checkpoint" halfway through writing the checkpoint of
// step S (after the first tensor of its own file). A fault at a step, not at
// a time, fires at the same point of the run however loaded the machine is.
// It fires in the first attempt of a job only (SUMMA_RESTART_COUNT, which
// summa-run sets for its restarts, unset or 0), so that the restarted job
// runs through.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_RUNTIME_TOOLING_KILLAT_H
#define SUMMA_RUNTIME_TOOLING_KILLAT_H

#include <cstdint>

namespace summa::rt::driver {

struct KillAt {
  int rank = -1;
  int64_t step = 0;
  bool inCheckpoint = false;

  /// The fault SUMMA_KILL_AT asks for (none when it is unset, or in a
  /// restarted job); fatal when it is malformed.
  static KillAt fromEnvironment();

  /// Whether this rank dies before step `when`, or while writing its
  /// checkpoint (`checkpoint`).
  bool at(int64_t when, bool checkpoint) const;

  /// Kills this rank, saying so on stderr (`where` the step: "before", ...).
  [[noreturn]] void now(const char *where) const;
};

} // namespace summa::rt::driver

#endif // SUMMA_RUNTIME_TOOLING_KILLAT_H
