//===- KillAt.cpp - SUMMA_KILL_AT, a fault at a step ------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Parsing SUMMA_KILL_AT and the SIGKILL it asks for.
//
//===----------------------------------------------------------------------===//

#include "KillAt.h"
#include "Options.h"

#include "Error.h"
#include "GridState.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <signal.h>
#include <string>

using namespace summa::rt;
using namespace summa::rt::driver;

KillAt KillAt::fromEnvironment() {
  KillAt kill;
  const char *spec = std::getenv("SUMMA_KILL_AT");
  if (!spec || !*spec)
    return kill;
  const char *restarts = std::getenv("SUMMA_RESTART_COUNT");
  if (restarts && *restarts && std::strcmp(restarts, "0") != 0)
    return kill;
  std::string text = spec;
  size_t colon = text.find(':');
  size_t second =
      colon == std::string::npos ? colon : text.find(':', colon + 1);
  int64_t rank = 0;
  bool valid =
      colon != std::string::npos &&
      parseInt(text.substr(0, colon).c_str(), rank) &&
      parseInt(text.substr(colon + 1, second - colon - 1).c_str(), kill.step) &&
      kill.step >= 1 &&
      (second == std::string::npos || text.substr(second + 1) == "checkpoint");
  if (!valid)
    fatal("summaRtMain: SUMMA_KILL_AT='%s' is not RANK:STEP or "
          "RANK:STEP:checkpoint (STEP >= 1)",
          spec);
  kill.inCheckpoint = second != std::string::npos;
  kill.rank = static_cast<int>(rank);
  return kill;
}

bool KillAt::at(int64_t when, bool checkpoint) const {
  return rank == grid().worldRank && step == when && inCheckpoint == checkpoint;
}

void KillAt::now(const char *where) const {
  std::fflush(stdout);
  std::fprintf(stderr, "summa: rank %d: SUMMA_KILL_AT: SIGKILL %s step %lld\n",
               rank, where, (long long)step);
  std::fflush(stderr);
  raise(SIGKILL);
  std::abort();
}
