//===- Gather.cpp - reads of a tensor at computed indices -------*- C++ -*-===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Recognises gathers (summa/Dialect/Summa/Analysis/Gather.h) and builds their
// adjoint: a summa.scatter that adds each output gradient to the table row its
// index names, or, where the indices do not allow that form, a one-hot generic.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/Analysis/Gather.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "summa/Dialect/Summa/IR/SummaOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::summa;

SmallVector<unsigned> Gather::getFreeLoops() {
  llvm::SmallBitVector direct(op.getNumLoops());
  for (const std::optional<unsigned> &loop : loops)
    if (loop)
      direct.set(*loop);
  SmallVector<unsigned> free;
  for (unsigned l = 0; l < op.getNumLoops(); ++l)
    if (!direct.test(l))
      free.push_back(l);
  return free;
}

std::optional<Gather> mlir::summa::matchGather(Operation *op, Value table) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic->getNumResults() != 1 ||
      generic.getNumReductionLoops() != 0)
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(generic.getBlock()->getTerminator());
  auto read = yield.getOperand(0).getDefiningOp<tensor::ExtractOp>();
  if (!read || read->getParentOp() != op)
    return std::nullopt;
  Value tensor = read.getTensor();
  if ((table && tensor != table) ||
      op->isAncestor(tensor.getParentRegion()->getParentOp()))
    return std::nullopt;
  bool elsewhere = false;
  generic.getBlock()->walk([&](Operation *inner) {
    if (inner != read && llvm::is_contained(inner->getOperands(), tensor))
      elsewhere = true;
  });
  if (elsewhere)
    return std::nullopt;
  Gather gather{generic, read, {}};
  for (Value index : read.getIndices()) {
    auto loop = index.getDefiningOp<linalg::IndexOp>();
    gather.loops.push_back(loop ? std::optional<unsigned>(loop.getDim())
                                : std::nullopt);
  }
  return gather;
}

namespace {

/// The scatter form of a gather's adjoint (buildGatherAdjoint).
class ScatterAdjoint {
public:
  ScatterAdjoint(OpBuilder &b, Gather gather)
      : b(b), g(gather), loc(gather.op.getLoc()), free(gather.getFreeLoops()) {}
  /// Whether the gather has the form; fills `slices` and `computed`.
  bool matches();
  Value build(Value dOut, Value init);

private:
  /// Whether `v`, computed in the body, depends on the free loops alone;
  /// collects the body ops it needs in `needed`.
  bool onFreeLoops(Value v, llvm::SetVector<Operation *> &needed);
  /// The [free..., K] tensor of the computed indices.
  Value buildIndices(ArrayRef<Operation *> needed);

  OpBuilder &b;
  Gather g;
  Location loc;
  SmallVector<unsigned> free;
  /// The loops of the slice, in table dimension order.
  SmallVector<unsigned> slices;
  /// The table dimensions indexed by computed values.
  SmallVector<int64_t> computed;
  llvm::SetVector<Operation *> needed;
};

} // namespace

bool ScatterAdjoint::onFreeLoops(Value v, llvm::SetVector<Operation *> &ops) {
  if (!g.op->isAncestor(v.getParentRegion()->getParentOp()))
    return true; // defined outside: a constant or a value of the function
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    if (arg.getOwner() != g.op.getBlock() ||
        arg.getArgNumber() >= g.op.getNumDpsInputs())
      return false;
    AffineMap map = g.op.getMatchingIndexingMap(
        g.op.getDpsInputOperand(arg.getArgNumber()));
    for (AffineExpr expr : map.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!isa<AffineConstantExpr>(expr) &&
          (!dim || !llvm::is_contained(free, dim.getPosition())))
        return false;
    }
    return true;
  }
  Operation *def = v.getDefiningOp();
  if (auto index = dyn_cast<linalg::IndexOp>(def)) {
    ops.insert(def);
    return llvm::is_contained(free, index.getDim());
  }
  if (def->getNumRegions() != 0 || def->getNumResults() != 1 ||
      isa<tensor::ExtractOp>(def))
    return false;
  for (Value operand : def->getOperands())
    if (!onFreeLoops(operand, ops))
      return false;
  ops.insert(def);
  return true;
}

bool ScatterAdjoint::matches() {
  AffineMap out = g.op.getIndexingMapMatchingResult(g.op->getResult(0));
  if (!out.isPermutation())
    return false;
  llvm::SmallBitVector seen(g.op.getNumLoops());
  for (auto [d, loop] : llvm::enumerate(g.loops)) {
    if (!loop) {
      computed.push_back(d);
      continue;
    }
    if (seen.test(*loop))
      return false; // a loop on two table dimensions: a diagonal
    seen.set(*loop);
    slices.push_back(*loop);
  }
  if (computed.empty())
    return false;
  for (int64_t d : computed)
    if (!onFreeLoops(g.read.getIndices()[d], needed))
      return false;
  return true;
}

Value ScatterAdjoint::buildIndices(ArrayRef<Operation *> ops) {
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> loopSizes = g.op.getStaticLoopRanges();
  SmallVector<int64_t> shape;
  DenseMap<unsigned, unsigned> position;
  for (unsigned l : free) {
    position[l] = shape.size();
    shape.push_back(loopSizes[l]);
  }
  // The inputs the indices read, their maps on the free loops.
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  SmallVector<unsigned> inputArgs;
  for (OpOperand *input : g.op.getDpsInputOperands()) {
    BlockArgument arg = g.op.getMatchingBlockArgument(input);
    if (arg.use_empty())
      continue;
    bool used = llvm::any_of(arg.getUsers(), [&](Operation *user) {
      return llvm::is_contained(ops, user);
    });
    if (!used)
      continue;
    SmallVector<AffineExpr> exprs;
    for (AffineExpr expr : g.op.getMatchingIndexingMap(input).getResults())
      exprs.push_back(
          isa<AffineDimExpr>(expr)
              ? getAffineDimExpr(
                    position[cast<AffineDimExpr>(expr).getPosition()], ctx)
              : expr);
    inputs.push_back(input->get());
    maps.push_back(AffineMap::get(free.size(), 0, exprs, ctx));
    inputArgs.push_back(arg.getArgNumber());
  }
  Type i64 = b.getI64Type();
  SmallVector<Value> outs;
  SmallVector<Type> outTypes;
  for (size_t k = 0; k < computed.size(); ++k) {
    outs.push_back(tensor::EmptyOp::create(b, loc, shape, i64));
    outTypes.push_back(RankedTensorType::get(shape, i64));
    maps.push_back(b.getMultiDimIdentityMap(free.size()));
  }
  SmallVector<utils::IteratorType> iterators(free.size(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, outTypes, inputs, outs, maps, iterators,
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        IRMapping map;
        for (auto [i, arg] : llvm::enumerate(inputArgs))
          map.map(g.op.getBlock()->getArgument(arg), args[i]);
        for (Operation *op : ops) {
          if (auto index = dyn_cast<linalg::IndexOp>(op)) {
            map.map(index.getResult(),
                    linalg::IndexOp::create(nb, nl, position[index.getDim()]));
            continue;
          }
          nb.clone(*op, map);
        }
        SmallVector<Value> yields;
        for (int64_t d : computed) {
          Value v = map.lookupOrDefault(g.read.getIndices()[d]);
          yields.push_back(
              v.getType().isIndex()
                  ? arith::IndexCastOp::create(nb, nl, i64, v).getResult()
                  : arith::ExtSIOp::create(nb, nl, i64, v).getResult());
        }
        linalg::YieldOp::create(nb, nl, yields);
      });
  // [free...] each -> [free..., 1], concatenated along the last dimension.
  SmallVector<ReassociationIndices> reassociation;
  for (size_t i = 0; i < shape.size(); ++i)
    reassociation.push_back({static_cast<int64_t>(i)});
  if (!reassociation.empty())
    reassociation.back().push_back(shape.size());
  SmallVector<int64_t> column(shape);
  column.push_back(1);
  SmallVector<Value> columns;
  for (Value r : generic.getResults())
    columns.push_back(tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(column, i64), r, reassociation));
  if (columns.size() == 1)
    return columns.front();
  return tensor::ConcatOp::create(b, loc, shape.size(), columns);
}

Value ScatterAdjoint::build(Value dOut, Value init) {
  SmallVector<Operation *> ops(needed.begin(), needed.end());
  // The body's order, so that clones see their operands first.
  llvm::sort(ops,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  Value indices = buildIndices(ops);
  // The updates: dOut with its loops in the order [free..., slices...].
  AffineMap out = g.op.getIndexingMapMatchingResult(g.op->getResult(0));
  SmallVector<unsigned> order(free);
  llvm::append_range(order, slices);
  SmallVector<int64_t> permutation;
  for (unsigned loop : order)
    permutation.push_back(*out.getResultPosition(b.getAffineDimExpr(loop)));
  Value updates = dOut;
  if (!llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size()))) {
    auto type = cast<RankedTensorType>(dOut.getType());
    SmallVector<int64_t> shape;
    for (int64_t p : permutation)
      shape.push_back(type.getDimSize(p));
    Value empty = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
    updates = linalg::TransposeOp::create(b, loc, dOut, empty, permutation)
                  ->getResult(0);
  }
  auto scatter = ScatterOp::create(b, loc, init.getType(), updates, indices,
                                   init, b.getDenseI64ArrayAttr(computed));
  OpBuilder::InsertionGuard guard(b);
  Block *body = b.createBlock(&scatter.getCombiner());
  Type element = cast<ShapedType>(init.getType()).getElementType();
  Value update = body->addArgument(element, loc);
  Value current = body->addArgument(element, loc);
  YieldOp::create(b, loc, arith::AddFOp::create(b, loc, current, update));
  return scatter.getResult();
}

/// In the body of a generic over the gather's loops whose first arguments
/// are the gather's inputs (`args`): the gather's index computations (not
/// the read, the asserts or the yield), `map` taking the gather's body
/// values to their clones.
static void cloneIndexComputations(OpBuilder &nb, Gather g, ValueRange args,
                                   IRMapping &map) {
  Block *body = g.op.getBlock();
  for (unsigned i = 0; i < g.op.getNumDpsInputs(); ++i)
    map.map(body->getArgument(i), args[i]);
  for (Operation &inner : body->without_terminator())
    if (&inner != g.read.getOperation() && inner.getNumResults() > 0)
      nb.clone(inner, map);
}

/// The one-hot form: a generic over the gather's loops and one more loop
/// per computed table dimension: the output adjoint goes to the table
/// element whose computed index equals that loop's, summed over the
/// gather's other loops.
static Value buildOneHotAdjoint(OpBuilder &b, Gather g, Value dOut,
                                Value init) {
  linalg::GenericOp op = g.op;
  tensor::ExtractOp read = g.read;
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned n = op.getNumLoops();
  SmallVector<AffineExpr> tableExprs;
  SmallVector<std::pair<unsigned, Value>> computed;
  SmallVector<bool> reduced(n, true);
  for (auto [d, loop] : llvm::enumerate(g.loops)) {
    if (loop) {
      tableExprs.push_back(getAffineDimExpr(*loop, ctx));
      reduced[*loop] = false;
      continue;
    }
    unsigned dim = n + computed.size();
    computed.push_back({dim, read.getIndices()[d]});
    tableExprs.push_back(getAffineDimExpr(dim, ctx));
  }
  unsigned total = n + computed.size();
  auto widen = [&](AffineMap map) {
    return AffineMap::get(total, 0, map.getResults(), ctx);
  };
  SmallVector<Value> inputs(op.getDpsInputs());
  inputs.push_back(dOut);
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands())
    maps.push_back(widen(op.getMatchingIndexingMap(input)));
  maps.push_back(widen(op.getIndexingMapMatchingResult(op->getResult(0))));
  maps.push_back(AffineMap::get(total, 0, tableExprs, ctx));
  SmallVector<utils::IteratorType> iterators;
  for (unsigned d = 0; d < total; ++d)
    iterators.push_back(d < n && reduced[d] ? utils::IteratorType::reduction
                                            : utils::IteratorType::parallel);
  auto build = [&](OpBuilder &nb, Location nl, ValueRange args) {
    IRMapping map;
    cloneIndexComputations(nb, g, args, map);
    Value take;
    for (auto [dim, index] : computed) {
      Value loop = linalg::IndexOp::create(nb, nl, dim);
      Value same = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq,
                                         map.lookup(index), loop);
      take =
          take ? arith::AndIOp::create(nb, nl, take, same).getResult() : same;
    }
    Value grad = args[op.getNumDpsInputs()], acc = args.back();
    Value sum = arith::AddFOp::create(nb, nl, acc, grad);
    linalg::YieldOp::create(
        nb, nl,
        take ? arith::SelectOp::create(nb, nl, take, sum, acc).getResult()
             : sum);
  };
  auto generic =
      linalg::GenericOp::create(b, loc, TypeRange{init.getType()}, inputs,
                                ValueRange{init}, maps, iterators, build);
  // The reductions innermost: the parallel loops around them are what the
  // GPU maps onto threads (convert-linalg-to-parallel-loops stops at the
  // first reduction).
  SmallVector<unsigned> order;
  for (unsigned d = 0; d < total; ++d)
    if (iterators[d] == utils::IteratorType::parallel)
      order.push_back(d);
  for (unsigned d = 0; d < total; ++d)
    if (iterators[d] == utils::IteratorType::reduction)
      order.push_back(d);
  if (!llvm::equal(order, llvm::seq<unsigned>(0, total))) {
    IRRewriter rewriter(b);
    FailureOr<linalg::GenericOp> interchanged =
        linalg::interchangeGenericOp(rewriter, generic, order);
    if (succeeded(interchanged))
      generic = *interchanged;
  }
  return generic.getResult(0);
}

Value mlir::summa::maskGatherRow(OpBuilder &b, Gather g, Value dOut,
                                 int64_t row) {
  linalg::GenericOp op = g.op;
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(dOut.getType());
  SmallVector<Value> inputs(op.getDpsInputs());
  inputs.push_back(dOut);
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands())
    maps.push_back(op.getMatchingIndexingMap(input));
  AffineMap outMap = op.getIndexingMapMatchingResult(op->getResult(0));
  maps.push_back(outMap);
  maps.push_back(outMap);
  auto build = [&](OpBuilder &nb, Location nl, ValueRange args) {
    IRMapping map;
    cloneIndexComputations(nb, g, args, map);
    Value index = map.lookupOrDefault(g.read.getIndices()[0]);
    Value padding = arith::ConstantIndexOp::create(nb, nl, row);
    Value isPadding =
        arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::eq, index, padding);
    Value grad = args[op.getNumDpsInputs()];
    Value zero = arith::ConstantOp::create(
        nb, nl, nb.getZeroAttr(type.getElementType()));
    linalg::YieldOp::create(
        nb, nl,
        arith::SelectOp::create(nb, nl, isPadding, zero, grad).getResult());
  };
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::GenericOp::create(b, loc, TypeRange{type}, inputs,
                                   ValueRange{init}, maps,
                                   op.getIteratorTypesArray(), build)
      .getResult(0);
}

Value mlir::summa::buildGatherAdjoint(OpBuilder &b, Gather gather, Value dOut,
                                      Value init) {
  ScatterAdjoint scatter(b, gather);
  if (scatter.matches())
    return scatter.build(dOut, init);
  return buildOneHotAdjoint(b, gather, dOut, init);
}
