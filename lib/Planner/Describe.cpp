//===- Describe.cpp - closed-form plan of a described GPT -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// planDescribed: the plan of a GPT model given by its dimensions, without
// IR. The formulas are those the IR planner counts on what
// examples/generate.py emits (test/Plan/describe-agrees.mlir checks that
// they agree on examples/gpt_layer.mlir and examples/gpt.mlir):
//
//   T = batch * seq tokens, h hidden, f ffn, NH heads, e bytes per element;
//   per layer six linears (K, N): Q, K, V, O (h, h), W1 (h, f), W2 (f, h);
//   two LayerNorms per layer, one more at the end.
//
// Grid [q, q, d] (feasible iff batch % (d*q) == 0, h % q == 0,
// NH % q == 0, f % q == 0); for q > 1, per linear:
//   broadcast col: q calls, q * (T/(d*q)) * (K/q) * e bytes (not for K and
//                  V, which share Q's SUMMA loop and activation panels)
//   broadcast row: q calls, q * (K/q) * (N/q) * e bytes
//   GEMMs: q, flops q * 2 * (T/(d*q)) * (N/q) * (K/q)
// and per LayerNorm two all_reduce col of (T/(d*q)) * e bytes. For q = 1,
// one GEMM of 2 * (T/d) * N * K per linear and no communication.
//
// Memory: the tiles of the arguments and the result as the IR planner
// counts them, and the peak of intermediates from the same liveness walk,
// replayed on the op sequence of the generated layers (class Tape).
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "summa/Dialect/Summa/IR/SummaDialect.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <functional>

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

FailureOr<GptDescription> plan::parseDescription(StringRef spec,
                                                 std::string &error) {
  GptDescription model;
  bool ffnGiven = false;
  SmallVector<StringRef> items;
  spec.split(items, ',', -1, /*KeepEmpty=*/false);
  if (items.empty()) {
    error = "empty model description; expected "
            "layers=L,hidden=H,heads=NH,seq=S,batch=B[,ffn=F][,dtype=T]"
            "[,final_ln=0|1]";
    return failure();
  }
  for (StringRef item : items) {
    auto [key, value] = item.split('=');
    key = key.trim();
    value = value.trim();
    if (!item.contains('=') || value.empty()) {
      error = ("malformed item '" + item + "' (expected key=value)").str();
      return failure();
    }
    if (key == "dtype") {
      if (value != "bf16" && value != "f16" && value != "f32" &&
          value != "f64") {
        error =
            ("dtype must be bf16, f16, f32 or f64, got '" + value + "'").str();
        return failure();
      }
      model.dtype = value.str();
      continue;
    }
    int64_t number;
    if (value.getAsInteger(10, number)) {
      error = ("the value of '" + key + "' is not an integer: '" + value + "'")
                  .str();
      return failure();
    }
    if (key == "final_ln") {
      if (number != 0 && number != 1) {
        error = "final_ln must be 0 or 1";
        return failure();
      }
      model.finalLayerNorm = number == 1;
      continue;
    }
    int64_t *slot = llvm::StringSwitch<int64_t *>(key)
                        .Case("layers", &model.layers)
                        .Case("hidden", &model.hidden)
                        .Case("heads", &model.heads)
                        .Case("seq", &model.seq)
                        .Case("batch", &model.batch)
                        .Case("ffn", &model.ffn)
                        .Default(nullptr);
    if (!slot) {
      error = ("unknown key '" + key +
               "' (expected layers, hidden, heads, seq, batch, ffn, dtype, "
               "final_ln)")
                  .str();
      return failure();
    }
    if (number <= 0) {
      error = ("'" + key + "' must be positive, got " + value).str();
      return failure();
    }
    *slot = number;
    ffnGiven |= key == "ffn";
  }
  for (auto [name, value] :
       {std::pair<const char *, int64_t>{"layers", model.layers},
        {"hidden", model.hidden},
        {"heads", model.heads},
        {"seq", model.seq},
        {"batch", model.batch}})
    if (value == 0) {
      error = std::string("the description has no '") + name + "'";
      return failure();
    }
  if (!ffnGiven)
    model.ffn = 4 * model.hidden;
  if (model.hidden % model.heads != 0) {
    error = "hidden (" + std::to_string(model.hidden) +
            ") is not a multiple of heads (" + std::to_string(model.heads) +
            ")";
    return failure();
  }
  return model;
}

namespace {

/// One linear of a layer. `sharesLhs`: it is K or V, whose SUMMA loop is
/// Q's (summa-expand-matmul gives products that broadcast the same operand
/// one loop), so its activation panels are not broadcast again.
struct Linear {
  int64_t k, n;
  bool sharesLhs = false;
};

/// Local sizes (elements) of the values of a generated GPT layer under one
/// strategy.
struct Sizes {
  int64_t e = 0;       // bytes per element
  int64_t rows = 0;    // local tokens
  int64_t hc = 0;      // local columns of a [T, h] activation (LN, residual)
  int64_t ac = 0;      // local columns of Q, K, V and the attention context
  int64_t fc = 0;      // local columns of the [T, f] MLP activation
  int64_t scores = 0;  // local attention scores [b, nh, s, s]
  int64_t probs = 0;   // local softmax statistics [b, nh, s]
  int64_t headDim = 0; // elements of a head (never split)
  int64_t seq = 0;     // tokens of a sequence (never split)
  /// Local columns of the results of O and W2 (hc, or the whole hidden
  /// size when a row-parallel linear leaves them replicated).
  int64_t oc = 0;
  /// Panel bytes live during one SUMMA step of a linear (0: no loop).
  std::function<int64_t(Linear)> panels;
};

/// The buffers of a generated model in program order, as Planner.cpp's
/// liveness walk sees the partitioned IR: each step defines one buffer and
/// reads earlier ones (-1: an argument). Ops that alias an earlier buffer
/// (linalg.fill into its tensor.empty, the SUMMA loop into its fill,
/// reshapes, in-place all-reduces) define nothing.
class Tape {
public:
  explicit Tape(const Sizes &z) : z(z) {}

  /// What a step's ops do, for the local terms (LocalWorkOpInterface): an
  /// elementwise op reads its inputs and `argElems` elements of arguments
  /// (a bias, a LayerNorm's scale and shift) and writes its result; a
  /// reduction is the fill of its accumulator and a loop nest of
  /// `iterations` that also reads it; a GEMM is its accumulator's fill; a
  /// contraction (attention's products) its fill and a local GEMM of
  /// 2 * `iterations` flops.
  enum class Kind { Map, Reduce, Gemm, Contract };

  int add(int64_t elems, std::initializer_list<int> reads,
          int64_t transient = 0, Kind kind = Kind::Map, int64_t argElems = 0,
          int64_t iterations = 0) {
    int64_t bytes = elems * z.e;
    for (int r : reads)
      bytes += r >= 0 ? steps[r].bytes : z.rows * z.hc * z.e;
    bytes += argElems * z.e;
    steps.push_back({elems * z.e, SmallVector<int, 4>(reads), transient});
    if (kind != Kind::Map) // the accumulator's fill
      work.push_back(loopNest(elems * z.e, 0));
    if (kind == Kind::Map)
      work.push_back(loopNest(bytes, 0));
    else if (kind == Kind::Reduce)
      work.push_back(loopNest(bytes + elems * z.e, iterations));
    else if (kind == Kind::Contract)
      work.push_back(localGemm(2 * iterations));
    return steps.size() - 1;
  }

  int layerNorm(int x) {
    int sum = add(z.rows, {x}, 0, Kind::Reduce, 0, z.rows * z.hc);
    int mean = add(z.rows, {sum});
    int c = add(z.rows * z.hc, {x, mean});
    int var = add(z.rows, {c}, 0, Kind::Reduce, 0, z.rows * z.hc);
    int rstd = add(z.rows, {var});
    return add(z.rows * z.hc, {c, rstd}, 0, Kind::Map, 2 * z.hc);
  }

  int linear(int x, Linear l, int64_t cols) {
    int mm = add(z.rows * cols, {x}, z.panels(l), Kind::Gemm);
    return add(z.rows * cols, {mm}, 0, Kind::Map, cols); // bias add
  }

  int layer(int x, int64_t h, int64_t f) {
    int ln1 = layerNorm(x);
    // Q, K and V share one SUMMA loop: their three accumulators come first,
    // then the loop (one activation panel and one weight panel live at a
    // time), then the three bias adds.
    int mq = add(z.rows * z.ac, {ln1}, 0, Kind::Gemm);
    int mk = add(z.rows * z.ac, {ln1}, 0, Kind::Gemm);
    int mv = add(z.rows * z.ac, {ln1}, z.panels({h, h}), Kind::Gemm);
    int q = add(z.rows * z.ac, {mq}, 0, Kind::Map, z.ac);
    int k = add(z.rows * z.ac, {mk}, 0, Kind::Map, z.ac);
    int v = add(z.rows * z.ac, {mv}, 0, Kind::Map, z.ac);
    int scores =
        add(z.scores, {q, k}, 0, Kind::Contract, 0, z.scores * z.headDim);
    int masked = add(z.scores, {scores});
    int mx = add(z.probs, {masked}, 0, Kind::Reduce, 0, z.scores);
    int ex = add(z.scores, {masked, mx});
    int sum = add(z.probs, {ex}, 0, Kind::Reduce, 0, z.scores);
    int probs = add(z.scores, {ex, sum});
    int ctx = add(z.rows * z.ac, {probs, v}, 0, Kind::Contract, 0,
                  z.rows * z.ac * z.seq);
    int o = linear(ctx, {h, h}, z.oc);
    int res1 = add(z.rows * z.hc, {x, o});
    int ln2 = layerNorm(res1);
    int up = linear(ln2, {h, f}, z.fc);
    int gelu = add(z.rows * z.fc, {up});
    int down = linear(gelu, {f, h}, z.oc);
    return add(z.rows * z.hc, {res1, down});
  }

  /// Peak bytes live at once; the buffer of step `returned` belongs to the
  /// caller.
  int64_t peak(int returned) const {
    size_t n = steps.size();
    SmallVector<int> last(n);
    for (size_t i = 0; i < n; ++i) {
      last[i] = i;
      for (int r : steps[i].reads)
        if (r >= 0)
          last[r] = std::max(last[r], static_cast<int>(i));
    }
    SmallVector<int64_t> delta(n + 1, 0);
    for (size_t i = 0; i < n; ++i) {
      if (static_cast<int>(i) == returned)
        continue;
      delta[i] += steps[i].bytes;
      delta[last[i] + 1] -= steps[i].bytes;
    }
    int64_t live = 0, best = 0;
    for (size_t i = 0; i < n; ++i) {
      live += delta[i];
      best = std::max(best, live + steps[i].transient);
    }
    return best;
  }

private:
  struct Step {
    int64_t bytes;
    SmallVector<int, 4> reads;
    int64_t transient;
  };
  static LocalWork loopNest(int64_t bytes, int64_t iterations) {
    LocalWork w;
    w.bytes = bytes;
    w.iterations = iterations;
    return w;
  }
  static LocalWork localGemm(int64_t flops) {
    LocalWork w;
    w.gemmFlops = flops;
    return w;
  }

  const Sizes &z;
  SmallVector<Step> steps;

public:
  /// The local work of the steps so far, op by op.
  SmallVector<LocalWork> work;
};

} // namespace

/// The peak of intermediate bytes and the local traffic of `layers`
/// generated GPT layers and an optional final LayerNorm; sets the
/// strategy's memory and local bytes.
static void replayModel(StrategyPlan &st, const Sizes &z, int64_t layers,
                        bool finalLN, int64_t h, int64_t f,
                        const PlanOptions &options) {
  Tape tape(z);
  int x = -1;
  for (int64_t l = 0; l < layers; ++l)
    x = tape.layer(x, h, f);
  if (finalLN)
    x = tape.layerNorm(x);
  st.memory.peakIntermediateBytes = tape.peak(x);
  for (const LocalWork &w : tape.work)
    addLocalWork(st, w, 1, z.e, options);
}

namespace {
/// The sizes of a described GPT that every strategy's model reads.
struct GptSizes {
  int64_t e, L, h, f, nh, s, b, T, P;
  /// LayerNorms: two per layer and the final one.
  int64_t lns;
  Linear linears[6];
  int64_t matrixElems, biasElems;
  bool finalLayerNorm;
  const PlanOptions &options;

  GptSizes(const GptDescription &model, const PlanOptions &options)
      : e(model.dtype == "f64"   ? 8
          : model.dtype == "f32" ? 4
                                 : 2),
        L(model.layers), h(model.hidden), f(model.ffn), nh(model.heads),
        s(model.seq), b(model.batch), T(b * s), P(options.ranks),
        lns(2 * L + (model.finalLayerNorm ? 1 : 0)),
        linears{{h, h, false}, {h, h, true},  {h, h, true},
                {h, h, false}, {h, f, false}, {f, h, false}},
        matrixElems(4 * h * h + 2 * h * f), biasElems(9 * h + f),
        finalLayerNorm(model.finalLayerNorm), options(options) {}

  /// Seconds of the strategy's GEMMs.
  double gemmSeconds(const StrategyPlan &st) const {
    return options.gemmSeconds(st.gemmCount, static_cast<double>(st.gemmFlops),
                               e);
  }
};

/// Marks `st` infeasible, unless it already is, when `size` (the model's
/// `what`) is not divisible by `by`; `where` ends the reason (" on grid ...").
void requireDivisible(StrategyPlan &st, const char *what, int64_t size,
                      int64_t by, StringRef where = "") {
  if (!st.infeasibleReason.empty() || size % by == 0)
    return;
  st.infeasibleReason = (Twine(what) + " " + Twine(size) +
                         " is not divisible by " + Twine(by) + where)
                            .str();
}

/// 2.5D SUMMA on `grid`.
StrategyPlan planGrid(const GptSizes &g, ArrayRef<int64_t> grid,
                      const PlanOptions &options) {
  const int64_t e = g.e, L = g.L, h = g.h, f = g.f, nh = g.nh, s = g.s, b = g.b,
                T = g.T, lns = g.lns;
  ArrayRef<Linear> linears(g.linears);
  StrategyPlan st;
  st.kind = StrategyKind::Grid;
  st.grid.assign(grid.begin(), grid.end());
  st.name = gridName(grid);
  st.counted = false;
  int64_t q = grid[0], d = grid[2];
  // The closed formulas describe the grids that divide the model evenly;
  // summa-plan on the IR also counts the others (padded blocks, and splits
  // cut back where a reshape merges an uneven dimension).
  std::string where =
      " on grid " + st.name +
      " (not modelled by --describe; summa-plan on the IR counts it)";
  requireDivisible(st, "batch", b, d * q, where);
  requireDivisible(st, "hidden", h, q, where);
  requireDivisible(st, "heads", nh, q, where);
  requireDivisible(st, "ffn", f, q, where);
  if (!st.infeasibleReason.empty())
    return st;
  st.feasible = true;
  int64_t rows = T / (d * q);
  CollectiveTable table;
  for (Linear l : linears) {
    if (q > 1 && !l.sharesLhs)
      table.add("broadcast", 2, "col", q, L * q, L * q * rows * (l.k / q) * e);
    if (q > 1)
      table.add("broadcast", 1, "row", q, L * q,
                L * q * (l.k / q) * (l.n / q) * e);
    st.gemmCount += L * q;
    st.gemmFlops += L * q * 2 * rows * (l.n / q) * (l.k / q);
  }
  if (q > 1)
    table.add("all_reduce", 2, "col", q, 2 * lns, 2 * lns * rows * e);
  st.collectives = table.take();
  st.gemmSeconds = g.gemmSeconds(st);
  st.memory.parameterBytes = (L * (g.matrixElems / (q * q) + g.biasElems / q) +
                              (g.finalLayerNorm ? 2 * h / q : 0)) *
                             e;
  st.memory.activationBytes = st.memory.resultBytes = rows * (h / q) * e;
  Sizes z;
  z.e = e;
  z.rows = rows;
  z.hc = z.ac = z.oc = h / q;
  z.fc = f / q;
  z.scores = (b / (d * q)) * (nh / q) * s * s;
  z.probs = (b / (d * q)) * (nh / q) * s;
  z.headDim = h / nh;
  z.seq = s;
  z.panels = [&](Linear l) -> int64_t {
    return q > 1 ? (rows * (l.k / q) + (l.k / q) * (l.n / q)) * e : 0;
  };
  replayModel(st, z, L, g.finalLayerNorm, h, f, options);
  for (Linear l : linears)
    st.memory.panelBytes = std::max(st.memory.panelBytes, z.panels(l));
  finishStrategy(st, options, [&](const CollectiveStat &c) {
    return isIntraNode(q, d, c.axesMask, options.gpusPerNode);
  });
  return st;
}

/// The GEMMs of a strategy that splits every product's M or N over all
/// ranks (1D and data parallelism): one per linear per layer, each 1/P of
/// the whole.
void countSplitGemms(StrategyPlan &st, const GptSizes &g) {
  for (Linear l : g.linears) {
    st.gemmCount += g.L;
    st.gemmFlops += g.L * (2 * g.T * l.n * l.k / g.P);
  }
  st.gemmSeconds = g.gemmSeconds(st);
}

/// Why a 1D or DP row is left out where the ranks do not divide a
/// dimension: the closed formulas describe an even split; summa-plan on the
/// IR pads the others, as summa does.
constexpr const char *kPaddedRow = " (not modelled by --describe; summa-plan "
                                   "on the IR counts it in padded blocks)";

/// 1D tensor parallelism (Megatron) over all ranks.
StrategyPlan planMegatron1D(const GptSizes &g, const PlanOptions &options) {
  const int64_t e = g.e, L = g.L, h = g.h, f = g.f, nh = g.nh, s = g.s, b = g.b,
                T = g.T, P = g.P, matrixElems = g.matrixElems;
  StrategyPlan st;
  st.kind = StrategyKind::Megatron1D;
  st.name = "1D";
  requireDivisible(st, "hidden", h, P, kPaddedRow);
  requireDivisible(st, "heads", nh, P, kPaddedRow);
  requireDivisible(st, "ffn", f, P, kPaddedRow);
  if (st.infeasibleReason.empty()) {
    st.feasible = true;
    CollectiveTable table;
    table.add("all_reduce", 0, "world", P, 2 * L, 2 * L * T * h * e);
    st.collectives = table.take();
    countSplitGemms(st, g);
    st.memory.parameterBytes =
        (L * (matrixElems / P + (3 * h + f) / P + 6 * h) +
         (g.finalLayerNorm ? 2 * h : 0)) *
        e;
    st.memory.activationBytes = st.memory.resultBytes = T * h * e;
    Sizes z;
    z.e = e;
    z.rows = T;
    z.hc = z.oc = h;
    z.ac = h / P;
    z.fc = f / P;
    z.scores = b * (nh / P) * s * s;
    z.probs = b * (nh / P) * s;
    z.headDim = h / nh;
    z.seq = s;
    z.panels = [](Linear) -> int64_t { return 0; };
    replayModel(st, z, L, g.finalLayerNorm, h, f, options);
    finishStrategy(st, options, [&](const CollectiveStat &) {
      return options.gpusPerNode > 0 && P <= options.gpusPerNode;
    });
  }
  return st;
}

/// Pure data parallelism over all ranks.
StrategyPlan planDataParallel(const GptSizes &g, const PlanOptions &options,
                              int64_t parameters) {
  const int64_t e = g.e, h = g.h, f = g.f, nh = g.nh, s = g.s, b = g.b, T = g.T,
                P = g.P;
  StrategyPlan st;
  st.kind = StrategyKind::DataParallel;
  st.name = "DP";
  requireDivisible(st, "batch", b, P, kPaddedRow);
  if (st.infeasibleReason.empty()) {
    st.feasible = true;
    countSplitGemms(st, g);
    st.memory.parameterBytes = parameters * e;
    st.memory.activationBytes = st.memory.resultBytes = (T / P) * h * e;
    Sizes z;
    z.e = e;
    z.rows = T / P;
    z.hc = z.ac = z.oc = h;
    z.fc = f;
    z.scores = (b / P) * nh * s * s;
    z.probs = (b / P) * nh * s;
    z.headDim = h / nh;
    z.seq = s;
    z.panels = [](Linear) -> int64_t { return 0; };
    replayModel(st, z, g.L, g.finalLayerNorm, h, f, options);
    finishStrategy(st, options, [&](const CollectiveStat &) { return true; });
  }
  return st;
}

} // namespace

FailureOr<Plan> plan::planDescribed(const GptDescription &model,
                                    const PlanOptions &options,
                                    std::string &error) {
  if (options.ranks <= 0) {
    error = "the number of ranks must be positive, got " +
            std::to_string(options.ranks);
    return failure();
  }
  GptSizes g(model, options);
  Plan plan;
  plan.ranks = g.P;
  ModelInfo &info = plan.model;
  info.source = "described";
  info.entry = "gpt";
  info.elementType = model.dtype;
  info.elementBytes = g.e;
  info.tokens = g.T;
  info.hidden = g.h;
  info.batch = g.b;
  info.seq = g.s;
  info.matmuls = 6 * g.L;
  info.weightMatrices = 6 * g.L;
  info.layers = g.L;
  info.layersFrom = "described";
  info.parameters = g.L * (g.matrixElems + g.biasElems) +
                    (model.finalLayerNorm ? 2 * g.h : 0);
  info.flops = 2.0 * g.L * g.T * static_cast<double>(g.matrixElems);

  SmallVector<SmallVector<int64_t, 3>> grids;
  if (options.grid) {
    ArrayRef<int64_t> grid = *options.grid;
    if (!isGridShape(grid) || grid[0] * grid[1] * grid[2] != g.P) {
      error = "the grid must be q,q,d with q*q*d = " + std::to_string(g.P) +
              ", got " + gridName(grid);
      return failure();
    }
    grids.push_back(*options.grid);
  } else {
    grids = enumerateGrids(g.P);
  }
  for (ArrayRef<int64_t> grid : grids)
    plan.strategies.push_back(planGrid(g, grid, options));
  plan.strategies.push_back(planMegatron1D(g, options));
  plan.strategies.push_back(planDataParallel(g, options, info.parameters));
  chooseBest(plan);
  return plan;
}
