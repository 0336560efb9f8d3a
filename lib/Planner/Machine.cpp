//===- Machine.cpp - a calibrated machine -----------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The machine file that `summa-plan --calibrate` writes and `--machine`
// reads (docs/Planner.md, "Calibration"): its JSON, checked field by field
// with errors that name the file, and the rates the time model takes from
// it. Rates are per rank with a number of ranks busy at once; a plan of R
// ranks uses the entry measured with the most ranks up to R and, where R
// ranks share fewer cores than that entry had, scales it by
// max(entry ranks, cores) / max(R, cores).
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

//===----------------------------------------------------------------------===//
// Rates
//===----------------------------------------------------------------------===//

/// The entry of `entries` measured with the most ranks up to `ranks` (else
/// the fewest) among those `accept` takes, and its rate's scale.
template <typename Entry, typename Accept>
static std::pair<const Entry *, double>
pickByRanks(const std::vector<Entry> &entries, int64_t ranks, int64_t cores,
            Accept accept) {
  const Entry *below = nullptr, *fewest = nullptr;
  for (const Entry &e : entries) {
    if (!accept(e))
      continue;
    if (e.ranks <= ranks && (!below || e.ranks > below->ranks))
      below = &e;
    if (!fewest || e.ranks < fewest->ranks)
      fewest = &e;
  }
  const Entry *entry = below ? below : fewest;
  if (!entry || !below || cores <= 0)
    return {entry, 1.0};
  // Ranks beyond the cores share them: each runs at cores / ranks.
  double scale = static_cast<double>(std::max(entry->ranks, cores)) /
                 static_cast<double>(std::max(ranks, cores));
  return {entry, scale};
}

static const char *dtypeOf(int64_t elementBytes) {
  return elementBytes <= 2 ? "bf16" : elementBytes == 4 ? "f32" : "f64";
}

std::pair<const Machine::Gemm *, double> Machine::gemmFor(int64_t elementBytes,
                                                          int64_t ranks) const {
  StringRef want = dtypeOf(elementBytes);
  bool has = llvm::any_of(gemm, [&](const Gemm &g) {
    return g.dtype == want || (want == "bf16" && g.dtype == "f16");
  });
  return pickByRanks(gemm, ranks, cores, [&](const Gemm &g) {
    return has ? g.dtype == want || (want == "bf16" && g.dtype == "f16")
               : g.dtype == "f32";
  });
}

std::pair<const Machine::Local *, double>
Machine::localFor(int64_t ranks) const {
  return pickByRanks(local, ranks, cores, [](const Local &) { return true; });
}

std::optional<double> Machine::collectiveSeconds(StringRef op,
                                                 int64_t groupSize,
                                                 int64_t count, int64_t bytes,
                                                 int64_t ranks) const {
  // The world the entries were measured in.
  const Collective *world =
      pickByRanks(collectives, ranks, /*cores=*/0, [&](const Collective &c) {
        return c.op == op;
      }).first;
  if (!world)
    return std::nullopt;
  // The entry of this group size, else the nearest (in log2) one.
  const Collective *nearest = nullptr;
  double distance = std::numeric_limits<double>::infinity();
  for (const Collective &c : collectives) {
    if (c.op != op || c.ranks != world->ranks)
      continue;
    double d = std::fabs(std::log2(static_cast<double>(c.groupSize)) -
                         std::log2(static_cast<double>(groupSize)));
    if (d < distance) {
      distance = d;
      nearest = &c;
    }
  }
  if (!nearest)
    return std::nullopt;
  double n = static_cast<double>(count), b = static_cast<double>(bytes);
  if (nearest->groupSize == groupSize)
    return n * nearest->alpha + b / nearest->bytesPerSecond;
  // The link under the measured entry, as the modelled algorithm has it,
  // carried over to this group size.
  double alpha = nearest->alpha / collectiveSteps(op, nearest->groupSize);
  double rate =
      nearest->bytesPerSecond * collectiveFactor(op, nearest->groupSize);
  return n * alpha * collectiveSteps(op, groupSize) +
         b * collectiveFactor(op, groupSize) / rate;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

namespace {

/// Reads the fields of one JSON object of the machine file, recording the
/// first problem as "<what>: <field> ...".
class FieldReader {
public:
  FieldReader(const llvm::json::Object &object, std::string what,
              std::string &error)
      : object(object), what(std::move(what)), error(error) {}

  double positive(StringRef key, bool required = true, double otherwise = 0) {
    std::optional<double> v = object.getNumber(key);
    if (!v) {
      if (required)
        fail(key, object.get(key) ? "must be a number" : "is missing");
      return otherwise;
    }
    if (!(*v > 0) || !std::isfinite(*v))
      fail(key, "must be a positive number");
    return *v;
  }
  double nonNegative(StringRef key) {
    std::optional<double> v = object.getNumber(key);
    if (!v)
      return 0;
    if (!(*v >= 0) || !std::isfinite(*v))
      fail(key, "must not be negative");
    return *v;
  }
  int64_t count(StringRef key, bool required = true) {
    std::optional<int64_t> v = object.getInteger(key);
    if (!v) {
      if (required)
        fail(key, object.get(key) ? "must be an integer" : "is missing");
      return 0;
    }
    if (*v <= 0)
      fail(key, "must be positive");
    return *v;
  }
  std::string string(StringRef key, bool required = true) {
    std::optional<StringRef> v = object.getString(key);
    if (!v && required)
      fail(key, object.get(key) ? "must be a string" : "is missing");
    return v ? v->str() : std::string();
  }
  void fail(StringRef key, StringRef why) {
    if (error.empty())
      error = (what + ": '" + key + "' " + why).str();
  }

private:
  const llvm::json::Object &object;
  std::string what;
  std::string &error;
};

/// The objects of the array `key` of `root`, each read by `read`.
template <typename Read>
void readArray(const llvm::json::Object &root, StringRef key,
               std::string &error, Read read) {
  const llvm::json::Array *array = root.getArray(key);
  if (!array) {
    if (error.empty())
      error = ("'" + key + "' is missing or not an array").str();
    return;
  }
  for (auto [i, value] : llvm::enumerate(*array)) {
    const llvm::json::Object *object = value.getAsObject();
    std::string what = (key + " entry " + Twine(i)).str();
    if (!object) {
      if (error.empty())
        error = what + " is not an object";
      return;
    }
    FieldReader fields(*object, what, error);
    read(*object, fields);
  }
}

bool isCollectiveName(StringRef op) { return collectiveKindIndex(op) < 5; }

} // namespace

/// The machine in `root`, or the first problem in `error`.
static Machine readMachine(const llvm::json::Object &root, std::string &error) {
  Machine m;
  if (root.getString("format") != std::optional<StringRef>("summa-machine")) {
    error = "not a summa machine file (no \"format\": \"summa-machine\")";
    return m;
  }
  FieldReader top(root, "the file", error);
  if (top.count("version") != 1 && error.empty())
    error = "version " + std::to_string(*root.getInteger("version")) +
            " is not supported (this summa-plan reads version 1)";
  m.host = top.string("host", false);
  m.created = top.string("created", false);
  m.cores = top.count("cores", false);
  m.ranksPerNode = top.count("ranks_per_node", false);
  m.kernels = top.string("kernels", false);
  readArray(root, "gemm", error, [&](const llvm::json::Object &, auto &f) {
    Machine::Gemm g;
    g.ranks = f.count("ranks");
    g.dtype = f.string("dtype");
    g.flopsPerSecond = f.positive("flops_per_s");
    g.overheadSeconds = f.nonNegative("overhead_s");
    g.bytesPerSecond = f.positive("bytes_per_s", false);
    m.gemm.push_back(g);
  });
  readArray(root, "local", error, [&](const llvm::json::Object &, auto &f) {
    Machine::Local l;
    l.ranks = f.count("ranks");
    l.bytesPerSecond = f.positive("bytes_per_s");
    l.streamBytesPerSecond = f.positive("stream_bytes_per_s", false);
    l.oneRankBytesPerSecond = f.positive("one_rank_bytes_per_s", false);
    l.iterationsPerSecond = f.positive("iterations_per_s", false);
    l.stridedIterationsPerSecond =
        f.positive("strided_iterations_per_s", false);
    l.cacheBytesPerSecond = f.positive("cache_bytes_per_s", false);
    l.cacheBytes = f.count("cache_bytes", false);
    m.local.push_back(l);
  });
  readArray(root, "collectives", error,
            [&](const llvm::json::Object &, auto &f) {
              Machine::Collective c;
              c.op = f.string("op");
              if (!c.op.empty() && !isCollectiveName(c.op))
                f.fail("op", "is not one of broadcast, reduce, all_reduce, "
                             "all_gather, reduce_scatter");
              c.groupSize = f.count("group_size");
              c.ranks = f.count("ranks", false);
              if (c.ranks == 0)
                c.ranks = c.groupSize;
              c.alpha = f.nonNegative("alpha_s");
              c.bytesPerSecond = f.positive("bytes_per_s");
              m.collectives.push_back(c);
            });
  if (error.empty() && m.gemm.empty())
    error = "'gemm' has no entry";
  if (error.empty() && m.local.empty())
    error = "'local' has no entry";
  return m;
}

FailureOr<Machine> plan::readMachineFile(StringRef path, std::string &error) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error = ("cannot read machine file '" + path +
             "': " + buffer.getError().message())
                .str();
    return failure();
  }
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    error = ("machine file '" + path +
             "' is not JSON: " + llvm::toString(json.takeError()))
                .str();
    return failure();
  }
  const llvm::json::Object *root = json->getAsObject();
  if (!root) {
    error = ("machine file '" + path + "': not a JSON object").str();
    return failure();
  }
  std::string problem;
  Machine machine = readMachine(*root, problem);
  if (!problem.empty()) {
    error = ("machine file '" + path + "': " + problem).str();
    return failure();
  }
  machine.path = path.str();
  return machine;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

void mlir::summa::plan::detail::writeMachineJson(const Machine &m,
                                                 raw_ostream &os) {
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attribute("format", "summa-machine");
    j.attribute("version", 1);
    j.attribute("host", m.host);
    j.attribute("created", m.created);
    j.attribute("cores", m.cores);
    j.attribute("ranks_per_node", m.ranksPerNode);
    if (!m.kernels.empty())
      j.attribute("kernels", m.kernels);
    j.attributeArray("gemm", [&] {
      for (const Machine::Gemm &g : m.gemm)
        j.object([&] {
          j.attribute("ranks", g.ranks);
          j.attribute("dtype", g.dtype);
          j.attribute("flops_per_s", g.flopsPerSecond);
          j.attribute("overhead_s", g.overheadSeconds);
          if (g.bytesPerSecond > 0)
            j.attribute("bytes_per_s", g.bytesPerSecond);
          j.attributeArray("samples", [&] {
            for (const Machine::Gemm::Sample &s : g.samples)
              j.object([&] {
                j.attribute("m", s.m);
                j.attribute("n", s.n);
                j.attribute("k", s.k);
                j.attribute("seconds", s.seconds);
              });
          });
        });
    });
    j.attributeArray("local", [&] {
      for (const Machine::Local &l : m.local)
        j.object([&] {
          j.attribute("ranks", l.ranks);
          j.attribute("bytes_per_s", l.bytesPerSecond);
          j.attribute("stream_bytes_per_s", l.streamBytesPerSecond);
          j.attribute("one_rank_bytes_per_s", l.oneRankBytesPerSecond);
          if (l.iterationsPerSecond > 0)
            j.attribute("iterations_per_s", l.iterationsPerSecond);
          if (l.stridedIterationsPerSecond > 0)
            j.attribute("strided_iterations_per_s",
                        l.stridedIterationsPerSecond);
          if (l.cacheBytesPerSecond > 0) {
            j.attribute("cache_bytes_per_s", l.cacheBytesPerSecond);
            j.attribute("cache_bytes", l.cacheBytes);
          }
        });
    });
    j.attributeArray("collectives", [&] {
      for (const Machine::Collective &c : m.collectives)
        j.object([&] {
          j.attribute("op", c.op);
          j.attribute("ranks", c.ranks);
          j.attribute("group_size", c.groupSize);
          j.attribute("alpha_s", c.alpha);
          j.attribute("lockstep_alpha_s", c.lockstepAlpha);
          j.attribute("bytes_per_s", c.bytesPerSecond);
          j.attributeArray("samples", [&] {
            for (auto [bytes, seconds] : c.samples)
              j.object([&] {
                j.attribute("bytes", bytes);
                j.attribute("seconds", seconds);
              });
          });
        });
    });
  });
  os << "\n";
}
