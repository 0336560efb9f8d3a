//===- SplitModel.cpp - 1D Megatron and data-parallel models ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The two reference strategies the planner puts beside the grids, modelled
// on the unpartitioned (normalized) IR by one dataflow over "which
// dimension of a value is split P ways" (none: the value is replicated; or
// every rank holds a partial sum of it):
//
//  * 1D Megatron (Shoeybi et al. 2019): a linalg.matmul whose lhs is
//    replicated is column-parallel (its weight and result are split along N);
//    one whose lhs is split along K is row-parallel (its weight is split
//    along K; the partial results are summed by an all-reduce of the whole
//    [M, N] result over the P ranks). An embedding table is split along the
//    vocabulary at its first lookup (Megatron's VocabParallelEmbedding:
//    each rank looks up the rows it owns, the partial rows are summed).
//    A GPT block is column (Q, K, V), row (O), column (W1), row (W2): two
//    all-reduces of a [tokens, hidden] activation per layer.
//  * Data parallel: activation arguments are split along their leading
//    (token) dimension, weights are replicated; a forward has no
//    communication.
//
// Every linalg op, linalg.matmul included, follows one rule: the loop its
// split inputs are split along is split; a result indexed by that loop is
// split along the matching dimension, any other result is a partial sum.
// A table read inside a body (a gather) at an index computed from the data
// along its split dimension gives partial sums too (zero where a rank does
// not own the row). A partial sum is completed by one all-reduce over the
// P ranks where a use needs the sum; ops that only add partial sums (and
// reshapes and slices) pass them on, so dX = dQ Wq^T + dK Wk^T + dV Wv^T
// costs one all-reduce, as in Megatron's fused QKV. So in a training step
// the backward's collectives come out of the IR instead of being assumed:
// for data parallelism dW = X^T * dY contracts over the split tokens (the
// gradient all-reduce), for 1D dX = dY * W^T of a column-parallel linear
// contracts over the split N (Megatron's backward all-reduce).
//
// Reshapes, slices, inserts, concatenations and pads keep a split where the
// dimension stays whole or is cut into pieces that P divides (the layout
// of a fused QKV weight that Megatron stores by heads); any op that cannot
// keep its operands' splits gets them whole first (an all-gather over the
// P ranks, after the all-reduce of a partial sum), and computes on every
// rank. Results are returned as the computation leaves them (replicated or
// split). The rules of the ops outside linalg live with their op families
// (SplitModelOpInterface, lib/Dialect/Summa/OpRules/); this file holds the
// linalg rule and the walk.
//
// Neither strategy is compiled by summa, so these numbers are a model
// (StrategyPlan::counted is false).
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "summa/Support/IndexCasts.h"
#include "summa/Support/IndexingMaps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

#include <functional>

using namespace mlir;
using namespace mlir::summa;
using namespace mlir::summa::plan;
using namespace mlir::summa::plan::detail;

namespace {

/// The model of one strategy on one function. The ops outside linalg get
/// their splits from their family's rule (SplitModelOpInterface, in
/// lib/Dialect/Summa/OpRules/), which sees this model as its
/// SplitModelState.
class SplitModel : public SplitModelState {
public:
  SplitModel(func::FuncOp func, StrategyKind kind, int64_t ranks,
             int64_t tokens, const PlanOptions &options, StrategyPlan &out)
      : func(func), kind(kind), ranks(ranks), tokens(tokens), options(options),
        out(out) {}

  LogicalResult run();
  std::string error;

  // SplitModelState.
  int getSplit(Value v) const override {
    auto it = splits.find(v);
    return it == splits.end() ? -1 : it->second;
  }
  int64_t getOuter(Value v) const override {
    auto it = outers.find(v);
    return it == outers.end() ? 1 : it->second;
  }
  void setPartial(Value v) override { splits[v] = kPartial; }
  LogicalResult setSplit(Value v, int dim, int64_t outer) override;
  LogicalResult setSplit(Value v, int dim) { return setSplit(v, dim, 1); }
  void materialize(Value v) override;
  LogicalResult replicate(Operation *op) override;
  bool keepsSplit(int64_t offset, int64_t size, int64_t stride,
                  int64_t whole) const override;
  bool divisible(Type type, int dim) const override;

private:
  void unsplit(Value v) {
    splits.erase(v);
    outers.erase(v);
  }
  /// The bytes of `v` a rank holds: whole, or its block where it is split
  /// (a dimension the ranks do not divide is cut into padded blocks of
  /// ceil(n / P), as summa pads it).
  int64_t localBytesOf(Value v) const;
  /// Makes `v` whole on every rank: the all-reduce of a partial sum, the
  /// all-gather of a split value.
  void gather(Value v);
  /// Whether `op` only adds its inputs elementwise (so partial sums may
  /// flow through it and be all-reduced once, after the sum).
  static bool isSumOfInputs(linalg::LinalgOp op);
  LogicalResult visit(Operation *op);
  LogicalResult visitLinalg(linalg::LinalgOp op);
  LogicalResult visitMatmul(linalg::MatmulOp op);
  /// Lays out a weight, or the transpose of one, along `dim` (and the
  /// parameter it comes from), unless its parameter already has a layout.
  LogicalResult splitWeight(Value w, int dim);
  /// `loop`: the loop dimension the op is split along, or -1.
  LogicalResult visitStructured(linalg::LinalgOp op, int &loop);
  /// The tables `op` reads inside its body: sets `loop` where one is split
  /// along a dimension a loop indexes, `partial` where one is split along a
  /// dimension indexed by the data. Fails if the splits disagree.
  LogicalResult visitTables(linalg::LinalgOp op, int &loop, bool &partial);
  void allReduce(Value v);
  /// A block argument of the entry function with a parameter role.
  bool isParameterArgument(Value v);
  const char *strategy() const {
    return kind == StrategyKind::Megatron1D ? "1D Megatron" : "data parallel";
  }

  func::FuncOp func;
  StrategyKind kind;
  int64_t ranks;
  /// The model's tokens per call (0: unknown).
  int64_t tokens;
  const PlanOptions &options;
  StrategyPlan &out;
  /// The dimension each split value is split along (absent: replicated),
  /// and the groups it is cut into where there are several.
  DenseMap<Value, int> splits;
  DenseMap<Value, int64_t> outers;
  CollectiveTable table;
};

} // namespace

bool SplitModel::divisible(Type type, int dim) const {
  auto shaped = dyn_cast<RankedTensorType>(type);
  return shaped && shaped.hasStaticShape() && dim >= 0 &&
         dim < shaped.getRank() && shaped.getDimSize(dim) % ranks == 0;
}

LogicalResult SplitModel::setSplit(Value v, int dim, int64_t outer) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape()) {
    error = "a split value has no static shape";
    return failure();
  }
  // A dimension the ranks do not divide is split into padded blocks, as
  // summa pads it; groups (a fused QKV's thirds) must stay whole.
  int64_t size = type.getDimSize(dim);
  if (size % outer != 0) {
    if (error.empty()) {
      llvm::raw_string_ostream os(error);
      os << strategy() << " over " << ranks << " ranks splits dimension " << dim
         << " of size " << size << " ('" << type << "') into " << outer
         << " groups, which do not divide it";
    }
    return failure();
  }
  splits[v] = dim;
  if (outer != 1)
    outers[v] = outer;
  // The accumulator a result is written into (a linalg.fill or a
  // tensor.empty used only there) holds the same tile.
  Value init = v;
  while (auto result = dyn_cast<OpResult>(init)) {
    auto dps = dyn_cast<DestinationStyleOpInterface>(result.getOwner());
    if (!dps || !dps.hasPureTensorSemantics())
      break;
    init = dps.getTiedOpOperand(result)->get();
    if (!init.hasOneUse() || splits.count(init))
      break;
    splits[init] = dim;
    if (outer != 1)
      outers[init] = outer;
  }
  return success();
}

int64_t SplitModel::localBytesOf(Value v) const {
  int64_t bytes = staticBytes(v.getType());
  int dim = getSplit(v);
  if (dim < 0)
    return bytes;
  int64_t size = cast<RankedTensorType>(v.getType()).getDimSize(dim);
  if (size == 0)
    return 0;
  int64_t outer = getOuter(v);
  int64_t block = llvm::divideCeil(size / outer, ranks) * outer;
  return bytes / size * block;
}

void SplitModel::allReduce(Value v) {
  table.add("all_reduce", 0, "world", ranks, 1, staticBytes(v.getType()));
}

void SplitModel::materialize(Value v) {
  if (!isPartial(v))
    return;
  allReduce(v);
  unsplit(v);
}

void SplitModel::gather(Value v) {
  if (isPartial(v)) {
    materialize(v);
    return;
  }
  if (getSplit(v) < 0)
    return;
  if (v.getDefiningOp<tensor::EmptyOp>() || v.getDefiningOp<linalg::FillOp>()) {
    unsplit(v); // storage, or a constant each rank writes whole
    return;
  }
  // The runtime counts an all-gather by its source, the local block.
  table.add("all_gather", 0, "world", ranks, 1, localBytesOf(v));
  unsplit(v);
}

bool SplitModel::isSumOfInputs(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumParallelLoops() != op.getNumLoops())
    return false;
  for (AffineMap map : op.getIndexingMapsArray())
    if (!map.isIdentity())
      return false;
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  // The yielded value must be a tree of arith.addf over the input block
  // arguments, each used once.
  llvm::SmallPtrSet<Value, 4> used;
  std::function<bool(Value)> isSum = [&](Value v) -> bool {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == body &&
             arg.getArgNumber() < op.getNumDpsInputs() &&
             used.insert(arg).second;
    auto add = v.getDefiningOp<arith::AddFOp>();
    return add && add->getBlock() == body && isSum(add.getLhs()) &&
           isSum(add.getRhs());
  };
  return isSum(yield.getOperand(0)) &&
         used.size() == static_cast<size_t>(op.getNumDpsInputs());
}

bool SplitModel::isParameterArgument(Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && arg.getOwner() == &func.getBody().front() &&
         argumentRole(func, arg.getArgNumber()) == ArgRole::Parameter;
}

bool SplitModel::keepsSplit(int64_t offset, int64_t size, int64_t stride,
                            int64_t whole) const {
  if (ShapedType::isDynamic(offset) || ShapedType::isDynamic(size) ||
      ShapedType::isDynamic(stride) || stride != 1)
    return false;
  if (offset == 0 && size == whole)
    return true;
  return size % ranks == 0 && offset % size == 0;
}

LogicalResult SplitModel::replicate(Operation *op) {
  for (Value v : op->getOperands())
    gather(v);
  // Values a region reads from outside (a table read inside a body).
  op->walk([&](Operation *inner) {
    if (inner != op)
      for (Value v : inner->getOperands())
        if (!op->isAncestor(v.getParentBlock()->getParentOp()))
          gather(v);
  });
  return success();
}

//===----------------------------------------------------------------------===//
// linalg ops
//===----------------------------------------------------------------------===//

/// The dimension of its moved operand that dimension `dim` of the result
/// of `op` comes from, where `op` only reorders or converts its operand's
/// elements (DataMoveOpInterface: a transpose, a generic that yields its
/// one input under a permutation, a copy, a cast), with that operand;
/// nullopt for other ops.
static std::optional<std::pair<Value, int>> movedFrom(Operation *op, int dim) {
  std::optional<DataMove> move = getDataMove(op);
  if (!move || move->slices || move->repeats || move->reshapes ||
      move->sourceDims[dim] < 0)
    return std::nullopt;
  return std::make_pair(move->source->get(),
                        static_cast<int>(move->sourceDims[dim]));
}

LogicalResult SplitModel::splitWeight(Value w, int dim) {
  // Through transposes (an exporter's [out, in] weight) to the parameter.
  SmallVector<std::pair<Value, int>> chain{{w, dim}};
  while (!isParameterArgument(chain.back().first)) {
    Operation *def = chain.back().first.getDefiningOp();
    std::optional<std::pair<Value, int>> from =
        def ? movedFrom(def, chain.back().second) : std::nullopt;
    if (!from)
      return success(); // not a weight: nothing to lay out
    chain.push_back(*from);
  }
  if (getSplit(chain.back().first) >= 0)
    return success();
  for (auto [v, d] : chain)
    if (failed(setSplit(v, d)))
      return failure();
  return success();
}

LogicalResult SplitModel::visitMatmul(linalg::MatmulOp op) {
  Value a = op.getDpsInputOperand(0)->get();
  Value w = op.getDpsInputOperand(1)->get();
  // 1D Megatron lays out a weight at its first A*W: column-parallel (split
  // along N) after a replicated lhs, row-parallel (split along K) after an
  // lhs split along K. Later uses (the backward's A*W^T and A^T*B, the
  // update) follow the layout the weight has by then.
  // The weight's N and K dimensions: [K, N] in A*W, [N, K] in A*W^T (an
  // [out, in] weight whose transpose summa-normalize folded into the
  // product).
  std::optional<summa::MatmulForm> form =
      summa::getMatmulForm(op.getIndexingMapsArray());
  if (kind == StrategyKind::Megatron1D && form &&
      *form != summa::MatmulForm::atb && getSplit(w) < 0) {
    int weightN = *form == summa::MatmulForm::abt ? 0 : 1;
    int sa = getSplit(a);
    if (sa < 0 && failed(splitWeight(w, weightN)))
      return failure();
    if (sa == 1 && failed(splitWeight(w, 1 - weightN)))
      return failure();
  }
  int loop = -1;
  if (failed(visitStructured(op, loop)))
    return failure();
  int64_t flops = matmulFlops(op);
  if (loop >= 0)
    flops /= ranks;
  auto type = cast<ShapedType>(a.getType());
  out.gemmCount += 1;
  out.gemmFlops += flops;
  out.gemmSeconds +=
      options.gemmSeconds(1, static_cast<double>(flops),
                          elementStorageBytes(type.getElementType()));
  return success();
}

/// Whether `v` is computed from an integer argument of `func` (token ids),
/// looking back through at most 64 ops.
static bool fromIntegerArgument(func::FuncOp func, Value v) {
  SmallVector<Value> work{v};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty() && seen.size() < 64) {
    Value u = work.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(u)) {
      if (arg.getOwner() == &func.getBody().front() &&
          isa<IntegerType>(getElementTypeOrSelf(arg.getType())))
        return true;
      continue;
    }
    Operation *def = u.getDefiningOp();
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(def))
      llvm::append_range(work, dps.getDpsInputs());
    else
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

LogicalResult SplitModel::visitTables(linalg::LinalgOp op, int &loop,
                                      bool &partial) {
  LogicalResult result = success();
  op->walk([&](tensor::ExtractOp extract) {
    Value table = extract.getTensor();
    if (op->isAncestor(table.getParentBlock()->getParentOp()))
      return;
    materialize(table);
    int s = getSplit(table);
    // 1D Megatron splits an embedding table along the rows the token ids
    // pick at its first lookup (vocabulary-parallel).
    if (s < 0 && kind == StrategyKind::Megatron1D && isParameterArgument(table))
      for (auto [d, index] : llvm::enumerate(extract.getIndices()))
        if (auto arg = dyn_cast<BlockArgument>(stripIndexCasts(index));
            arg && arg.getOwner() == op.getBlock() &&
            arg.getArgNumber() < op.getNumDpsInputs() &&
            fromIntegerArgument(func, op.getDpsInputs()[arg.getArgNumber()]) &&
            divisible(table.getType(), d)) {
          (void)setSplit(table, d);
          s = d;
          break;
        }
    if (s < 0)
      return;
    Value root = stripIndexCasts(extract.getIndices()[s]);
    if (auto index = root.getDefiningOp<linalg::IndexOp>()) {
      int l = index.getDim();
      if (loop >= 0 && loop != l)
        result = failure();
      loop = l;
      return;
    }
    partial = true; // the rows a rank owns; zero elsewhere
  });
  return result;
}

LogicalResult SplitModel::visitStructured(linalg::LinalgOp op, int &loop) {
  // The loop every split input is split along.
  loop = -1;
  bool agree = true;
  int64_t outer = 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    int s = getSplit(input->get());
    if (s < 0)
      continue;
    auto dim =
        dyn_cast<AffineDimExpr>(op.getMatchingIndexingMap(input).getResult(s));
    if (!dim || (loop >= 0 && (loop != static_cast<int>(dim.getPosition()) ||
                               outer != getOuter(input->get())))) {
      agree = false;
      break;
    }
    loop = dim.getPosition();
    outer = getOuter(input->get());
  }
  // A split loop reached through a window (IndexingMaps.h) is not split:
  // the op runs on every rank, as summa-assign-layouts keeps it whole.
  if (agree && loop >= 0 && getWindowedLoops(op).test(loop))
    agree = false;
  bool partial = false;
  if (agree && failed(visitTables(op, loop, partial)))
    agree = false;
  if (!agree || (partial && loop >= 0)) {
    // Splits that disagree: every operand whole, the op on every rank.
    loop = -1;
    return replicate(op);
  }
  if (partial) {
    for (Value result : op->getResults())
      splits[result] = kPartial;
    return success();
  }
  if (loop < 0)
    return success();
  // A replicated parameter read along the split loop is stored split, where
  // P divides it.
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (getSplit(input->get()) >= 0 || !isParameterArgument(input->get()))
      continue;
    std::optional<unsigned> position =
        op.getMatchingIndexingMap(input).getResultPosition(
            getAffineDimExpr(loop, op.getContext()));
    if (position && outer == 1 && divisible(input->get().getType(), *position))
      (void)setSplit(input->get(), *position);
  }
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    Value result = op.getTiedOpResult(&init);
    std::optional<unsigned> position =
        map.getResultPosition(getAffineDimExpr(loop, op.getContext()));
    if (position) {
      if (failed(setSplit(result, *position, outer)))
        return failure();
    } else {
      // A reduction over the split loop leaves partial sums, all-reduced
      // where a use needs the sum.
      splits[result] = kPartial;
    }
  }
  return success();
}

LogicalResult SplitModel::visitLinalg(linalg::LinalgOp op) {
  bool anyPartial =
      llvm::any_of(op->getOperands(), [&](Value v) { return isPartial(v); });
  if (anyPartial && isSumOfInputs(op) &&
      llvm::all_of(op.getDpsInputs(), [&](Value v) { return isPartial(v); })) {
    splits[op->getResult(0)] = kPartial; // a sum of partial sums
    return success();
  }
  for (Value v : op->getOperands())
    materialize(v);
  if (auto mm = dyn_cast<linalg::MatmulOp>(op.getOperation()))
    return visitMatmul(mm);
  int loop;
  return visitStructured(op, loop);
}

LogicalResult SplitModel::visit(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitLinalg(linalgOp);
  if (auto rule = dyn_cast<SplitModelOpInterface>(op))
    return rule.modelSplit(*this);
  bool touchesTensors =
      llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>) ||
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>);
  if (!touchesTensors && op->getNumRegions() == 0)
    return success();
  // Any other op: its operands whole, its results replicated.
  return replicate(op);
}

LogicalResult SplitModel::run() {
  if (func.isExternal() || !func.getBody().hasOneBlock()) {
    error = "needs a function of one block";
    return failure();
  }
  Block &body = func.getBody().front();
  for (Type type :
       llvm::concat<const Type>(func.getArgumentTypes(), func.getResultTypes()))
    if (auto shaped = dyn_cast<ShapedType>(type);
        shaped && !shaped.hasStaticShape()) {
      error = "'func.func': dynamic shapes are not modelled";
      return failure();
    }
  if (kind == StrategyKind::DataParallel)
    for (BlockArgument arg : func.getArguments())
      if (argumentCarriesTokens(func, arg.getArgNumber(), tokens) &&
          failed(setSplit(arg, 0)))
        return failure();
  auto localBytes = [&](Value v) -> int64_t { return localBytesOf(v); };
  // An op runs split when an operand or a result is split.
  auto addWork = [&](Operation *op) {
    bool split = llvm::any_of(op->getOperands(),
                              [&](Value v) { return getSplit(v) >= 0; }) ||
                 llvm::any_of(op->getResults(),
                              [&](Value v) { return getSplit(v) >= 0; });
    addLocalWork(out, getLocalWork(op, localBytes, split ? ranks : 1), 1,
                 resultElementBytes(op), options);
  };
  SmallVector<Operation *> fills;
  for (Operation &op : body) {
    if (failed(visit(&op)))
      return failure();
    // The op's work with the splits its operands and results have as it
    // runs (a value gathered later was computed split); a fill's once the
    // op that accumulates into it has given it its split.
    if (isa<linalg::FillOp>(op))
      fills.push_back(&op);
    else
      addWork(&op);
  }
  for (Operation *fill : fills)
    addWork(fill);
  out.collectives = table.take();

  for (BlockArgument arg : func.getArguments()) {
    bool activation =
        argumentRole(func, arg.getArgNumber()) == ArgRole::Activation;
    (activation ? out.memory.activationBytes : out.memory.parameterBytes) +=
        localBytes(arg);
  }
  for (Value v : body.getTerminator()->getOperands())
    out.memory.resultBytes += localBytes(v);
  LivenessResult live = peakLiveness(func, localBytes);
  out.memory.peakIntermediateBytes = live.peak;
  out.memory.panelBytes = 0;
  return success();
}

StrategyPlan mlir::summa::plan::detail::planSplit(func::FuncOp func,
                                                  StrategyKind kind,
                                                  int64_t ranks, int64_t tokens,
                                                  const PlanOptions &options) {
  StrategyPlan s;
  s.kind = kind;
  s.name = kind == StrategyKind::Megatron1D ? "1D" : "DP";
  s.counted = false;
  // The ops' rules are registered by planModule.
  SplitModel model(func, kind, ranks, tokens, options, s);
  if (failed(model.run())) {
    s = StrategyPlan();
    s.kind = kind;
    s.name = kind == StrategyKind::Megatron1D ? "1D" : "DP";
    s.infeasibleReason = model.error;
    return s;
  }
  s.feasible = true;
  finishStrategy(s, options, [&](const CollectiveStat &) {
    return options.gpusPerNode > 0 && ranks <= options.gpusPerNode;
  });
  return s;
}
