//===- Choose.cpp - the choice of a grid ------------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// chooseBest: among the grids that divide the model (and fit in memory, if
// any does) the least predicted time, then the least memory; the reason
// names the runner-up and how the 1D and data-parallel rows compare.
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

static std::string formatRatio(double r) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.2fx", r);
  return text;
}

/// a is better than b: less time, then less memory (times within 1e-9
/// relative are a tie).
static bool better(const StrategyPlan &a, const StrategyPlan &b) {
  double ta = a.seconds(), tb = b.seconds();
  double scale = std::max({std::fabs(ta), std::fabs(tb), 1e-30});
  if (std::fabs(ta - tb) > 1e-9 * scale)
    return ta < tb;
  return a.memory.total() < b.memory.total();
}

/// "2.10x less predicted time than [8,8,1] (1.2 ms against 2.5 ms; ...)".
static std::string compare(const StrategyPlan &best,
                           const StrategyPlan &other) {
  std::string text;
  llvm::raw_string_ostream os(text);
  double tb = best.seconds(), to = other.seconds();
  if (std::fabs(tb - to) <= 1e-9 * std::max(tb, to)) {
    os << "the same predicted time as " << other.name << " ("
       << formatSeconds(tb) << ") and less memory per rank ("
       << formatBytes(best.memory.total()) << " against "
       << formatBytes(other.memory.total()) << ")";
    return text;
  }
  if (tb > 0)
    os << formatRatio(to / tb) << " less predicted time than ";
  else
    os << "less predicted time than ";
  os << other.name << " (" << formatSeconds(tb) << " against "
     << formatSeconds(to) << ": collectives " << formatSeconds(best.commSeconds)
     << " against " << formatSeconds(other.commSeconds) << ", GEMMs "
     << formatSeconds(best.gemmSeconds) << " against "
     << formatSeconds(other.gemmSeconds) << ", local "
     << formatSeconds(best.localSeconds) << " against "
     << formatSeconds(other.localSeconds) << ")";
  return text;
}

void mlir::summa::plan::detail::chooseBest(Plan &plan) {
  plan.best = -1;
  auto isGrid = [](const StrategyPlan &s) {
    return s.kind == StrategyKind::Grid;
  };
  // Grids that divide the model; among them, those that fit in memory.
  SmallVector<int> feasible, fitting;
  for (auto [i, s] : llvm::enumerate(plan.strategies)) {
    if (!isGrid(s) || !s.feasible)
      continue;
    feasible.push_back(i);
    if (s.fitsMemory)
      fitting.push_back(i);
  }
  if (feasible.empty()) {
    plan.reason = "no grid of " + std::to_string(plan.ranks) +
                  " ranks can partition the model";
    return;
  }
  ArrayRef<int> pool = fitting.empty() ? feasible : fitting;
  SmallVector<int> order(pool.begin(), pool.end());
  llvm::stable_sort(order, [&](int a, int b) {
    return better(plan.strategies[a], plan.strategies[b]);
  });
  plan.best = order.front();
  const StrategyPlan &best = plan.strategies[plan.best];
  std::string text;
  llvm::raw_string_ostream os(text);
  os << best.name << ": ";
  if (order.size() == 1 && feasible.size() == 1)
    os << "the only grid of " << plan.ranks << " ranks that divides the model ("
       << formatSeconds(best.seconds()) << " predicted)";
  else if (order.size() == 1)
    os << "the only grid of " << plan.ranks
       << " ranks whose memory per rank fits (" << formatSeconds(best.seconds())
       << " predicted)";
  else
    os << compare(best, plan.strategies[order[1]]);
  if (fitting.empty())
    os << "; no grid fits in the memory per rank ("
       << formatBytes(best.memory.total()) << " needed)";
  // Faster grids that do not fit.
  for (int i : feasible)
    if (!plan.strategies[i].fitsMemory &&
        plan.strategies[i].seconds() < best.seconds() && !fitting.empty())
      os << "; " << plan.strategies[i].name << " would be faster ("
         << formatSeconds(plan.strategies[i].seconds()) << ") but needs "
         << formatBytes(plan.strategies[i].memory.total()) << " per rank";
  // The reference strategies.
  for (const StrategyPlan &s : plan.strategies) {
    if (isGrid(s))
      continue;
    const char *what =
        s.kind == StrategyKind::Megatron1D ? "1D Megatron" : "data parallel";
    if (!s.feasible) {
      os << "; " << what << " cannot partition it";
      continue;
    }
    if (best.seconds() > 0)
      os << "; " << what << " would take "
         << formatRatio(s.seconds() / best.seconds()) << " its time";
    if (!s.fitsMemory)
      os << " and does not fit in memory (" << formatBytes(s.memory.total())
         << " per rank)";
  }
  plan.reason = text;
}
