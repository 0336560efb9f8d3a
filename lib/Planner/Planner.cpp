//===- Planner.cpp - grid planner on the partitioned IR ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// planModule: for every grid [q, q, d] of P ranks, run the partitioning
// half of summa-compile's pipeline (assign-layouts, partition,
// expand-matmul, canonicalize, combine-collectives; it must stay the same
// as summa-compile's) on a clone of the module and count what
// the runtime will count; then the cost model, the memory walk and the
// choice of a grid. The counting rules follow runtime/cpu/Collectives.cpp
// and runtime/common/Profile.h:
//
//  * one entry per (collective kind, axes mask), with the number of calls
//    and the summed size of the local buffer the runtime gets (the buffer
//    for broadcast / reduce / all_reduce, the source for all_gather, the
//    destination for reduce_scatter);
//  * a collective over a group of one rank is not counted;
//  * one GEMM per linalg.matmul execution, 2*m*n*k flops.
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/Pipelines/Pipelines.h"
#include "summa/Support/Functions.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

//===----------------------------------------------------------------------===//
// Options, names and the collective cost model
//===----------------------------------------------------------------------===//

double PlanOptions::gemmRate(int64_t bytes) const {
  double peak = peakFlopsOverride ? *peakFlopsOverride
                : bytes <= 2      ? peakFlops16
                : bytes == 4      ? peakFlops32
                                  : peakFlops64;
  return peak * gemmEfficiency;
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

double plan::collectiveSeconds(StringRef op, int64_t p, int64_t count,
                               int64_t bytes, const LinkParams &link) {
  if (p <= 1)
    return 0;
  double alpha = link.alpha, beta = 1.0 / link.bytesPerSecond;
  double n = static_cast<double>(count), b = static_cast<double>(bytes);
  double pd = static_cast<double>(p);
  if (op == "broadcast" || op == "reduce")
    return n * alpha * static_cast<double>(llvm::Log2_64_Ceil(p)) + beta * b;
  if (op == "all_reduce")
    return n * 2 * (pd - 1) * alpha + beta * 2 * (pd - 1) / pd * b;
  // all_gather: b is the source (one block); reduce_scatter: b is the
  // destination (one block). Both move (p-1) blocks per rank on a ring.
  return n * (pd - 1) * alpha + beta * (pd - 1) * b;
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

int64_t mlir::summa::plan::detail::elementBytes(Type type) {
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  if (isa<IndexType>(type))
    return 8;
  return 0;
}

int64_t mlir::summa::plan::detail::staticBytes(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return 0;
  return shaped.getNumElements() * elementBytes(shaped.getElementType());
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
    const LinkParams &link = c.intraNode ? options.nvlink : options.network;
    c.seconds = collectiveSeconds(c.op, c.groupSize, c.count, c.bytes, link);
    c.wireBytes = collectiveWireBytes(c.op, c.groupSize, c.bytes);
    s.commSeconds += c.seconds;
  }
  s.fitsMemory =
      options.memoryCapacityBytes <= 0 ||
      static_cast<double>(s.memory.total()) <= options.memoryCapacityBytes;
}

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

std::string mlir::summa::plan::detail::formatSeconds(double seconds) {
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

static std::string formatRatio(double r) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%.2fx", r);
  return text;
}

//===----------------------------------------------------------------------===//
// Choice of a grid
//===----------------------------------------------------------------------===//

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
     << formatSeconds(other.gemmSeconds) << ")";
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

//===----------------------------------------------------------------------===//
// Liveness
//===----------------------------------------------------------------------===//

/// The value whose buffer `result` reuses, if any (docs/Planner.md).
static Value aliasSource(OpResult result) {
  Operation *op = result.getOwner();
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
    if (!dps.hasPureTensorSemantics())
      return {};
    Value init = dps.getTiedOpOperand(result)->get();
    return init.hasOneUse() ? init : Value();
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return expand.getSrc();
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return collapse.getSrc();
  if (auto cast = dyn_cast<tensor::CastOp>(op))
    return cast.getSource();
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return slice.getSource(); // a view
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return loop.getInitArgs()[result.getResultNumber()];
  // In-place collectives reuse their input when nothing else reads it.
  if (isa<BroadcastOp, ReduceOp, AllReduceOp>(op)) {
    Value input = op->getOperand(0);
    return input.hasOneUse() ? input : Value();
  }
  return {};
}

static LivenessResult blockPeak(Block &block,
                                function_ref<int64_t(Value)> bytesOf) {
  struct Buffer {
    int64_t bytes;
    int def, last;
    bool external;
  };
  SmallVector<Buffer> buffers;
  DenseMap<Value, int> bufferOf;
  for (BlockArgument arg : block.getArguments()) {
    bufferOf[arg] = buffers.size();
    buffers.push_back({0, -1, -1, true});
  }
  LivenessResult result;
  SmallVector<int64_t> inner;
  int t = 0;
  for (Operation &op : block) {
    auto use = [&](Value v) {
      auto it = bufferOf.find(v);
      if (it != bufferOf.end())
        buffers[it->second].last = std::max(buffers[it->second].last, t);
    };
    for (Value v : op.getOperands())
      use(v);
    int64_t nested = 0;
    op.walk([&](Operation *n) {
      if (n != &op)
        for (Value v : n->getOperands())
          use(v);
    });
    for (Region &region : op.getRegions())
      for (Block &b : region) {
        LivenessResult r = blockPeak(b, bytesOf);
        nested = std::max(nested, r.peak);
        result.panels = std::max(result.panels, r.panels);
        if (isa<scf::ForOp>(op))
          result.panels = std::max(result.panels, r.peak);
      }
    inner.push_back(nested);
    if (isa<func::ReturnOp>(op))
      for (Value v : op.getOperands()) {
        auto it = bufferOf.find(v);
        if (it != bufferOf.end())
          buffers[it->second].external = true; // the caller's buffer
      }
    for (OpResult res : op.getResults()) {
      if (!isa<RankedTensorType>(res.getType()))
        continue;
      Value source = aliasSource(res);
      auto it = source ? bufferOf.find(source) : bufferOf.end();
      if (it != bufferOf.end()) {
        bufferOf[res] = it->second;
        continue;
      }
      int64_t bytes = bytesOf(res);
      // A tensor.empty is storage only for the one op that writes it in
      // place; with several users each writer gets its own buffer.
      if (isa<tensor::EmptyOp>(op) && !res.hasOneUse())
        bytes = 0;
      bufferOf[res] = buffers.size();
      buffers.push_back({bytes, t, t, false});
    }
    ++t;
  }
  // Sweep: a buffer is live from its definition to its last use.
  SmallVector<int64_t> delta(t + 2, 0);
  for (const Buffer &b : buffers) {
    if (b.external || b.def < 0)
      continue;
    delta[b.def] += b.bytes;
    delta[std::max(b.last, b.def) + 1] -= b.bytes;
  }
  int64_t live = 0;
  for (int i = 0; i < t; ++i) {
    live += delta[i];
    result.peak = std::max(result.peak, live + inner[i]);
  }
  return result;
}

LivenessResult
mlir::summa::plan::detail::peakLiveness(func::FuncOp func,
                                        function_ref<int64_t(Value)> bytesOf) {
  if (func.isExternal())
    return {};
  return blockPeak(func.getBody().front(), bytesOf);
}

//===----------------------------------------------------------------------===//
// The model read from the IR
//===----------------------------------------------------------------------===//

ArgRole mlir::summa::plan::detail::argumentRole(func::FuncOp func,
                                                unsigned index) {
  // The layout summa-assign-layouts gives the argument, where known: the
  // batch is split over depth, parameters are replicated over it.
  if (auto layout = func.getArgAttrOfType<LayoutAttr>(index, kLayoutAttrName))
    return llvm::is_contained(layout.getSplitAxes(), GridAxis::depth)
               ? ArgRole::Activation
               : ArgRole::Parameter;
  if (auto role = func.getArgAttrOfType<StringAttr>(index, kRoleAttrName))
    return role.getValue() == "activation" ? ArgRole::Activation
                                           : ArgRole::Parameter;
  auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[index]);
  if (!type || type.getRank() != 2)
    return ArgRole::Parameter;
  BlockArgument arg = func.getArgument(index);
  bool rhs = llvm::any_of(arg.getUsers(), [&](Operation *user) {
    auto mm = dyn_cast<linalg::MatmulOp>(user);
    return mm && mm.getDpsInputOperand(1)->get() == arg;
  });
  return rhs ? ArgRole::Parameter : ArgRole::Activation;
}

/// 2*m*n*k of a linalg.matmul, whatever its indexing maps (A*B, A*B^T,
/// A^T*B): twice the product of its static loop ranges; 0 if dynamic.
static int64_t matmulFlops(linalg::MatmulOp mm) {
  int64_t flops = 2;
  for (int64_t range : mm.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return 0;
    flops *= range;
  }
  return flops;
}

ModelInfo mlir::summa::plan::detail::describeModel(func::FuncOp func) {
  ModelInfo info;
  info.source = "ir";
  info.entry = func.getSymName().str();
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[i]);
    if (!type)
      continue;
    if (info.elementType.empty() &&
        argumentRole(func, i) == ArgRole::Activation) {
      std::string name;
      llvm::raw_string_ostream os(name);
      os << type.getElementType();
      info.elementType = name;
      info.elementBytes = elementBytes(type.getElementType());
    }
    if (!type.hasStaticShape())
      continue;
    if (argumentRole(func, i) == ArgRole::Activation) {
      if (info.tokens == 0 && type.getRank() >= 2) {
        // The hidden dimension is the one split over col; the others hold
        // tokens ([batch, seq, hidden] as well as [tokens, hidden]).
        int64_t hiddenDim = type.getRank() - 1;
        if (auto layout = func.getArgAttrOfType<LayoutAttr>(i, kLayoutAttrName))
          for (unsigned d = 0; d < layout.getRank(); ++d)
            if (llvm::is_contained(layout.getDimSplit(d), GridAxis::col))
              hiddenDim = d;
        info.hidden = type.getDimSize(hiddenDim);
        info.tokens = type.getNumElements() / info.hidden;
        std::string name;
        llvm::raw_string_ostream os(name);
        os << type.getElementType();
        info.elementType = name;
        info.elementBytes = elementBytes(type.getElementType());
      }
      continue;
    }
    info.parameters += type.getNumElements();
  }
  // Weight matrices: arguments laid out over row and col, or else the rhs
  // of a forward A*W.
  llvm::SmallPtrSet<Value, 16> weights;
  for (BlockArgument arg : func.getArguments())
    if (auto layout = func.getArgAttrOfType<LayoutAttr>(arg.getArgNumber(),
                                                        kLayoutAttrName)) {
      SmallVector<GridAxis> axes = layout.getSplitAxes();
      if (layout.getRank() == 2 && llvm::is_contained(axes, GridAxis::row) &&
          llvm::is_contained(axes, GridAxis::col) &&
          !llvm::is_contained(axes, GridAxis::depth))
        weights.insert(arg);
    }
  if (weights.empty())
    func.walk([&](linalg::MatmulOp mm) {
      Value w = mm.getDpsInputOperand(1)->get();
      if (!mm.hasUserDefinedMaps() && isa<BlockArgument>(w) &&
          cast<BlockArgument>(w).getOwner() == &func.getBody().front())
        weights.insert(w);
    });
  info.weightMatrices = weights.size();
  func.walk([&](Operation *op) {
    if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
      ++info.matmuls;
      info.flops += static_cast<double>(matmulFlops(mm));
    } else if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
      auto groups = expand.getReassociationIndices();
      // [tokens, ...] -> [batch, seq, ...] with seq > 1.
      if (info.batch == 0 && !groups.empty() && groups[0].size() > 1 &&
          expand.getSrcType().getRank() >= 2 &&
          expand.getSrcType().getDimSize(0) == info.tokens &&
          expand.getResultType().getDimSize(groups[0][0]) < info.tokens)
        info.batch = expand.getResultType().getDimSize(groups[0][0]);
    }
  });
  if (info.weightMatrices > 0 && info.weightMatrices % 6 == 0)
    info.layers = info.weightMatrices / 6;
  return info;
}

//===----------------------------------------------------------------------===//
// Counting the partitioned IR
//===----------------------------------------------------------------------===//

namespace {

class Counter {
public:
  Counter(ModuleOp module, GridOp grid, const PlanOptions &options,
          StrategyPlan &out)
      : module(module), grid(grid), options(options), out(out) {}

  LogicalResult countBlock(Block &block, int64_t times, int depth);
  CollectiveTable table;
  std::string error;

private:
  template <typename OpTy>
  void countCollective(OpTy op, StringRef name, Value buffer, int64_t times);
  LogicalResult fail(const Twine &message) {
    if (error.empty())
      error = message.str();
    return failure();
  }

  ModuleOp module;
  GridOp grid;
  const PlanOptions &options;
  StrategyPlan &out;
};

} // namespace

/// The buffer whose size a collective is counted by: reduce_scatter's
/// destination, every other collective's input.
template <typename OpTy>
static Value countedBuffer(OpTy op) {
  return op.getInput();
}
static Value countedBuffer(ReduceScatterOp op) {
  return op.getResult() ? Value(op.getResult()) : Value(op.getOutput());
}

template <typename OpTy>
void Counter::countCollective(OpTy op, StringRef name, Value buffer,
                              int64_t times) {
  SmallVector<int32_t> axes(op.getAxes().begin(), op.getAxes().end());
  int mask = 0;
  for (int32_t a : axes)
    mask |= 1 << a;
  GridOp g = lookupGrid(op, op.getGridAttr());
  int64_t size = g ? g.getGroupSize(axes) : 0;
  table.add(name, mask, groupName(axes), size, times,
            times * staticBytes(buffer.getType()));
}

LogicalResult Counter::countBlock(Block &block, int64_t times, int depth) {
  if (depth > 64)
    return fail("calls nest deeper than 64 levels");
  for (Operation &op : block) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      if (!lb || !ub || !step || *step <= 0)
        return fail("an scf.for without a static trip count encloses "
                    "communication or GEMMs");
      int64_t trips = *ub > *lb ? (*ub - *lb + *step - 1) / *step : 0;
      if (failed(countBlock(*loop.getBody(), times * trips, depth)))
        return failure();
      continue;
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal())
        return fail("a call of @" + call.getCallee().str() +
                    ", which has no body, cannot be counted");
      if (failed(countBlock(callee.getBody().front(), times, depth + 1)))
        return failure();
      continue;
    }
    // A collective's row in the table is named after the op ("broadcast",
    // "reduce", ...).
    bool collective = llvm::TypeSwitch<Operation *, bool>(&op)
                          .Case<BroadcastOp, ReduceOp, AllReduceOp, AllGatherOp,
                                ReduceScatterOp>([&](auto c) {
                            countCollective(c, op.getName().stripDialect(),
                                            countedBuffer(c), times);
                            return true;
                          })
                          .Default([](Operation *) { return false; });
    if (collective)
      continue;
    if (auto mm = dyn_cast<linalg::MatmulOp>(op)) {
      int64_t flops = matmulFlops(mm);
      out.gemmCount += times;
      out.gemmFlops += times * flops;
      auto type = cast<ShapedType>(mm.getDpsInputOperand(0)->get().getType());
      out.gemmSeconds += static_cast<double>(times * flops) /
                         options.gemmRate(elementBytes(type.getElementType()));
      continue;
    }
    if (isa<summa::MatmulOp>(op))
      return fail("a summa.matmul was not expanded");
    if (op.getNumRegions() == 0)
      continue;
    // Other region ops (linalg bodies) must not hide communication or GEMMs.
    bool hidden = false;
    op.walk([&](Operation *n) {
      if (n != &op && !isa<summa::YieldOp>(n) &&
          (isa<SummaDialect>(n->getDialect()) ||
           isa<linalg::MatmulOp, func::CallOp>(n)))
        hidden = true;
    });
    if (hidden)
      return fail("'" + op.getName().getStringRef().str() +
                  "' encloses communication or GEMMs that cannot "
                  "be counted statically");
  }
  return success();
}

static func::FuncOp findEntry(ModuleOp module, StringRef name,
                              std::string &error) {
  SmallVector<func::FuncOp> selected = selectFunctions(module, name);
  if (selected.size() == 1)
    return selected.front();
  if (selected.size() > 1)
    error = "more than one public function; choose one with --entry";
  else
    error = name.empty() ? std::string("no public function to plan")
                         : "no function named @" + name.str();
  return {};
}

static StrategyPlan planGridOnce(ModuleOp module, StringRef entryName,
                                 ArrayRef<int64_t> grid,
                                 const PlanOptions &options, bool reuse) {
  StrategyPlan s;
  s.kind = StrategyKind::Grid;
  s.grid.assign(grid.begin(), grid.end());
  s.name = gridName(grid);
  s.counted = true;
  MLIRContext *context = module.getContext();
  OwningOpRef<ModuleOp> clone = module.clone();
  std::string firstError;
  {
    ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
        firstError = diag.str(); // the message, without notes
      return success();
    });
    // The same passes as summa-compile and buildSummaPipeline before
    // bufferization.
    PassManager pm(context);
    SummaAssignLayoutsOptions assign;
    assign.grid.assign(grid.begin(), grid.end());
    buildAssignLayoutsPipeline(pm, assign);
    buildPartitionPipeline(pm, reuse ? options.panelReuseBudget : std::nullopt);
    if (failed(pm.run(*clone))) {
      s.infeasibleReason =
          firstError.empty() ? "the partitioning passes failed" : firstError;
      return s;
    }
  }
  auto func = clone->lookupSymbol<func::FuncOp>(entryName);
  auto gridOp = clone->lookupSymbol<GridOp>("grid");
  if (!func || !gridOp) {
    s.infeasibleReason = "the partitioned module has no @" + entryName.str() +
                         " or no summa.grid @grid";
    return s;
  }
  Counter counter(*clone, gridOp, options, s);
  if (failed(counter.countBlock(func.getBody().front(), 1, 0))) {
    s.infeasibleReason = counter.error;
    return s;
  }
  s.collectives = counter.table.take();
  s.feasible = true;

  // Memory: tiles of the arguments and results, then the liveness walk.
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    int64_t bytes = staticBytes(func.getArgumentTypes()[i]);
    // Activations are split over depth; parameters are replicated over it.
    bool activation = argumentRole(func, i) == ArgRole::Activation;
    if (auto layout = func.getArgAttrOfType<LayoutAttr>(i, kLayoutAttrName))
      activation = llvm::is_contained(layout.getSplitAxes(), GridAxis::depth);
    (activation ? s.memory.activationBytes : s.memory.parameterBytes) += bytes;
  }
  for (Type t : func.getResultTypes())
    s.memory.resultBytes += staticBytes(t);
  LivenessResult live =
      peakLiveness(func, [](Value v) { return staticBytes(v.getType()); });
  s.memory.peakIntermediateBytes = live.peak;
  s.memory.panelBytes = live.panels;

  int64_t q = grid[0], d = grid[2];
  finishStrategy(s, options, [&](const CollectiveStat &c) {
    return isIntraNode(q, d, c.axesMask, options.gpusPerNode);
  });
  return s;
}

/// One grid; with a panel-reuse budget, planned with and without reuse.
static StrategyPlan planGrid(ModuleOp module, StringRef entryName,
                             ArrayRef<int64_t> grid,
                             const PlanOptions &options) {
  if (!options.panelReuseBudget)
    return planGridOnce(module, entryName, grid, options, /*reuse=*/false);
  StrategyPlan without =
      planGridOnce(module, entryName, grid, options, /*reuse=*/false);
  StrategyPlan with =
      planGridOnce(module, entryName, grid, options, /*reuse=*/true);
  if (with.feasible && without.feasible)
    with.withoutReuse = StrategyPlan::WithoutReuse{
        without.payloadBytes(), without.broadcastBytes(),
        without.memory.total(), without.seconds()};
  return with;
}

/// Gives the entry's arguments the `summa.layout` that summa-normalize and
/// summa-assign-layouts choose on [1, 1, 1] (the same axes on every grid),
/// so that the model's description and the 1D and data-parallel strategies
/// know which argument carries tokens whatever the exporter wrote. Nothing
/// happens where the passes fail (the grid rows say why).
static SmallVector<unsigned> annotateArgumentLayouts(ModuleOp module,
                                                     func::FuncOp entry) {
  SmallVector<unsigned> annotated;
  MLIRContext *context = module.getContext();
  OwningOpRef<ModuleOp> clone = module.clone();
  ScopedDiagnosticHandler quiet(context,
                                [](Diagnostic &) { return success(); });
  PassManager pm(context);
  SummaAssignLayoutsOptions assign;
  assign.grid = {1, 1, 1};
  assign.gridName = "__summa_plan_roles";
  buildAssignLayoutsPipeline(pm, assign);
  if (failed(pm.run(*clone)))
    return annotated;
  auto laid = clone->lookupSymbol<func::FuncOp>(entry.getSymName());
  if (!laid)
    return annotated;
  for (unsigned i = 0; i < entry.getNumArguments(); ++i)
    if (auto layout = laid.getArgAttrOfType<LayoutAttr>(i, kLayoutAttrName))
      if (!entry.getArgAttr(i, kLayoutAttrName)) {
        entry.setArgAttr(i, kLayoutAttrName, layout);
        annotated.push_back(i);
      }
  return annotated;
}

FailureOr<Plan> plan::planModule(ModuleOp module, const PlanOptions &options) {
  if (options.ranks <= 0)
    return module.emitError()
           << "the number of ranks must be positive, got " << options.ranks;
  if (options.grid) {
    ArrayRef<int64_t> g = *options.grid;
    if (!isGridShape(g))
      return module.emitError()
             << "the grid must be q,q,d with q >= 1 and d >= 1, got "
             << gridName(g);
    if (g[0] * g[1] * g[2] != options.ranks)
      return module.emitError()
             << "grid " << gridName(g) << " has " << g[0] * g[1] * g[2]
             << " ranks, not " << options.ranks;
  }
  std::string error;
  func::FuncOp entry = findEntry(module, options.entry, error);
  if (!entry)
    return module.emitError() << error;

  // The layouts are the planner's view only: the module is left as given.
  SmallVector<unsigned> annotated = annotateArgumentLayouts(module, entry);
  auto removeAnnotations = [&] {
    for (unsigned i : annotated)
      entry.removeArgAttr(i, kLayoutAttrName);
  };
  llvm::scope_exit<decltype(removeAnnotations)> restore(removeAnnotations);
  Plan plan;
  plan.ranks = options.ranks;
  plan.model = describeModel(entry);
  SmallVector<SmallVector<int64_t, 3>> grids;
  if (options.grid)
    grids.push_back(*options.grid);
  else
    grids = enumerateGrids(options.ranks);
  for (ArrayRef<int64_t> grid : grids)
    plan.strategies.push_back(
        planGrid(module, entry.getSymName(), grid, options));
  plan.strategies.push_back(
      planSplit(entry, StrategyKind::Megatron1D, options.ranks, options));
  plan.strategies.push_back(
      planSplit(entry, StrategyKind::DataParallel, options.ranks, options));
  chooseBest(plan);
  return plan;
}
