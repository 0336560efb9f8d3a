//===- SplitModel.cpp - 1D Megatron and data-parallel models ----*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// The two reference strategies the planner puts beside the grids, modelled
// on the unpartitioned IR by one dataflow over "which dimension of a value
// is split P ways" (none: the value is replicated):
//
//  * 1D Megatron (Shoeybi et al. 2019): a linalg.matmul whose lhs is
//    replicated is column-parallel (its weight and result are split along N);
//    one whose lhs is split along K is row-parallel (its weight is split
//    along K; the partial results are summed by an all-reduce of the whole
//    [M, N] result over the P ranks). Elementwise ops and attention keep the
//    split; a reduction over the split dimension needs an all-reduce.
//    A GPT block is column (Q, K, V), row (O), column (W1), row (W2): two
//    all-reduces of a [tokens, hidden] activation per layer.
//  * Data parallel: activation arguments are split along their leading
//    (token) dimension, weights are replicated; a forward has no
//    communication.
//
// Every linalg op, linalg.matmul included, follows one rule: the loop its
// split inputs are split along is split; a result indexed by that loop is
// split along the matching dimension, any other result is a partial sum.
// A partial sum is completed by one all-reduce over the P ranks where a use
// needs the sum; ops that only add partial sums (and reshapes) pass them on,
// so dX = dQ Wq^T + dK Wk^T + dV Wv^T costs one all-reduce, as in
// Megatron's fused QKV. So in a training step the
// backward's collectives come out of the IR instead of being assumed: for
// data parallelism dW = X^T * dY contracts over the split tokens (the
// gradient all-reduce), for 1D dX = dY * W^T of a column-parallel linear
// contracts over the split N (Megatron's backward all-reduce). Results are
// returned as the computation leaves them (replicated or split).
//
// Neither strategy is compiled by summa, so these numbers are a model
// (StrategyPlan::counted is false).
//
//===----------------------------------------------------------------------===//

#include "PlannerInternal.h"

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

constexpr int kPartial = -2;

class SplitModel {
public:
  SplitModel(func::FuncOp func, StrategyKind kind, int64_t ranks,
             const PlanOptions &options, StrategyPlan &out)
      : func(func), kind(kind), ranks(ranks), options(options), out(out) {}

  LogicalResult run();
  std::string error;

private:
  /// The dimension `v` is split along; -1 if replicated, kPartial if every
  /// rank holds a partial sum of it.
  int getSplit(Value v) const {
    auto it = splits.find(v);
    return it == splits.end() ? -1 : it->second;
  }
  bool isPartial(Value v) const { return getSplit(v) == kPartial; }
  /// All-reduces a partial sum (once) before a use that needs the sum.
  void materialize(Value v);
  /// Whether `op` only adds its inputs elementwise (so partial sums may
  /// flow through it and be all-reduced once, after the sum).
  static bool isSumOfInputs(linalg::LinalgOp op);
  LogicalResult setSplit(Value v, int dim);
  LogicalResult unsupported(Operation *op, const Twine &why);
  LogicalResult visit(Operation *op);
  LogicalResult visitMatmul(linalg::MatmulOp op);
  /// `loop`: the loop dimension the op is split along, or -1.
  LogicalResult visitStructured(linalg::LinalgOp op, int &loop);
  void allReduce(Value v);
  /// A block argument of the entry function with a parameter role.
  bool isParameterArgument(Value v);
  const char *strategy() const {
    return kind == StrategyKind::Megatron1D ? "1D Megatron" : "data parallel";
  }

  func::FuncOp func;
  StrategyKind kind;
  int64_t ranks;
  const PlanOptions &options;
  StrategyPlan &out;
  /// The dimension each split value is split along (absent: replicated).
  DenseMap<Value, int> splits;
  CollectiveTable table;
};

} // namespace

LogicalResult SplitModel::unsupported(Operation *op, const Twine &why) {
  if (error.empty())
    error = (Twine("'") + op->getName().getStringRef() + "': " + why).str();
  return failure();
}

LogicalResult SplitModel::setSplit(Value v, int dim) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape()) {
    error = "a split value has no static shape";
    return failure();
  }
  int64_t size = type.getDimSize(dim);
  if (size % ranks != 0) {
    if (error.empty()) {
      llvm::raw_string_ostream os(error);
      os << strategy() << " over " << ranks << " ranks splits dimension " << dim
         << " of size " << size << " ('" << type
         << "'), which is not divisible by " << ranks;
    }
    return failure();
  }
  splits[v] = dim;
  // The accumulator a result is written into (linalg.fill of a
  // tensor.empty) holds the same tile.
  Value init = v;
  while (auto result = dyn_cast<OpResult>(init)) {
    Operation *def = result.getOwner();
    if (isa<tensor::EmptyOp>(def))
      break;
    auto dps = dyn_cast<DestinationStyleOpInterface>(def);
    if (!dps || !dps.hasPureTensorSemantics())
      break;
    init = dps.getTiedOpOperand(result)->get();
    if (splits.count(init))
      break;
    splits[init] = dim;
  }
  return success();
}

void SplitModel::allReduce(Value v) {
  table.add("all_reduce", 0, "world", ranks, 1, staticBytes(v.getType()));
}

void SplitModel::materialize(Value v) {
  if (!isPartial(v))
    return;
  allReduce(v);
  splits.erase(v);
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

LogicalResult SplitModel::visitMatmul(linalg::MatmulOp op) {
  Value a = op.getDpsInputOperand(0)->get();
  Value w = op.getDpsInputOperand(1)->get();
  // 1D Megatron lays out a weight at its first A*W: column-parallel (split
  // along N) after a replicated lhs, row-parallel (split along K) after an
  // lhs split along K. Later uses (the backward's A*W^T and A^T*B, the
  // update) follow the layout the weight has by then.
  if (kind == StrategyKind::Megatron1D && !op.hasUserDefinedMaps() &&
      isParameterArgument(w) && getSplit(w) < 0) {
    int sa = getSplit(a);
    if (sa < 0 && failed(setSplit(w, 1)))
      return failure();
    if (sa == 1 && failed(setSplit(w, 0)))
      return failure();
  }
  int loop = -1;
  if (failed(visitStructured(op, loop)))
    return failure();
  int64_t flops = 2;
  for (int64_t range : op.getStaticLoopRanges())
    flops *= range;
  if (loop >= 0)
    flops /= ranks;
  auto type = cast<ShapedType>(a.getType());
  out.gemmCount += 1;
  out.gemmFlops += flops;
  out.gemmSeconds += static_cast<double>(flops) /
                     options.gemmRate(elementBytes(type.getElementType()));
  return success();
}

LogicalResult SplitModel::visitStructured(linalg::LinalgOp op, int &loop) {
  // The loop every split input is split along.
  loop = -1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    int s = getSplit(input->get());
    if (s < 0)
      continue;
    auto dim =
        dyn_cast<AffineDimExpr>(op.getMatchingIndexingMap(input).getResult(s));
    if (!dim)
      return unsupported(op, "a split dimension is not indexed by a loop");
    int l = dim.getPosition();
    if (loop >= 0 && loop != l)
      return unsupported(op, "inputs are split along different loops");
    loop = l;
  }
  if (loop < 0)
    return success();
  // A replicated parameter read along the split loop is stored split.
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (getSplit(input->get()) >= 0 || !isParameterArgument(input->get()))
      continue;
    std::optional<unsigned> position =
        op.getMatchingIndexingMap(input).getResultPosition(
            getAffineDimExpr(loop, op.getContext()));
    if (position && failed(setSplit(input->get(), *position)))
      return failure();
  }
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    Value result = op.getTiedOpResult(&init);
    std::optional<unsigned> position =
        map.getResultPosition(getAffineDimExpr(loop, op.getContext()));
    if (position) {
      if (failed(setSplit(result, *position)))
        return failure();
    } else {
      // A reduction over the split loop leaves partial sums, all-reduced
      // where a use needs the sum.
      splits[result] = kPartial;
    }
  }
  return success();
}

LogicalResult SplitModel::visit(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    bool anyPartial =
        llvm::any_of(op->getOperands(), [&](Value v) { return isPartial(v); });
    if (anyPartial && isSumOfInputs(linalgOp) &&
        llvm::all_of(linalgOp.getDpsInputs(),
                     [&](Value v) { return isPartial(v); })) {
      splits[op->getResult(0)] = kPartial; // a sum of partial sums
      return success();
    }
    for (Value v : op->getOperands())
      materialize(v);
  }
  if (isa<linalg::SoftmaxOp, func::ReturnOp>(op))
    for (Value v : op->getOperands())
      materialize(v);
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op) &&
      isPartial(op->getOperand(0))) {
    splits[op->getResult(0)] = kPartial; // reshaping a partial sum
    return success();
  }
  if (auto mm = dyn_cast<linalg::MatmulOp>(op))
    return visitMatmul(mm);
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    int s = getSplit(softmax.getInput());
    if (s < 0)
      return success();
    if (s == static_cast<int>(softmax.getDimension()))
      return unsupported(op, "a softmax over the split dimension");
    return setSplit(softmax.getResult()[0], s);
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    int loop;
    return visitStructured(linalgOp, loop);
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    int s = getSplit(expand.getSrc());
    if (s < 0)
      return success();
    // The split lands on the outermost dimension of its group.
    return setSplit(expand.getResult(),
                    expand.getReassociationIndices()[s].front());
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    int s = getSplit(collapse.getSrc());
    if (s < 0)
      return success();
    for (auto [g, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      if (!llvm::is_contained(group, s))
        continue;
      if (group.front() != s)
        return unsupported(op, "the split dimension is not the outermost "
                               "of its group");
      return setSplit(collapse.getResult(), g);
    }
    return unsupported(op, "malformed reassociation");
  }
  // Results are returned as the computation leaves them (like summa's
  // partitioned functions, which return local tiles).
  if (isa<func::ReturnOp>(op))
    return success();
  if (isa<tensor::EmptyOp, arith::ConstantOp>(op))
    return success();
  bool touchesTensors =
      llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>) ||
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>);
  if (!touchesTensors && op->getNumRegions() == 0)
    return success();
  return unsupported(op,
                     Twine("not modelled by the ") + strategy() + " strategy");
}

LogicalResult SplitModel::run() {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return unsupported(func, "needs a function of one block");
  Block &body = func.getBody().front();
  for (Type type :
       llvm::concat<const Type>(func.getArgumentTypes(), func.getResultTypes()))
    if (auto shaped = dyn_cast<ShapedType>(type);
        shaped && !shaped.hasStaticShape())
      return unsupported(func, "dynamic shapes are not modelled");
  if (kind == StrategyKind::DataParallel)
    for (BlockArgument arg : func.getArguments())
      if (argumentRole(func, arg.getArgNumber()) == ArgRole::Activation &&
          failed(setSplit(arg, 0)))
        return failure();
  for (Operation &op : body)
    if (failed(visit(&op)))
      return failure();
  out.collectives = table.take();

  auto localBytes = [&](Value v) -> int64_t {
    int64_t bytes = staticBytes(v.getType());
    return getSplit(v) >= 0 ? bytes / ranks : bytes;
  };
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
                                                  int64_t ranks,
                                                  const PlanOptions &options) {
  StrategyPlan s;
  s.kind = kind;
  s.name = kind == StrategyKind::Megatron1D ? "1D" : "DP";
  s.counted = false;
  SplitModel model(func, kind, ranks, options, s);
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
