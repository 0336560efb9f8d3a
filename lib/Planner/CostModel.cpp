//===- CostModel.cpp - collectives, GEMMs and their time --------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The planner's cost model: options, the runtime's names of collectives
// and groups, the alpha-beta time and wire bytes of a collective, the GEMM
// rate, and the per-strategy totals (docs/Planner.md, "Time").
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>
#include <vector>

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

double PlanOptions::gemmRate(int64_t bytes) const {
  double peak = peakFlopsOverride ? *peakFlopsOverride
                : bytes <= 2      ? peakFlops16
                : bytes == 4      ? peakFlops32
                                  : peakFlops64;
  return peak * gemmEfficiency;
}

double PlanOptions::effectiveGemmRate(int64_t elementBytes) const {
  if (machine)
    if (auto [entry, scale] = machine->gemmFor(elementBytes, ranks); entry)
      return entry->flopsPerSecond * scale;
  return gemmRate(elementBytes);
}

double PlanOptions::effectiveLocalRate() const {
  if (machine)
    if (auto [entry, scale] = machine->localFor(ranks); entry)
      return entry->bytesPerSecond * scale;
  return localBytesPerSecond;
}

double PlanOptions::gemmSeconds(int64_t calls, double flops,
                                int64_t elementBytes, double bytes) const {
  double overhead = 0;
  // On a calibrated machine a GEMM is also bound by its bytes: a decode
  // step's products of one token per row read every weight for 2 flops per
  // element. At the machine's rate of such GEMMs where calibrated, else the
  // local loop nests' streaming rate.
  double byteRate = 0;
  if (machine) {
    auto [entry, scale] = machine->gemmFor(elementBytes, ranks);
    if (entry) {
      overhead = entry->overheadSeconds;
      byteRate = entry->bytesPerSecond * scale;
    }
    if (byteRate <= 0)
      if (auto [local, localScale] = machine->localFor(ranks); local)
        byteRate =
            (local->streamBytesPerSecond > 0 ? local->streamBytesPerSecond
                                             : local->bytesPerSecond) *
            localScale;
  }
  double compute = flops / effectiveGemmRate(elementBytes);
  double memory = byteRate > 0 && bytes > 0 ? bytes / byteRate : 0;
  return static_cast<double>(calls) * overhead + std::max(compute, memory);
}

double PlanOptions::effectiveIterationRate() const {
  if (machine)
    if (auto [entry, scale] = machine->localFor(ranks);
        entry && entry->iterationsPerSecond > 0)
      return entry->iterationsPerSecond * scale;
  return loopIterationsPerSecond;
}

double PlanOptions::localSeconds(double bytes, double iterations,
                                 double stridedBytes) const {
  double memory = bytes / effectiveLocalRate();
  double rate = effectiveIterationRate();
  if (machine)
    if (auto [entry, scale] = machine->localFor(ranks); entry) {
      double cache = static_cast<double>(entry->cacheBytes);
      if (entry->cacheBytesPerSecond > 0 && bytes <= cache)
        memory = bytes / (entry->cacheBytesPerSecond * scale);
      if (entry->stridedIterationsPerSecond > 0 && stridedBytes > cache)
        rate = entry->stridedIterationsPerSecond * scale;
    }
  return rate > 0 ? std::max(memory, iterations / rate) : memory;
}

void mlir::summa::plan::detail::addLocalWork(StrategyPlan &s,
                                             const LocalWork &work,
                                             int64_t times,
                                             int64_t elementBytes,
                                             const PlanOptions &options) {
  if (work.gemmFlops > 0) {
    s.localGemmCount += times;
    s.localGemmFlops += times * work.gemmFlops;
    s.gemmSeconds += options.gemmSeconds(
        times, static_cast<double>(times * work.gemmFlops), elementBytes,
        static_cast<double>(times * work.gemmBytes));
    return;
  }
  if (work.bytes == 0 && work.iterations == 0)
    return;
  s.localBytes += times * work.bytes;
  s.localIterations += times * work.iterations;
  s.localSeconds +=
      static_cast<double>(times) *
      options.localSeconds(static_cast<double>(work.bytes),
                           static_cast<double>(work.iterations),
                           static_cast<double>(work.stridedBytes));
}

double PlanOptions::collectiveSeconds(StringRef op, int64_t groupSize,
                                      int64_t count, int64_t bytes,
                                      bool intraNode) const {
  if (groupSize <= 1)
    return 0;
  if (machine)
    if (std::optional<double> seconds =
            machine->collectiveSeconds(op, groupSize, count, bytes, ranks))
      return *seconds;
  return plan::collectiveSeconds(op, groupSize, count, bytes,
                                 intraNode ? nvlink : network);
}

int64_t StrategyPlan::payloadBytes() const {
  int64_t total = 0;
  for (const CollectiveStat &c : collectives)
    total += c.bytes;
  return total;
}

int64_t StrategyPlan::broadcastBytes() const {
  int64_t total = 0;
  for (const CollectiveStat &c : collectives)
    if (c.op == "broadcast")
      total += c.bytes;
  return total;
}

double StrategyPlan::wireBytes() const {
  double total = 0;
  for (const CollectiveStat &c : collectives)
    total += c.wireBytes;
  return total;
}

SmallVector<SmallVector<int64_t, 3>> plan::enumerateGrids(int64_t ranks) {
  SmallVector<SmallVector<int64_t, 3>> grids;
  for (int64_t q = 1; q * q <= ranks; ++q)
    if (ranks % (q * q) == 0)
      grids.push_back({q, q, ranks / (q * q)});
  return grids;
}

std::string plan::groupName(ArrayRef<int32_t> axes) {
  // Profile.cpp: the spanned axes in the order row, col, depth.
  static const char *const names[3] = {"row", "col", "depth"};
  int mask = 0;
  for (int32_t a : axes)
    mask |= 1 << a;
  std::string name;
  for (int a = 0; a < 3; ++a) {
    if (!(mask & (1 << a)))
      continue;
    if (!name.empty())
      name += '+';
    name += names[a];
  }
  return name;
}

int mlir::summa::plan::detail::collectiveKindIndex(StringRef op) {
  return llvm::StringSwitch<int>(op)
      .Case("broadcast", 0)
      .Case("reduce", 1)
      .Case("all_reduce", 2)
      .Case("all_gather", 3)
      .Case("reduce_scatter", 4)
      .Default(5);
}

double mlir::summa::plan::detail::collectiveSteps(StringRef op, int64_t p) {
  double pd = static_cast<double>(p);
  if (op == "broadcast" || op == "reduce")
    return static_cast<double>(llvm::Log2_64_Ceil(p));
  if (op == "all_reduce")
    return 2 * (pd - 1);
  return pd - 1; // all_gather, reduce_scatter: a ring
}

double mlir::summa::plan::detail::collectiveFactor(StringRef op, int64_t p) {
  double pd = static_cast<double>(p);
  if (op == "broadcast" || op == "reduce")
    return 1; // pipelined
  if (op == "all_reduce")
    return 2 * (pd - 1) / pd;
  // all_gather: the payload is the source (one block); reduce_scatter: the
  // destination (one block). Both move (p-1) blocks per rank on a ring.
  return pd - 1;
}

double plan::collectiveSeconds(StringRef op, int64_t p, int64_t count,
                               int64_t bytes, const LinkParams &link) {
  if (p <= 1)
    return 0;
  double n = static_cast<double>(count), b = static_cast<double>(bytes);
  return n * link.alpha * collectiveSteps(op, p) +
         b * collectiveFactor(op, p) / link.bytesPerSecond;
}

double plan::collectiveWireBytes(StringRef op, int64_t p, int64_t bytes) {
  if (p <= 1)
    return 0;
  double b = static_cast<double>(bytes), pd = static_cast<double>(p);
  if (op == "broadcast" || op == "reduce")
    return 2 * b; // pipelined chain: receive the buffer once, send it once
  if (op == "all_reduce")
    return 2 * 2 * (pd - 1) / pd * b;
  return 2 * (pd - 1) * b;
}

void CollectiveTable::add(StringRef op, int mask, StringRef group,
                          int64_t groupSize, int64_t count,
                          int64_t payloadBytes) {
  if (groupSize <= 1)
    return; // The runtime does not count groups of one rank.
  CollectiveStat &c = entries[{collectiveKindIndex(op), mask == 0 ? 8 : mask}];
  c.op = op.str();
  c.group = group.str();
  c.axesMask = mask;
  c.groupSize = groupSize;
  c.count += count;
  c.bytes += payloadBytes;
}

SmallVector<CollectiveStat> CollectiveTable::take() const {
  SmallVector<CollectiveStat> out;
  for (const auto &entry : entries)
    out.push_back(entry.second);
  return out;
}

int64_t mlir::summa::plan::detail::resultElementBytes(Operation *op) {
  if (op->getNumResults() == 0)
    return 4;
  int64_t bytes = elementStorageBytes(getElementTypeOrSelf(op->getResult(0)));
  return bytes ? bytes : 4;
}

int64_t mlir::summa::plan::detail::staticBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  return shaped.getNumElements() * elementStorageBytes(shaped.getElementType());
}

bool mlir::summa::plan::detail::isIntraNode(int64_t q, int64_t d, int mask,
                                            int64_t gpn) {
  int64_t ranks = q * q * d;
  if (gpn <= 0)
    return false;
  if (ranks <= gpn)
    return true;
  // Group key: the coordinates on the axes the group does not span.
  std::vector<int64_t> lo(ranks, std::numeric_limits<int64_t>::max());
  std::vector<int64_t> hi(ranks, -1);
  for (int64_t k = 0; k < d; ++k)
    for (int64_t i = 0; i < q; ++i)
      for (int64_t j = 0; j < q; ++j) {
        int64_t rank = k * q * q + i * q + j;
        int64_t key = ((mask & 4) ? 0 : k) * q * q + ((mask & 1) ? 0 : i) * q +
                      ((mask & 2) ? 0 : j);
        int64_t node = rank / gpn;
        lo[key] = std::min(lo[key], node);
        hi[key] = std::max(hi[key], node);
      }
  for (int64_t key = 0; key < ranks; ++key)
    if (hi[key] >= 0 && lo[key] != hi[key])
      return false;
  return true;
}

void mlir::summa::plan::detail::finishStrategy(
    StrategyPlan &s, const PlanOptions &options,
    function_ref<bool(const CollectiveStat &)> intra) {
  s.commSeconds = 0;
  for (CollectiveStat &c : s.collectives) {
    c.intraNode = intra(c);
    c.seconds = options.collectiveSeconds(c.op, c.groupSize, c.count, c.bytes,
                                          c.intraNode);
    c.wireBytes = collectiveWireBytes(c.op, c.groupSize, c.bytes);
    s.commSeconds += c.seconds;
  }
  s.fitsMemory =
      options.memoryCapacityBytes <= 0 ||
      static_cast<double>(s.memory.total()) <= options.memoryCapacityBytes;
}
