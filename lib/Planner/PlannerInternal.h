//===- PlannerInternal.h - shared parts of the planner ----------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Helpers shared by the parts of the planner: the IR planner (Planner.cpp,
// Counting.cpp, Liveness.cpp, ModelInfo.cpp), the 1D / data-parallel models
// (SplitModel.cpp), the closed-form GPT planner (Describe.cpp), the cost
// model (CostModel.cpp), the choice (Choose.cpp) and the reports
// (Report.cpp). Not installed.
//
//===----------------------------------------------------------------------===//

#ifndef SUMMA_LIB_ANALYSIS_PLANNERINTERNAL_H
#define SUMMA_LIB_ANALYSIS_PLANNERINTERNAL_H

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"
#include "summa/Planner/Planner.h"
#include "summa/Support/Sizes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <map>

namespace mlir::summa::plan::detail {

/// Accumulates collectives by (op, group) in the order the runtime prints
/// them (op kind, then axes mask).
class CollectiveTable {
public:
  /// Adds `count` calls of `payloadBytes` bytes in total. `mask` orders the
  /// entries (the runtime's axes mask; 8 for "world").
  void add(StringRef op, int mask, StringRef group, int64_t groupSize,
           int64_t count, int64_t payloadBytes);
  SmallVector<CollectiveStat> take() const;

private:
  std::map<std::pair<int, int>, CollectiveStat> entries;
};

/// The runtime's order of collective kinds (Profile.h CollectiveKind).
int collectiveKindIndex(StringRef op);

/// The latency steps and the bandwidth factor of the modelled algorithm of
/// `op` over `p` ranks: seconds = n * alpha * steps + payload * factor /
/// bandwidth (docs/Planner.md, "Time").
double collectiveSteps(StringRef op, int64_t p);
double collectiveFactor(StringRef op, int64_t p);

/// The machine file of `machine` (docs/Planner.md, "Calibration").
void writeMachineJson(const Machine &machine, raw_ostream &os);

/// Bytes of an element of `op`'s first result (4 if it has none).
int64_t resultElementBytes(Operation *op);
/// Bytes of a statically shaped tensor or memref; 0 for other types.
int64_t staticBytes(Type type);

/// Whether every group spanning `mask` (bit a = GridAxis a) of grid
/// [q, q, d] lies inside one node of gpusPerNode ranks.
bool isIntraNode(int64_t q, int64_t d, int mask, int64_t gpusPerNode);

/// Fills seconds / wireBytes / intraNode of the collectives of a strategy
/// (links decided by `intra(mask)`), its commSeconds and fitsMemory.
void finishStrategy(StrategyPlan &strategy, const PlanOptions &options,
                    function_ref<bool(const CollectiveStat &)> intra);

/// Picks the best feasible grid and writes plan.best and plan.reason.
void chooseBest(Plan &plan);

/// Result of a liveness walk over a function body.
struct LivenessResult {
  int64_t peak = 0;
  int64_t panels = 0;
};
/// Peak bytes of intermediate buffers live at once in `func` (see
/// docs/Planner.md for the aliasing rules); `bytesOf` gives the local size
/// of a value that starts a new buffer.
LivenessResult peakLiveness(func::FuncOp func,
                            function_ref<int64_t(Value)> bytesOf);

/// 2*m*n*k of a linalg.matmul, whatever its indexing maps (A*B, A*B^T,
/// A^T*B): twice the product of its static loop ranges; 0 if dynamic.
int64_t matmulFlops(linalg::MatmulOp mm);

/// Counts, on the partitioned `func` of `module` (with its summa.grid
/// @grid), the collectives and GEMMs one call executes into `out`; fails
/// with `error` where that cannot be done statically.
LogicalResult countPartitioned(ModuleOp module, func::FuncOp func,
                               const PlanOptions &options, StrategyPlan &out,
                               std::string &error);

/// Adds `times` executions of `work` to a strategy: its local bytes,
/// iterations and seconds, its local GEMMs (in the GEMM time).
void addLocalWork(StrategyPlan &s, const LocalWork &work, int64_t times,
                  int64_t elementBytes, const PlanOptions &options);

/// Reads the model's dimensions from the unpartitioned entry function.
ModelInfo describeModel(func::FuncOp func);

/// The argument's role: the summa.role attribute, else the default rule of
/// summa-assign-layouts (a rank-2 rhs of a linalg.matmul is a weight, any
/// other rank-2 argument an activation, other arguments parameters).
enum class ArgRole { Activation, Parameter };
ArgRole argumentRole(func::FuncOp func, unsigned index);

/// Whether argument `index` carries the model's `tokens` tokens: the role
/// "activation", or an activation's layout and leading dimensions of
/// `tokens` elements (an exporter's [out, in] weight contracted as a
/// batched product may get an activation's layout; it carries no tokens).
/// Without `tokens` (0), every argument with an activation's layout.
bool argumentCarriesTokens(func::FuncOp func, unsigned index, int64_t tokens);

/// The 1D Megatron or data-parallel plan of the unpartitioned `func` on
/// `ranks` ranks; data parallelism splits the arguments that carry the
/// model's `tokens`.
StrategyPlan planSplit(func::FuncOp func, StrategyKind kind, int64_t ranks,
                       int64_t tokens, const PlanOptions &options);

/// "[q,q,d]".
std::string gridName(ArrayRef<int64_t> grid);
/// "12.3 MiB" style.
std::string formatBytes(double bytes);
using plan::formatSeconds;

} // namespace mlir::summa::plan::detail

#endif // SUMMA_LIB_ANALYSIS_PLANNERINTERNAL_H
