//===- Planner.cpp - grid planner on the partitioned IR ---------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// planModule: for every grid [q, q, d] of P ranks, run the partitioning
// half of summa-compile's pipeline (assign-layouts, partition,
// expand-matmul, canonicalize, combine-collectives; it must stay the same
// as summa-compile's) on a clone of the module and count what the runtime
// will count (Counting.cpp); then the memory walk (Liveness.cpp), the 1D
// and data-parallel models (SplitModel.cpp) and the choice of a grid
// (Choose.cpp).
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "summa/Dialect/Summa/IR/SummaAttrNames.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Dialect/Summa/OpRules/OpRules.h"
#include "summa/Dialect/Summa/Transforms/Passes.h"
#include "summa/Pipelines/Pipelines.h"
#include "summa/Support/Functions.h"
#include "summa/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

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
    buildAssignLayoutsPipeline(pm, assign, options.shardOptimizerState);
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
  if (failed(countPartitioned(*clone, func, options, s, s.infeasibleReason)))
    return s;
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

/// The module as the description and the 1D and data-parallel models read
/// it: a clone after summa-normalize (contractions as linalg.matmul, batch
/// matmuls as generics, as the grids see them), or a plain clone where
/// summa-normalize fails.
static OwningOpRef<ModuleOp> normalizedClone(ModuleOp module) {
  MLIRContext *context = module.getContext();
  OwningOpRef<ModuleOp> clone = module.clone();
  ScopedDiagnosticHandler quiet(context,
                                [](Diagnostic &) { return success(); });
  PassManager pm(context);
  pm.addPass(createSummaNormalize());
  if (succeeded(pm.run(*clone)))
    return clone;
  return module.clone();
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
  // The ops' rules (data moves, split models), registered with the dialects.
  if (failed(requireOpRules(module)))
    return failure();

  // The layouts are the planner's view only: the module is left as given.
  SmallVector<unsigned> annotated = annotateArgumentLayouts(module, entry);
  auto removeAnnotations = [&] {
    for (unsigned i : annotated)
      entry.removeArgAttr(i, kLayoutAttrName);
  };
  llvm::scope_exit<decltype(removeAnnotations)> restore(removeAnnotations);
  OwningOpRef<ModuleOp> normalized = normalizedClone(module);
  auto unpartitioned =
      normalized->lookupSymbol<func::FuncOp>(entry.getSymName());
  Plan plan;
  plan.ranks = options.ranks;
  plan.model = describeModel(unpartitioned);
  SmallVector<SmallVector<int64_t, 3>> grids;
  if (options.grid)
    grids.push_back(*options.grid);
  else
    grids = enumerateGrids(options.ranks);
  for (ArrayRef<int64_t> grid : grids)
    plan.strategies.push_back(
        planGrid(module, entry.getSymName(), grid, options));
  for (StrategyKind kind :
       {StrategyKind::Megatron1D, StrategyKind::DataParallel})
    plan.strategies.push_back(planSplit(unpartitioned, kind, options.ranks,
                                        plan.model.tokens, options));
  chooseBest(plan);
  return plan;
}

const StrategyPlan *Plan::feasibleGrid(StringRef grid) const {
  for (const StrategyPlan &s : strategies)
    if (s.kind == StrategyKind::Grid && s.name == grid && s.feasible)
      return &s;
  return nullptr;
}

const StrategyPlan *PrefillForms::chosen(StringRef grid,
                                         bool *stationaryChosen) const {
  const StrategyPlan *a = summa.feasibleGrid(grid);
  const StrategyPlan *b = stationary.feasibleGrid(grid);
  bool pick = b && (!a || b->seconds() < a->seconds());
  if (stationaryChosen)
    *stationaryChosen = pick;
  return pick ? b : a;
}

bool PrefillForms::prefersStationary(ArrayRef<int64_t> grid) const {
  bool stationaryChosen = false;
  chosen(gridName(grid), &stationaryChosen);
  return stationaryChosen;
}

FailureOr<PrefillForms> plan::planPrefillForms(ModuleOp module,
                                               StringRef prefill,
                                               PlanOptions options) {
  auto step = module.lookupSymbol<func::FuncOp>(prefill);
  if (!step)
    return module.emitError() << "no prefill @" << prefill << " to plan";
  options.entry = prefill.str();
  PrefillForms forms;
  // The form as derived first, then marked (and the mark removed again:
  // the module is left as given).
  bool marked = step->hasAttr(kWeightStationaryAttrName);
  step->removeAttr(kWeightStationaryAttrName);
  auto restore = llvm::make_scope_exit([&] {
    if (marked)
      step->setAttr(kWeightStationaryAttrName,
                    UnitAttr::get(step.getContext()));
    else
      step->removeAttr(kWeightStationaryAttrName);
  });
  FailureOr<Plan> summa = planModule(module, options);
  if (failed(summa))
    return failure();
  step->setAttr(kWeightStationaryAttrName, UnitAttr::get(step.getContext()));
  FailureOr<Plan> stationary = planModule(module, options);
  if (failed(stationary))
    return failure();
  forms.summa = std::move(*summa);
  forms.stationary = std::move(*stationary);
  return forms;
}
