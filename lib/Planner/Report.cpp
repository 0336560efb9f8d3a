//===- Report.cpp - the planner's table and JSON ----------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

//===----------------------------------------------------------------------===//
// Formatting helpers
//===----------------------------------------------------------------------===//

std::string mlir::summa::plan::detail::gridName(ArrayRef<int64_t> grid) {
  std::string s = "[";
  for (auto [i, v] : llvm::enumerate(grid)) {
    if (i)
      s += ",";
    s += std::to_string(v);
  }
  return s + "]";
}

std::string mlir::summa::plan::detail::formatBytes(double bytes) {
  static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (std::fabs(bytes) >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (unit == 0)
    os << llvm::format("%.0f %s", bytes, units[unit]);
  else
    os << llvm::format("%.2f %s", bytes, units[unit]);
  return text;
}

std::string mlir::summa::plan::formatSeconds(double seconds) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (seconds == 0)
    os << "0 s";
  else if (seconds < 1e-6)
    os << llvm::format("%.2f ns", seconds * 1e9);
  else if (seconds < 1e-3)
    os << llvm::format("%.2f us", seconds * 1e6);
  else if (seconds < 1)
    os << llvm::format("%.3f ms", seconds * 1e3);
  else
    os << llvm::format("%.3f s", seconds);
  return text;
}

static const char *kindName(StrategyKind kind) {
  switch (kind) {
  case StrategyKind::Grid:
    return "grid";
  case StrategyKind::Megatron1D:
    return "1d";
  case StrategyKind::DataParallel:
    return "dp";
  }
  return "";
}

static std::string formatFlops(double flops) {
  static const char *const units[] = {"", "K", "M", "G", "T", "P", "E"};
  int unit = 0;
  while (flops >= 1000 && unit < 6) {
    flops /= 1000;
    ++unit;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format(unit ? "%.2f %sFLOP" : "%.0f %sFLOP", flops, units[unit]);
  return text;
}

/// "1.23 G" style.
static std::string formatCount(double count) {
  static const char *const units[] = {"", " K", " M", " G", " T", " P"};
  int unit = 0;
  while (count >= 1000 && unit < 5) {
    count /= 1000;
    ++unit;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format(unit ? "%.2f%s" : "%.0f%s", count, units[unit]);
  return text;
}

static std::string pad(StringRef s, size_t width) {
  std::string out = s.str();
  if (out.size() < width)
    out.append(width - out.size(), ' ');
  return out;
}

static std::string padLeft(StringRef s, size_t width) {
  std::string out = s.str();
  if (out.size() < width)
    out.insert(0, width - out.size(), ' ');
  return out;
}

/// A calibrated machine: where it was measured and the rates a rank gets
/// with the plan's ranks busy.
static void printMachine(const Plan &plan, const PlanOptions &options,
                         raw_ostream &os) {
  const Machine &machine = *options.machine;
  int64_t e = plan.model.elementBytes ? plan.model.elementBytes : 4;
  os << "machine: '" << machine.path << "' (calibrated";
  if (!machine.host.empty())
    os << " on " << machine.host;
  if (machine.cores)
    os << ", " << machine.cores << " cores";
  os << "): " << plan.ranks << " ranks, " << options.gpusPerNode
     << " per node; per rank GEMM "
     << llvm::format("%.4g", options.effectiveGemmRate(e) / 1e9)
     << " GFLOP/s, local loop nests "
     << llvm::format("%.4g", options.effectiveLocalRate() / 1e9)
     << " GB/s; collectives measured on groups of";
  SmallVector<int64_t> sizes;
  for (const Machine::Collective &c : machine.collectives)
    if (!llvm::is_contained(sizes, c.groupSize))
      sizes.push_back(c.groupSize);
  llvm::sort(sizes);
  for (auto [i, size] : llvm::enumerate(sizes))
    os << (i ? ", " : " ") << size;
  if (sizes.empty())
    os << " none";
  os << "\n";
}

/// The model and the machine the plan is for.
static void printPlanHeader(const Plan &plan, const PlanOptions &options,
                            raw_ostream &os) {
  const ModelInfo &m = plan.model;
  os << "summa-plan: @" << m.entry << " ("
     << (m.source == "ir" ? "read from the IR" : "described")
     << "): " << m.tokens << " tokens";
  if (m.batch && m.seq)
    os << " (" << m.batch << " sequence" << (m.batch == 1 ? "" : "s") << " of "
       << m.seq << (m.tokenIds ? ", token ids " + m.idType : "") << ")";
  else if (m.tokenIds)
    os << " (token ids " << m.idType << ")";
  os << ", hidden " << m.hidden;
  if (m.vocab)
    os << ", vocabulary " << m.vocab;
  os << ", " << m.elementType << "; " << m.weightMatrices
     << (m.weightMatrices == 1 ? " weight matrix" : " weight matrices");
  if (m.layers)
    os << " (" << m.layers << " layer" << (m.layers == 1 ? "" : "s") << ")";
  os << ", " << m.parameters << " parameter elements, " << formatFlops(m.flops)
     << " per call\n";
  if (options.machine)
    printMachine(plan, options, os);
  else
    os << "machine: " << plan.ranks << " ranks, " << options.gpusPerNode
       << " per node; NVLink "
       << llvm::format("%.3g", options.nvlink.alpha * 1e6) << " us + "
       << llvm::format("%.4g", options.nvlink.bytesPerSecond / 1e9)
       << " GB/s, network " << llvm::format("%.3g", options.network.alpha * 1e6)
       << " us + " << llvm::format("%.4g", options.network.bytesPerSecond / 1e9)
       << " GB/s; GEMM "
       << llvm::format("%.4g",
                       options.gemmRate(m.elementBytes ? m.elementBytes : 2) /
                           1e12)
       << " TFLOP/s (" << m.elementType << ", "
       << llvm::format("%.2g", options.gemmEfficiency)
       << " of peak); local loop nests "
       << llvm::format("%.4g", options.localBytesPerSecond / 1e9) << " GB/s\n";
  os << "per rank and per call; payload: the bytes SUMMA_PROFILE counts; "
        "wire: sent + received by the modelled algorithm\n\n";
}

/// One line per strategy: status, bytes, GEMMs, memory and times.
static void printStrategyTable(const Plan &plan, const PlanOptions &options,
                               raw_ostream &os) {
  os << "  " << pad("strategy", 11) << pad("status", 9)
     << padLeft("payload", 12) << padLeft("wire", 12) << padLeft("GEMMs", 8)
     << padLeft("memory", 12) << padLeft("comm", 12) << padLeft("GEMM", 12)
     << padLeft("local", 12) << padLeft("total", 12) << "\n";
  for (auto [i, s] : llvm::enumerate(plan.strategies)) {
    os << (static_cast<int>(i) == plan.best ? "* " : "  ") << pad(s.name, 11);
    if (!s.feasible) {
      os << "no: " << s.infeasibleReason << "\n";
      continue;
    }
    std::string status = s.counted ? "counted" : "model";
    if (!s.fitsMemory)
      status += "!";
    os << pad(status, 9) << padLeft(formatBytes(s.payloadBytes()), 12)
       << padLeft(formatBytes(s.wireBytes()), 12)
       << padLeft(std::to_string(s.gemmCount), 8)
       << padLeft(formatBytes(s.memory.total()), 12)
       << padLeft(formatSeconds(s.commSeconds), 12)
       << padLeft(formatSeconds(s.gemmSeconds), 12)
       << padLeft(formatSeconds(s.localSeconds), 12)
       << padLeft(formatSeconds(s.seconds()), 12) << "\n";
  }
  os << "\n(counted: from the partitioned IR, equal to the runtime's "
        "counters; model: analytic";
  if (options.memoryCapacityBytes > 0)
    os << "; !: needs more than "
       << llvm::format("%.4g", options.memoryCapacityBytes / 1e9)
       << " GB per rank";
  os << ")\n";
}

/// A feasible strategy's memory, panel reuse and collectives.
static void printStrategyDetails(const StrategyPlan &s,
                                 const PlanOptions &options, raw_ostream &os) {
  os << "\n"
     << s.name << ": memory per rank: parameters "
     << formatBytes(s.memory.parameterBytes) << ", activations "
     << formatBytes(s.memory.activationBytes) << ", results "
     << formatBytes(s.memory.resultBytes) << ", peak intermediates "
     << formatBytes(s.memory.peakIntermediateBytes);
  if (s.memory.panelBytes)
    os << " (SUMMA panels " << formatBytes(s.memory.panelBytes) << ")";
  os << "; " << s.gemmCount << " GEMMs, " << formatFlops(s.gemmFlops);
  if (s.localGemmCount)
    os << " and " << s.localGemmCount << " batched, "
       << formatFlops(static_cast<double>(s.localGemmFlops));
  os << "; local loop nests " << formatBytes(static_cast<double>(s.localBytes))
     << ", " << formatCount(static_cast<double>(s.localIterations))
     << " iterations\n";
  if (s.withoutReuse) {
    const StrategyPlan::WithoutReuse &w = *s.withoutReuse;
    os << "    panel reuse (memory budget ";
    if (*options.panelReuseBudget < 0)
      os << "unbounded";
    else
      os << *options.panelReuseBudget << " B";
    os << "): broadcasts " << w.broadcastBytes << " -> " << s.broadcastBytes()
       << " B per call (" << s.broadcastBytes() - w.broadcastBytes
       << " B), memory " << formatBytes(w.memoryBytes) << " -> "
       << formatBytes(s.memory.total()) << ", predicted "
       << formatSeconds(w.seconds) << " -> " << formatSeconds(s.seconds())
       << "\n";
  }
  if (s.collectives.empty()) {
    os << "    no communication\n";
    return;
  }
  for (const CollectiveStat &c : s.collectives)
    os << "    " << pad(c.op, 15) << pad(c.group, 14)
       << padLeft(std::to_string(c.groupSize), 5) << " ranks  "
       << pad(c.intraNode ? "nvlink" : "network", 8)
       << padLeft(std::to_string(c.count), 7) << " calls "
       << padLeft(std::to_string(c.bytes), 16) << " B "
       << padLeft(formatSeconds(c.seconds), 12) << "\n";
}

void plan::printPlanTable(const Plan &plan, const PlanOptions &options,
                          raw_ostream &os) {
  printPlanHeader(plan, options, os);
  printStrategyTable(plan, options, os);
  for (const StrategyPlan &s : plan.strategies)
    if (s.feasible)
      printStrategyDetails(s, options, os);
  os << "\n";
  if (plan.best >= 0)
    os << "best: " << plan.reason << "\n";
  else
    os << "no grid: " << plan.reason << "\n";
}

/// One JSON field: its key and its value.
using Field = std::pair<StringRef, llvm::json::Value>;

/// Writes `fields`, in order, into the object `j` is writing.
static void writeFields(llvm::json::OStream &j,
                        std::initializer_list<Field> fields) {
  for (const Field &field : fields)
    j.attribute(field.first, field.second);
}

/// Writes the object `key` with `fields`, in order.
static void writeObject(llvm::json::OStream &j, StringRef key,
                        std::initializer_list<Field> fields) {
  j.attributeObject(key, [&] { writeFields(j, fields); });
}

void plan::printPlanJson(const Plan &plan, const PlanOptions &options,
                         raw_ostream &os) {
  llvm::json::OStream j(os, 1);
  const ModelInfo &m = plan.model;
  j.object([&] {
    j.attribute("ranks", plan.ranks);
    writeObject(j, "model",
                {{"source", m.source},
                 {"entry", m.entry},
                 {"element_type", m.elementType},
                 {"element_bytes", m.elementBytes},
                 {"tokens", m.tokens},
                 {"hidden", m.hidden},
                 {"batch", m.batch},
                 {"seq", m.seq},
                 {"token_ids", m.tokenIds},
                 {"id_type", m.idType},
                 {"vocab", m.vocab},
                 {"matmuls", m.matmuls},
                 {"weight_matrices", m.weightMatrices},
                 {"layers", m.layers},
                 {"layers_from", m.layersFrom},
                 {"parameters", m.parameters},
                 {"flops", m.flops}});
    writeObject(
        j, "options",
        {{"gpus_per_node", options.gpusPerNode},
         {"nvlink_alpha_s", options.nvlink.alpha},
         {"nvlink_bytes_per_s", options.nvlink.bytesPerSecond},
         {"network_alpha_s", options.network.alpha},
         {"network_bytes_per_s", options.network.bytesPerSecond},
         {"machine", options.machine ? llvm::json::Value(options.machine->path)
                                     : llvm::json::Value(nullptr)},
         {"gemm_flops_per_s",
          options.effectiveGemmRate(m.elementBytes ? m.elementBytes : 2)},
         {"gemm_efficiency", options.gemmEfficiency},
         {"local_bytes_per_s", options.effectiveLocalRate()},
         {"loop_iterations_per_s", options.effectiveIterationRate()},
         {"memory_capacity_bytes", options.memoryCapacityBytes}});
    j.attributeArray("strategies", [&] {
      for (const StrategyPlan &s : plan.strategies) {
        j.object([&] {
          j.attribute("name", s.name);
          j.attribute("kind", kindName(s.kind));
          if (s.kind == StrategyKind::Grid)
            j.attributeArray("grid", [&] {
              for (int64_t v : s.grid)
                j.value(v);
            });
          j.attribute("feasible", s.feasible);
          if (!s.feasible) {
            j.attribute("reason", s.infeasibleReason);
            return;
          }
          j.attribute("counted", s.counted);
          j.attribute("fits_memory", s.fitsMemory);
          j.attributeArray("collectives", [&] {
            for (const CollectiveStat &c : s.collectives)
              j.object([&] {
                writeFields(j, {{"op", c.op},
                                {"group", c.group},
                                {"group_size", c.groupSize},
                                {"count", c.count},
                                {"bytes", c.bytes},
                                {"wire_bytes", c.wireBytes},
                                {"link", c.intraNode ? "nvlink" : "network"},
                                {"seconds", c.seconds}});
              });
          });
          writeObject(j, "matmul",
                      {{"count", s.gemmCount}, {"flops", s.gemmFlops}});
          writeObject(
              j, "local_matmul",
              {{"count", s.localGemmCount}, {"flops", s.localGemmFlops}});
          writeObject(j, "memory",
                      {{"parameters", s.memory.parameterBytes},
                       {"activations", s.memory.activationBytes},
                       {"results", s.memory.resultBytes},
                       {"peak_intermediates", s.memory.peakIntermediateBytes},
                       {"panels", s.memory.panelBytes},
                       {"total", s.memory.total()}});
          writeFields(j, {{"payload_bytes", s.payloadBytes()},
                          {"wire_bytes", s.wireBytes()},
                          {"local_bytes", s.localBytes},
                          {"local_iterations", s.localIterations}});
          writeObject(j, "seconds",
                      {{"comm", s.commSeconds},
                       {"gemm", s.gemmSeconds},
                       {"local", s.localSeconds},
                       {"total", s.seconds()}});
          if (const auto &w = s.withoutReuse)
            writeObject(j, "without_panel_reuse",
                        {{"payload_bytes", w->payloadBytes},
                         {"broadcast_bytes", w->broadcastBytes},
                         {"memory_total", w->memoryBytes},
                         {"seconds", w->seconds}});
        });
      }
    });
    if (plan.best >= 0)
      j.attribute("best", plan.strategies[plan.best].name);
    else
      j.attribute("best", nullptr);
    j.attribute("reason", plan.reason);
  });
  os << "\n";
}
