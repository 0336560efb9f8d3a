//===- Chart.cpp - the planner's prediction as an SVG bar chart -*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// summa-plan --chart FILE.svg: one horizontal bar per strategy (every grid,
// 1D Megatron, data parallelism), its predicted time per call split into
// the SUMMA GEMMs, the local loop nests and each collective kind, the best
// grid marked. Written by hand (a few rectangles and text), so that it
// needs nothing but the planner and opens in any browser.
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "llvm/Support/Format.h"

#include <array>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::summa::plan;
using mlir::summa::plan::detail::formatSeconds;

namespace {

/// A part of a bar: its legend name, colour and seconds per strategy.
struct Part {
  const char *name;
  const char *colour;
};

/// The parts in the order they are stacked: compute first, then the
/// collectives in the runtime's order of kinds.
constexpr Part kParts[] = {
    {"GEMM", "#4e79a7"},           {"local work", "#a0cbe8"},
    {"broadcast", "#f28e2b"},      {"reduce", "#e15759"},
    {"all_reduce", "#59a14f"},     {"all_gather", "#b07aa1"},
    {"reduce_scatter", "#edc948"},
};
constexpr int kNumParts = sizeof(kParts) / sizeof(kParts[0]);

/// Seconds of each part for `s`.
std::array<double, kNumParts> partsOf(const StrategyPlan &s) {
  std::array<double, kNumParts> seconds{};
  seconds[0] = s.gemmSeconds;
  seconds[1] = s.localSeconds;
  for (const CollectiveStat &c : s.collectives)
    for (int p = 2; p < kNumParts; ++p)
      if (c.op == kParts[p].name)
        seconds[p] += c.seconds;
  return seconds;
}

std::string escape(StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// A tick spacing of 1, 2 or 5 times a power of ten giving about `count`
/// intervals up to `max`.
double tickStep(double max, int count) {
  double raw = max / count;
  double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 5.0})
    if (factor * power >= raw)
      return factor * power;
  return 10 * power;
}

/// "50 ms": `seconds` in the unit that suits an axis up to `max`.
std::string tickLabel(double seconds, double max) {
  double scale = max >= 1 ? 1 : max >= 1e-3 ? 1e3 : max >= 1e-6 ? 1e6 : 1e9;
  const char *unit = max >= 1      ? "s"
                     : max >= 1e-3 ? "ms"
                     : max >= 1e-6 ? "us"
                                   : "ns";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%g %s", seconds * scale, unit);
  return text;
}

std::string fixed(double value, int digits = 1) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.*f", digits, value);
  return text;
}

} // namespace

void mlir::summa::plan::printPlanChart(const Plan &plan,
                                       const PlanOptions &options,
                                       raw_ostream &os) {
  const int width = 820, left = 120, right = 150, top = 92, rowHeight = 26,
            barHeight = 16;
  const int plotWidth = width - left - right;
  int rows = static_cast<int>(plan.strategies.size());
  int height = top + rows * rowHeight + 52;

  double maxSeconds = 0;
  for (const StrategyPlan &s : plan.strategies)
    if (s.feasible)
      maxSeconds = std::max(maxSeconds, s.seconds());
  if (maxSeconds <= 0)
    maxSeconds = 1e-6;
  double step = tickStep(maxSeconds, 5);
  double axisMax = std::ceil(maxSeconds / step) * step;
  auto x = [&](double seconds) { return left + plotWidth * seconds / axisMax; };

  os << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " "
     << height << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  os << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";

  // Title: the model and the machine.
  const ModelInfo &m = plan.model;
  std::string title = "summa-plan: predicted time per call of @" + m.entry +
                      " on " + std::to_string(plan.ranks) + " ranks";
  std::string model;
  if (m.tokens)
    model += std::to_string(m.tokens) + " tokens";
  if (m.hidden)
    model += (model.empty() ? "" : ", ") + std::string("hidden ") +
             std::to_string(m.hidden);
  if (m.layers)
    model += (model.empty() ? "" : ", ") + std::to_string(m.layers) + " layers";
  if (m.vocab)
    model += ", vocabulary " + std::to_string(m.vocab);
  if (!m.elementType.empty())
    model += (model.empty() ? "" : ", ") + m.elementType;
  std::string machine =
      options.machine
          ? "machine file " + options.machine->path
          : std::string("H200 defaults (NVLink in nodes of ") +
                std::to_string(options.gpusPerNode) + ", InfiniBand across)";
  os << "<text x=\"" << left << "\" y=\"22\" font-size=\"15\" "
     << "font-weight=\"bold\">" << escape(title) << "</text>\n";
  os << "<text x=\"" << left << "\" y=\"40\" fill=\"#555\">"
     << escape(model + (model.empty() ? "" : "; ") + machine) << "</text>\n";

  // Legend.
  double lx = left;
  for (const Part &part : kParts) {
    os << "<rect x=\"" << fixed(lx) << "\" y=\"54\" width=\"12\" "
       << "height=\"12\" fill=\"" << part.colour << "\"/>";
    os << "<text x=\"" << fixed(lx + 16) << "\" y=\"64\">" << part.name
       << "</text>\n";
    lx += 34 + 7 * std::strlen(part.name);
  }

  // Grid lines and the time axis.
  int axisY = top + rows * rowHeight;
  for (double t = 0; t <= axisMax * (1 + 1e-9); t += step) {
    os << "<line x1=\"" << fixed(x(t)) << "\" y1=\"" << top - 6 << "\" x2=\""
       << fixed(x(t)) << "\" y2=\"" << axisY << "\" stroke=\"#ddd\"/>";
    os << "<text x=\"" << fixed(x(t)) << "\" y=\"" << axisY + 16
       << "\" text-anchor=\"middle\" fill=\"#555\">" << tickLabel(t, axisMax)
       << "</text>\n";
  }
  os << "<text x=\"" << left + plotWidth / 2 << "\" y=\"" << axisY + 36
     << "\" text-anchor=\"middle\">predicted time per call (GEMMs, local "
        "work and collectives added, no overlap)</text>\n";

  for (auto [row, s] : llvm::enumerate(plan.strategies)) {
    int y = top + static_cast<int>(row) * rowHeight;
    bool best = static_cast<int>(row) == plan.best;
    os << "<text x=\"" << left - 8 << "\" y=\"" << y + barHeight - 3
       << "\" text-anchor=\"end\"" << (best ? " font-weight=\"bold\"" : "")
       << ">" << escape(s.name) << "</text>\n";
    if (!s.feasible) {
      std::string reason = s.infeasibleReason;
      if (reason.size() > 90)
        reason = reason.substr(0, 87) + "...";
      os << "<text x=\"" << left + 4 << "\" y=\"" << y + barHeight - 3
         << "\" fill=\"#999\">cannot partition: " << escape(reason)
         << "</text>\n";
      continue;
    }
    std::array<double, kNumParts> parts = partsOf(s);
    double at = 0;
    for (int p = 0; p < kNumParts; ++p) {
      if (parts[p] <= 0)
        continue;
      os << "<rect x=\"" << fixed(x(at), 2) << "\" y=\"" << y << "\" width=\""
         << fixed(x(at + parts[p]) - x(at), 2) << "\" height=\"" << barHeight
         << "\" fill=\"" << kParts[p].colour << "\"><title>" << escape(s.name)
         << " " << kParts[p].name << ": " << escape(formatSeconds(parts[p]))
         << "</title></rect>";
      at += parts[p];
    }
    std::string label = formatSeconds(s.seconds());
    if (best)
      label += "  best";
    if (!s.fitsMemory)
      label += "  (over memory)";
    os << "\n<text x=\"" << fixed(x(at) + 6) << "\" y=\"" << y + barHeight - 3
       << "\"" << (best ? " font-weight=\"bold\"" : "") << ">" << escape(label)
       << "</text>\n";
  }
  os << "</svg>\n";
}
