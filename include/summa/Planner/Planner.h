//===- Planner.h - grid planner and cost model ------------------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The planner behind summa-plan (DESIGN.md §4). For a model and a number of
// ranks P it considers every grid [q, q, d] with q*q*d = P, plus 1D Megatron
// tensor parallelism and pure data parallelism, and predicts per rank and
// per call of the entry function:
//
//  * the collectives, keyed as the runtime's SUMMA_PROFILE keys them (op
//    name, group = the spanned axes), with their count and payload bytes.
//    For grids these are COUNTED on the partitioned IR that summa-compile
//    builds (summa-assign-layouts, summa-partition, summa-expand-matmul,
//    canonicalize), with the runtime's rules, so they equal the runtime's
//    counters exactly;
//  * the local GEMMs (count, 2*m*n*k flops);
//  * memory per rank: parameter tiles, activation tiles (inputs and
//    results), and the peak of the intermediate tiles and SUMMA panels live
//    at once in a simple liveness walk;
//  * time, with an alpha-beta model per link class (NVLink inside a node, a
//    network across nodes), a GEMM rate and a memory rate for the local
//    loop nests (the bytes every other linalg op reads and writes).
//
// docs/Planner.md describes every formula and what is not modelled.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_PLANNER_PLANNER_H
#define SUMMA_PLANNER_PLANNER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::summa::plan {

/// One class of link: latency (seconds per message step) and bandwidth
/// (bytes per second, one direction).
struct LinkParams {
  double alpha;
  double bytesPerSecond;
};

/// A machine measured by `summa-plan --calibrate` (summa-calibrate under
/// mpiexec), read from its machine file (docs/Planner.md, "Calibration").
/// Rates are per rank with `ranks` ranks busy at once, as the compiled
/// programs run.
struct Machine {
  /// The file it was read from, and what it says of itself.
  std::string path, host, created;
  /// Hardware threads of the machine (0: unknown): more ranks than cores
  /// share them.
  int64_t cores = 0;
  /// Ranks that share a node (0: unknown).
  int64_t ranksPerNode = 0;
  /// What computed the local products when it was calibrated
  /// (summaRtKernelInfo: the BLAS, its kernel set and the CPU), or empty.
  std::string kernels;
  /// GEMMs: time = overhead + flops / rate, per call.
  struct Gemm {
    int64_t ranks = 0;
    std::string dtype;
    double flopsPerSecond = 0, overheadSeconds = 0;
    /// Bytes of operands and result per second of GEMMs of a few rows (a
    /// decode step's products: bound by reading the weights, as the
    /// library packs and streams them); 0: not measured (the local loop
    /// nests' streaming rate stands in).
    double bytesPerSecond = 0;
    /// What the fit was made from (m, n, k, seconds per call); a record,
    /// not needed by the planner.
    struct Sample {
      int64_t m = 0, n = 0, k = 0;
      double seconds = 0;
    };
    std::vector<Sample> samples;
  };
  /// Local loop nests: bytes read and written per second on one rank while
  /// `ranks` ranks run (a compiled elementwise loop nest where measured,
  /// else a plain loop); the plain loop's rate with every rank busy and on
  /// one rank alone.
  struct Local {
    int64_t ranks = 0;
    double bytesPerSecond = 0, streamBytesPerSecond = 0,
           oneRankBytesPerSecond = 0;
    /// Iterations per second of a compiled loop nest whose operands fit in
    /// the caches (0: not measured; loops are then bound by memory only).
    double iterationsPerSecond = 0;
    /// Iterations per second of a compiled loop nest whose innermost loop
    /// strides through an operand larger than `cacheBytes` (a cache miss
    /// an iteration; 0: not measured).
    double stridedIterationsPerSecond = 0;
    /// Bytes per second of a compiled elementwise loop nest that moves at
    /// most `cacheBytes` (it stays in the caches; 0: not measured).
    double cacheBytesPerSecond = 0;
    int64_t cacheBytes = 0;
  };
  /// A collective over `groupSize` ranks, every group of that size at once
  /// in a world of `ranks` ranks: time = alpha + payload / rate, per call,
  /// in the runtime's payload bytes.
  struct Collective {
    std::string op;
    int64_t ranks = 0, groupSize = 0;
    double alpha = 0, bytesPerSecond = 0;
    /// The latency fitted to calls in lockstep (a record; `alpha` is the
    /// latency inside a program where measured, else this).
    double lockstepAlpha = 0;
    /// (payload bytes, seconds per call) the fit was made from.
    std::vector<std::pair<int64_t, double>> samples;
  };
  std::vector<Gemm> gemm;
  std::vector<Local> local;
  std::vector<Collective> collectives;

  /// The GEMM entry for elements of `elementBytes` bytes (its dtype, else
  /// f32) measured with the most ranks up to `ranks` (else the fewest), and
  /// the factor its rate is scaled by when `ranks` ranks share fewer cores.
  std::pair<const Gemm *, double> gemmFor(int64_t elementBytes,
                                          int64_t ranks) const;
  std::pair<const Local *, double> localFor(int64_t ranks) const;
  /// Seconds of `count` calls of `op` moving `bytes` payload bytes in all
  /// over `groupSize` ranks while `ranks` ranks run: among the entries
  /// measured with the most ranks up to `ranks` (else the fewest), the one
  /// of that group size, else the nearest one's link scaled by the
  /// algorithm (docs/Planner.md); nullopt if `op` was not measured.
  std::optional<double> collectiveSeconds(StringRef op, int64_t groupSize,
                                          int64_t count, int64_t bytes,
                                          int64_t ranks) const;
};

/// Reads a machine file; fails with `error` naming the file and what is
/// wrong with it.
FailureOr<Machine> readMachineFile(StringRef path, std::string &error);

struct PlanOptions {
  /// The number of ranks P (> 0).
  int64_t ranks = 0;
  /// Plan this grid only (still with the 1D and data-parallel rows).
  std::optional<SmallVector<int64_t, 3>> grid;
  /// The function to plan; empty: the only public function.
  std::string entry;

  /// World rank r lives on node r / gpusPerNode.
  int64_t gpusPerNode = 8;
  /// NVLink 4 on H200 (450 GB/s per direction).
  LinkParams nvlink{2e-6, 450e9};
  /// 400 Gb/s InfiniBand per GPU.
  LinkParams network{5e-6, 50e9};

  /// Dense GEMM peak per element type (H200), scaled by gemmEfficiency.
  double peakFlops16 = 989e12; // bf16 / f16 tensor cores
  double peakFlops32 = 67e12;  // f32 (no TF32)
  double peakFlops64 = 67e12;  // f64 tensor cores
  /// If set, the peak for every element type.
  std::optional<double> peakFlopsOverride;
  double gemmEfficiency = 0.7;
  /// Bytes per second one rank's local loop nests (every linalg op but the
  /// GEMMs: elementwise ops, reductions, gathers) read and write: H200's
  /// HBM3e, 4.8 TB/s, at 0.7.
  double localBytesPerSecond = 4.8e12 * 0.7;
  /// Iterations per second of a local loop nest (0: no bound; a GPU runs
  /// them in parallel, bound by memory).
  double loopIterationsPerSecond = 0;
  /// A calibrated machine: its GEMM, local and collective rates replace the
  /// defaults above (and the link classes) where it has them.
  std::shared_ptr<const Machine> machine;

  /// Memory per rank (H200: 141 GB); a strategy that needs more is marked
  /// as not fitting and is not picked while one that fits exists. 0: no
  /// limit.
  double memoryCapacityBytes = 141e9;
  /// If set, grids are planned with summa-reuse-panels under this many
  /// bytes per rank of kept panels (-1: no bound), and each also without
  /// it, so that both choices are reported.
  std::optional<int64_t> panelReuseBudget;
  /// Grids are planned with the optimizer state split over depth
  /// (summa-shard-optimizer-state, as summa-compile --zero): the state's
  /// memory per rank / d, the gradients' depth sums reduce-scattered and
  /// the weights all-gathered over depth.
  bool shardOptimizerState = false;

  /// The GEMM rate (flops per second) for elements of `bytes` bytes.
  double gemmRate(int64_t elementBytes) const;
  /// Seconds of `calls` GEMMs of `flops` flops in all, reading and writing
  /// `bytes` (0: not known): with a machine file the slower of the flops at
  /// its GEMM rate and the bytes at its memory rate (a product of a few
  /// rows, as a decode step's, is bound by the weights' bytes); with the
  /// defaults the flops alone.
  double gemmSeconds(int64_t calls, double flops, int64_t elementBytes,
                     double bytes = 0) const;
  /// Seconds of a local loop nest that reads and writes `bytes` bytes in
  /// `iterations` iterations, its innermost loop striding through
  /// `stridedBytes` of an operand: the slower of the memory (the caches'
  /// rate for a loop nest that fits in them, where calibrated) and the
  /// iterations (at the strided rate where the operand exceeds the cache).
  double localSeconds(double bytes, double iterations,
                      double stridedBytes = 0) const;
  /// Seconds of `count` calls of `op` moving `bytes` in all over a group of
  /// `groupSize` ranks, on NVLink if `intraNode`, else the network.
  double collectiveSeconds(StringRef op, int64_t groupSize, int64_t count,
                           int64_t bytes, bool intraNode) const;
  /// The GEMM and local rates per rank that the predictions use.
  double effectiveGemmRate(int64_t elementBytes) const;
  double effectiveLocalRate() const;
  double effectiveIterationRate() const;
};

/// How `summa-plan --calibrate` measures the machine.
struct CalibrateOptions {
  /// The machine file to write.
  std::string output;
  /// The numbers of ranks to run summa-calibrate with (collectives are
  /// measured over groups of each, from 2).
  SmallVector<int64_t> ranks = {1, 2, 4, 8};
  /// Tiny sizes and short trials (tests).
  bool quick = false;
  /// summa-calibrate, mpiexec and the flags it takes after -np N;
  /// summa-compile (empty: the iteration rate of compiled loop nests is not
  /// measured).
  std::string program, mpirun, compiler;
  SmallVector<std::string> mpirunFlags;
};

/// Runs summa-calibrate under mpiexec for each number of ranks, fits the
/// rates and writes the machine file; progress goes to `log`. Fails with
/// `error` (the command and its output where one failed).
FailureOr<Machine> calibrateMachine(const CalibrateOptions &options,
                                    raw_ostream &log, std::string &error);

enum class StrategyKind { Grid, Megatron1D, DataParallel };

/// One (collective, group) entry, per rank and per call.
struct CollectiveStat {
  /// The runtime's names: "broadcast", "reduce", "all_reduce", "all_gather",
  /// "reduce_scatter"; the group as the spanned axes joined by '+' in the
  /// order row, col, depth ("col", "row", "depth", "row+col", ...), or
  /// "world" for the 1D and data-parallel strategies.
  std::string op, group;
  /// The runtime's axes mask (bit a for GridAxis a); 0 for "world".
  int axesMask = 0;
  int64_t groupSize = 0;
  /// Calls and payload bytes as the runtime counts them: the buffer for
  /// broadcast / reduce / all_reduce, the source for all_gather, the
  /// destination for reduce_scatter, summed over the calls.
  int64_t count = 0;
  int64_t bytes = 0;
  /// Bytes this rank sends plus receives under the modelled algorithm.
  double wireBytes = 0;
  /// Every group of this kind lies inside one node.
  bool intraNode = true;
  double seconds = 0;
};

struct MemoryStat {
  /// Parameter tiles: arguments replicated over depth (weights, biases,
  /// LayerNorm scales).
  int64_t parameterBytes = 0;
  /// Activation tiles: the other arguments (inputs, targets).
  int64_t activationBytes = 0;
  /// The results' tiles (the output activation; in a training step also the
  /// loss, the gradients and the updated parameters).
  int64_t resultBytes = 0;
  /// The most bytes of intermediate tiles live at once (panels included).
  int64_t peakIntermediateBytes = 0;
  /// The most bytes of buffers created inside SUMMA loops (panels) live at
  /// once.
  int64_t panelBytes = 0;
  int64_t total() const {
    return parameterBytes + activationBytes + resultBytes +
           peakIntermediateBytes;
  }
};

struct StrategyPlan {
  StrategyKind kind = StrategyKind::Grid;
  /// [q, q, d] for grids.
  SmallVector<int64_t, 3> grid;
  /// "[4,4,4]", "1D" or "DP".
  std::string name;
  bool feasible = false;
  /// Why the strategy cannot partition the model (first diagnostic).
  std::string infeasibleReason;
  /// Memory fits the capacity in PlanOptions.
  bool fitsMemory = true;
  /// Counted on the partitioned IR (true) or modelled (false).
  bool counted = false;
  SmallVector<CollectiveStat> collectives;
  int64_t gemmCount = 0;
  int64_t gemmFlops = 0;
  /// Bytes the local loop nests (every linalg op but the GEMMs and
  /// contractions) read and write on this rank's tiles per call, and
  /// their iterations.
  int64_t localBytes = 0, localIterations = 0;
  /// Contractions the lowering sends to the batched GEMM (attention's
  /// products): count and flops; their time is in gemmSeconds.
  int64_t localGemmCount = 0, localGemmFlops = 0;
  MemoryStat memory;
  double commSeconds = 0;
  double gemmSeconds = 0;
  double localSeconds = 0;
  /// With PlanOptions::panelReuseBudget: the same grid without panel reuse
  /// (payload bytes and memory per rank), and the budget.
  struct WithoutReuse {
    int64_t payloadBytes = 0;
    int64_t broadcastBytes = 0;
    int64_t memoryBytes = 0;
    double seconds = 0;
  };
  std::optional<WithoutReuse> withoutReuse;
  double seconds() const { return commSeconds + gemmSeconds + localSeconds; }
  /// Payload bytes of the broadcasts.
  int64_t broadcastBytes() const;
  int64_t payloadBytes() const;
  double wireBytes() const;
};

/// What the planner knows of the model.
struct ModelInfo {
  /// "ir" (read from a module) or "described" (--describe).
  std::string source;
  std::string entry;
  std::string elementType;
  int64_t elementBytes = 0;
  /// Tokens per call and the hidden size: from the token ids and the
  /// embedding table of a language model, else from the float activation
  /// argument ([tokens, hidden] or [batch, seq, hidden]).
  int64_t tokens = 0, hidden = 0;
  /// Sequences and tokens per sequence, or 0 where the IR does not say.
  int64_t batch = 0, seq = 0;
  /// The inputs are token ids (integers of type idType) that reach an
  /// embedding of `vocab` rows.
  bool tokenIds = false;
  std::string idType;
  int64_t vocab = 0;
  int64_t matmuls = 0;
  /// Float parameter matrices that reach an operand of a linalg.matmul.
  int64_t weightMatrices = 0;
  /// Transformer layers, or 0 if unknown; layersFrom says how they were
  /// counted: "names" (layer numbers in the weights' names), "structure"
  /// (the period of the weight matrices' shapes), "attention" (one
  /// attention and no repetition), "described".
  int64_t layers = 0;
  std::string layersFrom;
  /// Elements of the arguments that are not activations: weights, biases,
  /// LayerNorm scales and, in a training step, optimizer state.
  int64_t parameters = 0;
  /// Flops of the unpartitioned forward (2*m*n*k per matmul).
  double flops = 0;
};

struct Plan {
  int64_t ranks = 0;
  ModelInfo model;
  std::vector<StrategyPlan> strategies;
  /// Index into strategies of the chosen grid, or -1 if none is feasible.
  int best = -1;
  std::string reason;

  /// The feasible plan of the grid named `grid` ("[2,2,1]"), if any.
  const StrategyPlan *feasibleGrid(StringRef grid) const;
};

/// A time as the planner's tables print it: "0 s", "12.34 ns", "12.34 us",
/// "1.234 ms", "1.234 s".
std::string formatSeconds(double seconds);

/// The grids [q, q, d] with q*q*d = ranks, q ascending.
SmallVector<SmallVector<int64_t, 3>> enumerateGrids(int64_t ranks);

/// The runtime's name of the group spanning `axes` (GridAxis values):
/// "row", "col", "depth", "row+col", ...
std::string groupName(ArrayRef<int32_t> axes);

/// Seconds of `count` calls of `op` moving `bytes` payload bytes in total
/// over a group of `groupSize` ranks on `link`; see docs/Planner.md.
double collectiveSeconds(StringRef op, int64_t groupSize, int64_t count,
                         int64_t bytes, const LinkParams &link);
/// Bytes one rank sends plus receives for that traffic.
double collectiveWireBytes(StringRef op, int64_t groupSize, int64_t bytes);

/// Plans the entry function of `module` (which is not modified: each grid
/// runs the passes on a clone). Fails, with a diagnostic on the module,
/// only if the request itself is bad (no entry function, ranks <= 0, a
/// malformed grid); a grid that cannot partition the model is returned as
/// infeasible with the first diagnostic as its reason.
FailureOr<Plan> planModule(ModuleOp module, const PlanOptions &options);

/// summa-derive-generation's prefill `prefill` of `module` planned in both
/// forms a step of one product per weight can take: 2.5D SUMMA as derived
/// (weight panels broadcast) and weight-stationary (marked
/// summa.weight_stationary, as the decode step: the prompt's activations
/// move, the weights stay). A short prompt moves far less in the second.
struct PrefillForms {
  Plan summa, stationary;
  /// The form the prefill takes on the grid named `grid`: the stationary
  /// one where it is feasible and predicted faster than the SUMMA form
  /// (`stationaryChosen` says which), or null where neither is feasible.
  const StrategyPlan *chosen(StringRef grid,
                             bool *stationaryChosen = nullptr) const;
  /// Whether the prefill takes the stationary form on `grid`.
  bool prefersStationary(ArrayRef<int64_t> grid) const;
};
FailureOr<PrefillForms> planPrefillForms(ModuleOp module, StringRef prefill,
                                         PlanOptions options);

/// A GPT model given by its dimensions, as examples/generate.py builds it:
/// `layers` pre-LN blocks (LN1, Q/K/V/O linears with biases, causal
/// attention, LN2, W1/W2 linears with biases, GeLU, residuals), then a
/// final LayerNorm if finalLayerNorm.
struct GptDescription {
  int64_t layers = 0, hidden = 0, heads = 0, seq = 0, batch = 0, ffn = 0;
  std::string dtype = "bf16";
  bool finalLayerNorm = true;
};

/// Parses "layers=96,hidden=12288,heads=96,seq=2048,batch=8[,ffn=F]
/// [,dtype=bf16|f16|f32|f64][,final_ln=0|1]"; ffn defaults to 4*hidden.
FailureOr<GptDescription> parseDescription(StringRef spec, std::string &error);

/// The same plan as planModule would give for the generated IR of `model`,
/// from closed formulas (no IR). Fails with `error` on a bad request.
FailureOr<Plan> planDescribed(const GptDescription &model,
                              const PlanOptions &options, std::string &error);

/// Human-readable table.
void printPlanTable(const Plan &plan, const PlanOptions &options,
                    raw_ostream &os);
/// Machine-readable JSON (one object).
void printPlanJson(const Plan &plan, const PlanOptions &options,
                   raw_ostream &os);
/// An SVG bar chart: per strategy the predicted time per call split into
/// GEMMs, local work and each collective kind, the best grid marked.
void printPlanChart(const Plan &plan, const PlanOptions &options,
                    raw_ostream &os);

} // namespace mlir::summa::plan

#endif // SUMMA_PLANNER_PLANNER_H
