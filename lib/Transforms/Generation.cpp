//===- Generation.cpp - a decode step and a prefill from a forward -------===//
//
// Part of the summa project.
//
//===----------------------------------------------------------------------===//
//
// Implements summa-derive-generation. Each step is the forward specialised
// to a block of T tokens per sequence at a position: the decode step (T = 1
// at `pos`, an argument, from caches that are arguments) and the prefill
// (T = P prompt tokens at 0, into caches that start as zeros). Each op of
// the forward is rebuilt on its operands' new shapes, in program order.
//
//  * A dimension along the sequence (found from the token ids: its size
//    follows their sequence dimension through the ops) has T elements in
//    the step. What no op of the tokens reaches (an `arange` of positions,
//    a causal mask, a rotary table, a position embedding's lookup) keeps
//    its S positions; where it meets the tokens on one loop (a mask added
//    to scores, a table multiplied in), it is sliced at [pos, pos + T), and
//    `linalg.index` i of such a loop is pos + i.
//  * An attention's keys: a product that relates two sequence dimensions of
//    its operands (Q · Kᵀ) takes its right-hand side from a cache of S
//    positions, into which the step writes its own at `pos`; its values: a
//    product that weighs an operand along the sequence with scores computed
//    from a cache takes that operand from a cache likewise. Every value
//    computed from a cache keeps its S keys.
//  * The caches are updated in place (tensor.insert_slice at `pos`); the
//    step returns the logits of its last token, the greedy next token, its
//    position, the caches and the generated ids, the decode step's each
//    marked summa.updates of its argument.
//  * With left-padding, the step takes `start` [B], the slot of each row's
//    first token. A tensor of positions that meets the tokens (not scores)
//    is gathered per row at pos + i - start[b] along the op's loop over the
//    rows; where scores (values with a dimension of cached keys) meet the
//    positions of a causal mask, the keys before each row's start are set
//    to the lowest number first. The rows and the keys are followed through
//    the ops and reshapes by a DimTracker each.
//
//===----------------------------------------------------------------------===//

#include "summa/Dialect/Summa/IR/ArgumentRole.h"
#include "summa/Dialect/Summa/IR/LayoutRuleInterface.h"
#include "summa/Dialect/Summa/IR/SummaAttrNames.h"
#include "summa/Dialect/Summa/OpRules/OpRules.h"
#include "summa/Support/Functions.h"
#include "summa/Support/IndexingMaps.h"
#include "summa/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallBitVector.h"

#include <map>

namespace mlir::summa {
#define GEN_PASS_DEF_SUMMADERIVEGENERATION
#include "summa/Transforms/Passes.h.inc"
} // namespace mlir::summa

using namespace mlir;
using namespace mlir::summa;

namespace {

/// A cache of a step: the forward's value `old` (all S positions), the
/// step's argument holding it and its update.
struct Cache {
  Value old;
  /// The step's argument holding it (decode), or null: zeros (prefill).
  BlockArgument arg;
  Value updated;
};

/// What a step takes: `tokens` ids per sequence at a position that is an
/// argument and caches that are arguments (the decode step), or at position
/// 0 into caches that start empty (the prefill).
struct StepKind {
  StringRef suffix;
  int64_t tokens;
  bool fromState;
  /// Whether the step chooses the next token (greedy) and keeps the
  /// generated ids; otherwise a driver samples it from the logits.
  bool nextToken;
  /// Whether the step takes `start` [B]: the slot of each row's first
  /// token, rows left-padded to one length (as Hugging Face pads them).
  bool leftPadding;
};

/// Where one dimension of the forward (the batch's, the keys') is in a value
/// of the step: dimension `dim`, with `inner` elements below it where it is
/// merged with others (1: the dimension is its own).
struct TrackedDim {
  int64_t dim;
  int64_t inner;
};

/// Follows one dimension of `size` elements through the step's ops, from the
/// values it is set on.
class DimTracker {
public:
  explicit DimTracker(int64_t size) : size(size) {}
  int64_t getSize() const { return size; }
  void set(Value v, TrackedDim d) { dims[v] = d; }
  /// The dimension of `v` that is the tracked one alone, if any.
  std::optional<int64_t> ownDim(Value v) const {
    auto it = dims.find(v);
    if (it == dims.end() || it->second.inner != 1)
      return std::nullopt;
    return it->second.dim;
  }
  /// The loop of `op` that the tracked dimension of an input is, alone,
  /// where the step's operands of `op` are `operands`.
  std::optional<unsigned> loopOf(linalg::LinalgOp op,
                                 ArrayRef<Value> operands) const;
  /// Sets the dimension on the results of `op` from its operands.
  void through(Operation *op);

private:
  int64_t size;
  DenseMap<Value, TrackedDim> dims;
};

/// Builds `<forward><suffix>` from the forward, op by op.
class StepBuilder {
public:
  StepBuilder(func::FuncOp forward, StepKind kind)
      : forward(forward), kind(kind), b(forward) {}

  /// Builds the step; on failure it has reported why and erased it.
  FailureOr<func::FuncOp> build();
  ArrayRef<Cache> getCaches() const { return caches; }

private:
  /// The step's value of the forward's `old`.
  Value get(Value old);
  LogicalResult visit(Operation *op);
  LogicalResult visitLinalg(linalg::LinalgOp op);
  LogicalResult visitCollapse(tensor::CollapseShapeOp op);
  LogicalResult visitExpand(tensor::ExpandShapeOp op);
  LogicalResult visitExtractSlice(tensor::ExtractSliceOp op);
  /// Clones `op` with its operands mapped and results of `types`.
  Operation *cloneWithTypes(Operation *op, TypeRange types);
  /// `value` (of S positions along `dim`) at position `pos`.
  Value sliceAtPosition(Location loc, Value value, int64_t dim);
  /// A cache for the forward's `old`, the step's `fresh` (one position along
  /// `dim`) written into it at `pos`: the updated cache.
  Value cacheOf(Location loc, Value old, Value fresh, int64_t dim);
  /// Whether dimension `dim` of the step's `newValue` differs from the
  /// forward's `oldValue` (it is along the sequence).
  bool shrunk(Value newValue, Value oldValue, int64_t dim) const;
  LogicalResult visitConcat(tensor::ConcatOp op);
  /// Left padding: `value` (of S positions along `dim`, an input of `op`
  /// read through `map`) at each row's positions, `pos + i - start[b]`
  /// along loop `rowLoop`; the map it is read through.
  std::pair<Value, AffineMap> positionsOfRows(Location loc, Value value,
                                              int64_t dim, AffineMap map,
                                              unsigned rowLoop);
  /// Left padding: the scores `value` with the keys before each row's
  /// start the lowest number (no query weighs them), or null where its rows
  /// or keys are not found.
  Value maskPaddedKeys(Location loc, Value value);
  /// Records the rows and the keys of the results of the step's `op`.
  void track(Operation *op) {
    rows.through(op);
    keys.through(op);
  }
  /// Whether the step's `value` is a broadcast along `dim`: an empty tensor,
  /// a fill, or a linalg op none of whose inputs reads the loop of `dim`.
  bool isBroadcastAlong(Value value, int64_t dim) const;
  /// The broadcast `value` rebuilt with `size` elements along `dim`.
  Value rebroadcast(Value value, int64_t dim, int64_t size);
  /// A shaped init like the forward's `old` (an empty tensor or a fill)
  /// with `shape`.
  Value rebuildCheapInit(Location loc, Value old, ArrayRef<int64_t> shape);

  func::FuncOp forward;
  StepKind kind;
  func::FuncOp step;
  OpBuilder b;
  int64_t seqLength = 0;
  Value position;
  /// Left padding: the step's `start` argument [B].
  Value rowStart;
  IRMapping map;
  /// The batch's dimension (the ids' first) and the keys' (a cache's
  /// sequence dimension) in the step's values.
  DimTracker rows{0};
  DimTracker keys{0};
  /// Per value of the step, for each dimension merged with the sequence's
  /// one (or that is it): the product of the sizes inside it below the
  /// sequence's factor (1: the dimension is the sequence's).
  DenseMap<Value, SmallVector<int64_t>> seqInner;
  /// Values of the step computed from a cache: their keys are all S.
  llvm::DenseSet<Value> keyed;
  /// Keyed values that met a tensor of positions taken at `pos` (a causal
  /// mask's row): the scores of an attention that reads no later key.
  llvm::DenseSet<Value> masked;
  /// `to` is computed from `from` alone (a reshape or slice of it).
  void inherit(Value to, Value from) {
    if (keyed.contains(from))
      keyed.insert(to);
    if (masked.contains(from))
      masked.insert(to);
    if (keysMasked.contains(from))
      keysMasked.insert(to);
  }
  /// Left padding: scores whose padded keys are masked, and what is
  /// computed from them along the keys.
  llvm::DenseSet<Value> keysMasked;
  SmallVector<Cache> caches;
};

} // namespace

static bool isCheapInit(Value v) {
  return v.getDefiningOp<tensor::EmptyOp>() ||
         v.getDefiningOp<linalg::FillOp>();
}

/// An empty tensor of `shape` and `elementType`, filled with `value` where
/// one is given.
static Value emptyOrFilled(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                           Type elementType, Value value = {}) {
  Value empty = tensor::EmptyOp::create(b, loc, shape, elementType);
  if (!value)
    return empty;
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

/// The offsets, sizes and unit strides of a block of `shape` that starts at
/// `at` along `dim` and at 0 along the other dimensions.
struct SliceBlock {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
static SliceBlock blockAt(OpBuilder &b, ArrayRef<int64_t> shape, int64_t dim,
                          OpFoldResult at) {
  SliceBlock block;
  for (auto [d, size] : llvm::enumerate(shape)) {
    block.offsets.push_back(static_cast<int64_t>(d) == dim ? at
                                                           : b.getIndexAttr(0));
    block.sizes.push_back(b.getIndexAttr(size));
    block.strides.push_back(b.getIndexAttr(1));
  }
  return block;
}

/// The block of `shape` of `source` at `at` along `dim`.
static Value extractBlock(OpBuilder &b, Location loc, Value source,
                          ArrayRef<int64_t> shape, int64_t dim,
                          OpFoldResult at) {
  SliceBlock block = blockAt(b, shape, dim, at);
  return tensor::ExtractSliceOp::create(
      b, loc, cast<RankedTensorType>(source.getType()).clone(shape), source,
      block.offsets, block.sizes, block.strides);
}

/// `dest` with `source` written at `at` along `dim`.
static Value insertBlock(OpBuilder &b, Location loc, Value source, Value dest,
                         int64_t dim, OpFoldResult at) {
  SliceBlock block =
      blockAt(b, cast<RankedTensorType>(source.getType()).getShape(), dim, at);
  return tensor::InsertSliceOp::create(b, loc, source, dest, block.offsets,
                                       block.sizes, block.strides);
}

std::optional<unsigned> DimTracker::loopOf(linalg::LinalgOp op,
                                           ArrayRef<Value> operands) const {
  for (OpOperand *input : op.getDpsInputOperands()) {
    Value v = operands[input->getOperandNumber()];
    std::optional<int64_t> d = v ? ownDim(v) : std::nullopt;
    if (!d)
      continue;
    if (auto expr = dyn_cast<AffineDimExpr>(
            op.getMatchingIndexingMap(input).getResult(*d)))
      return expr.getPosition();
  }
  return std::nullopt;
}

void DimTracker::through(Operation *op) {
  auto lookup = [&](Value v) -> std::optional<TrackedDim> {
    auto it = dims.find(v);
    if (it == dims.end())
      return std::nullopt;
    return it->second;
  };
  auto shapeOf = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  };
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    // Each loop an input's tracked dimension is, and what is below it there.
    DenseMap<unsigned, int64_t> loops;
    for (OpOperand *input : linalgOp.getDpsInputOperands())
      if (std::optional<TrackedDim> d = lookup(input->get()))
        if (auto expr = dyn_cast<AffineDimExpr>(
                linalgOp.getMatchingIndexingMap(input).getResult(d->dim)))
          loops.try_emplace(expr.getPosition(), d->inner);
    for (auto [init, result] :
         llvm::zip(linalgOp.getDpsInitsMutable(), op->getResults()))
      for (auto [i, expr] :
           llvm::enumerate(linalgOp.getMatchingIndexingMap(&init).getResults()))
        if (auto dim = dyn_cast<AffineDimExpr>(expr))
          if (auto it = loops.find(dim.getPosition()); it != loops.end()) {
            set(result, {static_cast<int64_t>(i), it->second});
            break;
          }
    return;
  }
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    std::optional<TrackedDim> d = lookup(collapse.getSrc());
    if (!d)
      return;
    ArrayRef<int64_t> shape = shapeOf(collapse.getSrc());
    for (auto [g, group] : llvm::enumerate(collapse.getReassociationIndices()))
      if (llvm::is_contained(group, d->dim)) {
        int64_t below = d->inner;
        for (int64_t k : group)
          if (k > d->dim)
            below *= shape[k];
        set(collapse.getResult(), {static_cast<int64_t>(g), below});
      }
    return;
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    std::optional<TrackedDim> d = lookup(expand.getSrc());
    if (!d)
      return;
    ArrayRef<int64_t> shape = shapeOf(expand.getResult());
    ReassociationIndices group = expand.getReassociationIndices()[d->dim];
    int64_t below = 1;
    for (int64_t k : llvm::reverse(group)) {
      if (d->inner % below == 0) {
        int64_t inner = d->inner / below;
        if (inner * size <= shape[k] && shape[k] % (inner * size) == 0) {
          set(expand.getResult(), {k, inner});
          return;
        }
      }
      below *= shape[k];
    }
    return;
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    // Kept whole: the same dimension, less the dropped ones before it.
    std::optional<TrackedDim> d = lookup(slice.getSource());
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    if (!d || dropped.test(d->dim) ||
        slice.getStaticSizes()[d->dim] != shapeOf(slice.getSource())[d->dim])
      return;
    int64_t dim = d->dim;
    for (int64_t k = 0; k < d->dim; ++k)
      dim -= dropped.test(k);
    set(slice.getResult(), {dim, d->inner});
    return;
  }
  if (auto concat = dyn_cast<tensor::ConcatOp>(op)) {
    std::optional<TrackedDim> d = lookup(concat.getInputs().front());
    if (d && static_cast<int64_t>(concat.getDim()) != d->dim)
      set(concat.getResult(), *d);
  }
}

bool StepBuilder::shrunk(Value newValue, Value oldValue, int64_t dim) const {
  auto n = cast<RankedTensorType>(newValue.getType());
  auto o = cast<RankedTensorType>(oldValue.getType());
  return n.getDimSize(dim) != o.getDimSize(dim);
}

Value StepBuilder::get(Value old) {
  if (Value v = map.lookupOrNull(old))
    return v;
  // Values defined outside the forward's ops the builder visited: an empty
  // tensor or a constant used as an operand, cloned as it is.
  Operation *def = old.getDefiningOp();
  if (def && (isa<tensor::EmptyOp, arith::ConstantOp>(def))) {
    Operation *copy = b.clone(*def);
    map.map(def->getResults(), copy->getResults());
    return map.lookup(old);
  }
  return {};
}

Value StepBuilder::rebuildCheapInit(Location loc, Value old,
                                    ArrayRef<int64_t> shape) {
  auto fill = old.getDefiningOp<linalg::FillOp>();
  return emptyOrFilled(b, loc, shape, getElementTypeOrSelf(old.getType()),
                       fill ? get(fill.getInputs()[0]) : Value());
}

/// The loop that dimension `dim` of the single result of `op` indexes, if
/// none of its inputs reads it and its init holds no data.
static std::optional<unsigned> broadcastLoop(linalg::LinalgOp op, int64_t dim) {
  if (op->getNumResults() != 1 || op.getNumDpsInits() != 1)
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!isCheapInit(init->get()) || op.payloadUsesValueFromOperand(init))
    return std::nullopt;
  auto expr =
      dyn_cast<AffineDimExpr>(op.getMatchingIndexingMap(init).getResult(dim));
  if (!expr)
    return std::nullopt;
  unsigned loop = expr.getPosition();
  for (OpOperand *input : op.getDpsInputOperands())
    if (op.getMatchingIndexingMap(input).isFunctionOfDim(loop))
      return std::nullopt;
  bool readsIndex = false;
  op->walk(
      [&](linalg::IndexOp index) { readsIndex |= index.getDim() == loop; });
  if (readsIndex)
    return std::nullopt;
  return loop;
}

bool StepBuilder::isBroadcastAlong(Value value, int64_t dim) const {
  if (isCheapInit(value))
    return true;
  auto op = value.getDefiningOp<linalg::LinalgOp>();
  return op && broadcastLoop(op, dim).has_value();
}

Value StepBuilder::rebroadcast(Value value, int64_t dim, int64_t size) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] = size;
  Location loc = value.getLoc();
  // An empty tensor or a fill of the step, at `shape`.
  auto cheapLike = [&](Value cheap) -> Value {
    auto fill = cheap.getDefiningOp<linalg::FillOp>();
    return emptyOrFilled(b, loc, shape, type.getElementType(),
                         fill ? fill.getInputs()[0] : Value());
  };
  if (isCheapInit(value))
    return cheapLike(value);
  auto op = value.getDefiningOp<linalg::LinalgOp>();
  OpOperand *init = op.getDpsInitOperand(0);
  IRMapping local;
  local.map(init->get(), cheapLike(init->get()));
  Operation *copy = b.clone(*op, local);
  copy->getResult(0).setType(type.clone(shape));
  return copy->getResult(0);
}

Value StepBuilder::sliceAtPosition(Location loc, Value value, int64_t dim) {
  SmallVector<int64_t> shape(
      cast<RankedTensorType>(value.getType()).getShape());
  shape[dim] = kind.tokens;
  return extractBlock(b, loc, value, shape, dim, position);
}

std::pair<Value, AffineMap>
StepBuilder::positionsOfRows(Location loc, Value value, int64_t dim,
                             AffineMap map, unsigned rowLoop) {
  auto type = cast<RankedTensorType>(value.getType());
  MLIRContext *ctx = b.getContext();
  // The row is a dimension of `value` read along `rowLoop` (a mask of every
  // row), or one put before its others.
  std::optional<int64_t> rowDim;
  for (auto [k, expr] : llvm::enumerate(map.getResults()))
    if (auto d = dyn_cast<AffineDimExpr>(expr); d && d.getPosition() == rowLoop)
      rowDim = k;
  int64_t shift = rowDim ? 0 : 1;
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> exprs;
  if (!rowDim) {
    shape.push_back(rows.getSize());
    exprs.push_back(getAffineDimExpr(rowLoop, ctx));
  }
  llvm::append_range(shape, type.getShape());
  llvm::append_range(exprs, map.getResults());
  shape[dim + shift] = kind.tokens;
  AffineMap readMap = AffineMap::get(map.getNumDims(), 0, exprs, ctx);
  unsigned rank = shape.size();
  int64_t row = rowDim ? *rowDim : 0;
  AffineMap all = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap starts = AffineMap::get(rank, 0, {getAffineDimExpr(row, ctx)}, ctx);
  int64_t last = seqLength - 1;
  auto gather = linalg::GenericOp::create(
      b, loc, TypeRange{type.clone(shape)}, ValueRange{rowStart},
      ValueRange{emptyOrFilled(b, loc, shape, type.getElementType())},
      ArrayRef<AffineMap>{starts, all},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        // value[..., clamp(pos + i - start[b], 0, S - 1), ...]
        SmallVector<Value> at;
        for (int64_t k = 0; k < type.getRank(); ++k)
          at.push_back(linalg::IndexOp::create(nb, nl, k + shift));
        Value first =
            arith::IndexCastOp::create(nb, nl, nb.getIndexType(), args[0]);
        Value p = arith::SubIOp::create(
            nb, nl, arith::AddIOp::create(nb, nl, at[dim], position), first);
        Value zero = arith::ConstantIndexOp::create(nb, nl, 0);
        Value top = arith::ConstantIndexOp::create(nb, nl, last);
        at[dim] = arith::MinSIOp::create(
            nb, nl, arith::MaxSIOp::create(nb, nl, p, zero), top);
        Value element = tensor::ExtractOp::create(nb, nl, value, at);
        linalg::YieldOp::create(nb, nl, element);
      });
  track(gather);
  return {gather.getResult(0), readMap};
}

Value StepBuilder::maskPaddedKeys(Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  auto floatType = dyn_cast<FloatType>(type.getElementType());
  std::optional<int64_t> row = rows.ownDim(value);
  std::optional<int64_t> key = keys.ownDim(value);
  if (!floatType || !row || !key)
    return {};
  MLIRContext *ctx = b.getContext();
  unsigned rank = type.getRank();
  AffineMap all = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap starts =
      AffineMap::get(rank, 0, {getAffineDimExpr(*row, ctx)}, ctx);
  // The lowest finite number, as Hugging Face masks: a row whose keys are
  // all padding (a query at a padded slot) stays finite.
  Value lowest = arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(floatType,
                     APFloat::getLargest(floatType.getFloatSemantics(),
                                         /*Negative=*/true)));
  auto masked = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{value, rowStart},
      ValueRange{emptyOrFilled(b, loc, type.getShape(), floatType)},
      ArrayRef<AffineMap>{all, starts, all},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value k = arith::IndexCastOp::create(
            nb, nl, nb.getI64Type(), linalg::IndexOp::create(nb, nl, *key));
        Value padding = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::slt,
                                              k, args[1]);
        linalg::YieldOp::create(
            nb, nl,
            arith::SelectOp::create(nb, nl, padding, lowest, args[0])
                .getResult());
      });
  track(masked);
  inherit(masked.getResult(0), value);
  keysMasked.insert(masked.getResult(0));
  return masked.getResult(0);
}

Value StepBuilder::cacheOf(Location loc, Value old, Value fresh, int64_t dim) {
  // A cache holds the value before the reshapes that merge its heads with
  // the batch ([B, H, S, D], as a KV cache is kept, each dimension laid out
  // on its own), merged again after the update.
  if (auto collapse = old.getDefiningOp<tensor::CollapseShapeOp>()) {
    auto freshCollapse = fresh.getDefiningOp<tensor::CollapseShapeOp>();
    if (freshCollapse) {
      Value src = freshCollapse.getSrc();
      auto srcType = cast<RankedTensorType>(src.getType());
      std::optional<int64_t> srcDim;
      for (int64_t d : collapse.getReassociationIndices()[dim])
        if (srcType.getDimSize(d) != collapse.getSrcType().getDimSize(d))
          srcDim = d;
      if (srcDim) {
        Value updated = cacheOf(loc, collapse.getSrc(), src, *srcDim);
        auto merged = tensor::CollapseShapeOp::create(
            b, loc, collapse.getResultType(), updated,
            collapse.getReassociationIndices());
        track(merged);
        keyed.insert(merged);
        return merged;
      }
    }
  }
  // Likewise before an op that repeats elements (repeat_kv's broadcast of
  // grouped heads): the cache keeps each key and value once. An op that
  // only reorders them (the transposes of the keys and values to the
  // heads' layout) is not looked through: the cache is kept in the order
  // the attention reads it, so that no step reorders a whole cache per
  // token.
  auto move = old.getDefiningOp<linalg::LinalgOp>();
  std::optional<DataMove> moved = getDataMove(move);
  if (moved && moved->repeats && !moved->converts &&
      moved->sourceDims[dim] >= 0) {
    auto freshMove = fresh.getDefiningOp<linalg::LinalgOp>();
    if (freshMove && freshMove->getName() == move->getName()) {
      Value updated = cacheOf(loc, moved->source->get(),
                              freshMove.getDpsInputOperand(0)->get(),
                              moved->sourceDims[dim]);
      OpOperand *init = freshMove.getDpsInitOperand(0);
      auto fullType = cast<RankedTensorType>(old.getType());
      IRMapping local;
      local.map(freshMove.getDpsInputOperand(0)->get(), updated);
      local.map(init->get(), emptyOrFilled(b, loc, fullType.getShape(),
                                           fullType.getElementType()));
      Operation *copy = b.clone(*freshMove, local);
      copy->getResult(0).setType(fullType);
      track(copy);
      keyed.insert(copy->getResult(0));
      return copy->getResult(0);
    }
  }
  for (const Cache &c : caches)
    if (c.old == old)
      return c.updated;
  auto type = cast<RankedTensorType>(old.getType());
  // The decode step's cache is an argument; the prefill's starts as zeros
  // (what it does not write, the positions after the prompt, no query reads
  // before a step writes them).
  BlockArgument arg;
  Value initial;
  if (kind.fromState) {
    arg = step.getBody().front().addArgument(type, old.getLoc());
    initial = arg;
  } else {
    Value zero =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
    initial =
        emptyOrFilled(b, loc, type.getShape(), type.getElementType(), zero);
  }
  Value updated = insertBlock(b, loc, fresh, initial, dim, position);
  // Its rows are the fresh value's; its keys the dimension written.
  if (std::optional<int64_t> row = rows.ownDim(fresh))
    rows.set(updated, {*row, 1});
  keys.set(updated, {dim, 1});
  caches.push_back({old, arg, updated});
  keyed.insert(updated);
  return updated;
}

Operation *StepBuilder::cloneWithTypes(Operation *op, TypeRange types) {
  Operation *copy = b.clone(*op, map);
  for (auto [result, type] : llvm::zip(copy->getResults(), types))
    result.setType(type);
  return copy;
}

LogicalResult StepBuilder::visitLinalg(linalg::LinalgOp op) {
  Location loc = op.getLoc();
  SmallVector<int64_t> oldRanges = op.getStaticLoopRanges();
  unsigned numLoops = op.getNumLoops();
  // The step's operands; inits that hold no data are rebuilt below.
  SmallVector<Value> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    Value old = operand.get();
    if (op.isDpsInit(&operand) && isCheapInit(old)) {
      operands.push_back({});
      continue;
    }
    Value v = get(old);
    if (!v)
      return op.emitError() << "summa-derive-generation: an operand of this "
                               "op has no value in the decode step";
    operands.push_back(v);
  }
  // Each loop's sizes, from the operands that index it directly.
  struct Reach {
    unsigned operand;
    unsigned dim;
  };
  SmallVector<SmallVector<Reach>> reaches(numLoops);
  for (OpOperand &operand : op->getOpOperands()) {
    unsigned k = operand.getOperandNumber();
    if (!operands[k] || !isa<RankedTensorType>(operands[k].getType()))
      continue;
    AffineMap m = op.getMatchingIndexingMap(&operand);
    for (auto [i, expr] : llvm::enumerate(m.getResults())) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
        reaches[dim.getPosition()].push_back({k, static_cast<unsigned>(i)});
        continue;
      }
      if (!isProjectedExpr(expr) && shrunk(operands[k], operand.get(), i))
        return op.emitError() << "summa-derive-generation: this op reads the "
                                 "sequence through a window; no decode step "
                                 "for it";
    }
  }
  auto sizeOf = [&](const Reach &r) {
    return cast<RankedTensorType>(operands[r.operand].getType())
        .getDimSize(r.dim);
  };
  auto reachShrunk = [&](unsigned loop, const Reach &r) {
    return sizeOf(r) != oldRanges[loop];
  };
  // An attention's scores: a contraction with two loops of S positions, each
  // read by one input alone (the query's and the key's) and both shrunk to
  // the token: the right-hand side's is the keys', taken from a cache.
  if (op.getNumReductionLoops() > 0 && op.getNumDpsInputs() == 2) {
    SmallVector<unsigned> shrunkLoops;
    for (unsigned l = 0; l < numLoops; ++l)
      if (oldRanges[l] == seqLength &&
          llvm::any_of(reaches[l],
                       [&](const Reach &r) { return reachShrunk(l, r); }))
        shrunkLoops.push_back(l);
    if (shrunkLoops.size() == 2) {
      auto onlyInput = [&](unsigned l) -> std::optional<unsigned> {
        std::optional<unsigned> input;
        for (const Reach &r : reaches[l]) {
          if (r.operand >= op.getNumDpsInputs())
            continue;
          if (input && *input != r.operand)
            return std::nullopt;
          input = r.operand;
        }
        return input;
      };
      std::optional<unsigned> a = onlyInput(shrunkLoops[0]);
      std::optional<unsigned> c = onlyInput(shrunkLoops[1]);
      if (a && c && *a != *c) {
        unsigned keyLoop = *c == 1 ? shrunkLoops[1] : shrunkLoops[0];
        for (const Reach &r : reaches[keyLoop])
          if (r.operand == 1) {
            OpOperand &rhs = op->getOpOperand(1);
            if (seqInner.lookup(operands[1]).size() > r.dim &&
                seqInner[operands[1]][r.dim] != 1)
              return op.emitError()
                     << "summa-derive-generation: the keys of this attention "
                        "have their sequence merged with another dimension";
            operands[1] = cacheOf(loc, rhs.get(), operands[1], r.dim);
            break;
          }
      }
    }
  }
  // Loops whose operands disagree: the token's one position against S.
  SmallVector<int64_t> sizes(numLoops, ShapedType::kDynamic);
  // Left padding: the loop over the rows, the maps of the operands (an
  // operand of positions gains the rows), whether scores meet positions.
  std::optional<unsigned> rowLoop = rows.loopOf(op, operands);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool remapped = false;
  bool scoresMeetPositions = false;
  std::map<unsigned, int64_t> perRowPositions;
  llvm::SmallBitVector atPosition(numLoops);
  bool slicedPositions = false;
  for (unsigned l = 0; l < numLoops; ++l) {
    SmallVector<Reach> full, small;
    for (const Reach &r : reaches[l])
      (sizeOf(r) == oldRanges[l] ? full : small).push_back(r);
    if (small.empty()) {
      sizes[l] = oldRanges[l];
      continue;
    }
    if (full.empty()) {
      sizes[l] = sizeOf(small.front());
      atPosition.set(l);
      continue;
    }
    int64_t size = sizeOf(small.front());
    // A broadcast along the loop (a bias spread over the rows) is rebuilt
    // at the token's size.
    if (llvm::all_of(full, [&](const Reach &r) {
          return r.operand < op.getNumDpsInputs() &&
                 isBroadcastAlong(operands[r.operand], r.dim);
        })) {
      for (const Reach &r : full)
        operands[r.operand] = rebroadcast(operands[r.operand], r.dim, size);
      sizes[l] = size;
      atPosition.set(l);
      continue;
    }
    if (oldRanges[l] != seqLength)
      return op.emitError() << "summa-derive-generation: loop " << l
                            << " of this op is along the sequence merged "
                               "with another dimension";
    bool fromCache = llvm::any_of(full, [&](const Reach &r) {
      return keyed.contains(operands[r.operand]);
    });
    if (fromCache) {
      // The values of an attention: the token's operand from a cache. The
      // scores must be causal: a later key is not in the cache yet.
      if (llvm::none_of(full, [&](const Reach &r) {
            return masked.contains(operands[r.operand]);
          }))
        return op.emitError()
               << "summa-derive-generation: the scores this op weighs the "
                  "values with are not masked by position (a bidirectional "
                  "attention, as an encoder's): a decode step would read "
                  "keys of positions not generated yet";
      for (const Reach &r : small) {
        if (r.operand >= op.getNumDpsInputs())
          return op.emitError() << "summa-derive-generation: this op "
                                   "accumulates over the keys into the "
                                   "token's value";
        operands[r.operand] =
            cacheOf(loc, op->getOperand(r.operand), operands[r.operand], r.dim);
      }
      sizes[l] = oldRanges[l];
      continue;
    }
    // Positions meeting the token: taken at `pos`. Left-padded, a row's
    // positions count from its start, except where they meet scores (a
    // causal mask relates slots, and the padding's keys are masked below).
    bool meetsScores = llvm::any_of(small, [&](const Reach &r) {
      return keys.ownDim(operands[r.operand]).has_value();
    });
    for (const Reach &r : full) {
      if (!kind.leftPadding || meetsScores) {
        operands[r.operand] = sliceAtPosition(loc, operands[r.operand], r.dim);
        continue;
      }
      if (!isa<linalg::GenericOp>(op) || r.operand >= op.getNumDpsInputs() ||
          !rowLoop || perRowPositions.count(r.operand))
        return op.emitError()
               << "summa-derive-generation: left-padded rows need their own "
                  "positions here, and this op "
               << (!rowLoop ? "has no loop over the batch's rows"
                            : "is not a linalg.generic reading them as an "
                              "input along one loop");
      // Gathered once every loop is sized (it adds a dimension).
      perRowPositions[r.operand] = r.dim;
    }
    slicedPositions = true;
    scoresMeetPositions |= meetsScores;
    sizes[l] = sizeOf(small.front());
    atPosition.set(l);
  }
  for (auto [operand, dim] : perRowPositions) {
    auto [perRow, readMap] =
        positionsOfRows(loc, operands[operand], dim, maps[operand], *rowLoop);
    operands[operand] = perRow;
    maps[operand] = readMap;
    remapped = true;
  }
  // Left padding: where scores meet the positions of a causal mask, the
  // keys before each row's start are masked too.
  if (kind.leftPadding && scoresMeetPositions)
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value &v = operands[input->getOperandNumber()];
      if (!keyed.contains(v) || !keys.ownDim(v) || keysMasked.contains(v) ||
          !isa<FloatType>(getElementTypeOrSelf(v.getType())))
        continue;
      v = maskPaddedKeys(loc, v);
      if (!v)
        return op.emitError() << "summa-derive-generation: left-padded rows: "
                                 "the rows or the keys of these scores are "
                                 "not found, so their padding cannot be "
                                 "masked";
    }
  // Results and rebuilt inits.
  SmallVector<Type> resultTypes;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap m = op.getMatchingIndexingMap(&init);
    auto oldType = cast<RankedTensorType>(init.get().getType());
    SmallVector<int64_t> shape;
    for (auto [i, expr] : llvm::enumerate(m.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      shape.push_back(dim ? sizes[dim.getPosition()] : oldType.getDimSize(i));
    }
    unsigned k = init.getOperandNumber();
    if (!operands[k])
      operands[k] = rebuildCheapInit(loc, init.get(), shape);
    resultTypes.push_back(oldType.clone(shape));
  }
  // Constants the body reads, defined before the clone.
  op->walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (!op->isAncestor(v.getParentBlock()->getParentOp()))
        (void)get(v);
  });
  // The clone, on the step's operands.
  // (Operands set by position: one value may be two operands that the
  // step takes differently, the query and the keys of a self-attention.)
  IRMapping local;
  Operation *copy = b.clone(*op, local);
  copy->setOperands(operands);
  for (auto [result, type] : llvm::zip(copy->getResults(), resultTypes))
    result.setType(type);
  if (remapped)
    cast<linalg::GenericOp>(copy).setIndexingMapsAttr(
        b.getAffineMapArrayAttr(maps));
  bool readsCache =
      llvm::any_of(operands, [&](Value o) { return o && keyed.contains(o); });
  // Tensors read inside the body keep their shapes; linalg.index of a loop
  // taken at the tokens' positions is offset by `pos`.
  LogicalResult status = success();
  copy->walk([&](Operation *inner) {
    if (inner == copy)
      return;
    for (OpOperand &use : inner->getOpOperands()) {
      Value v = use.get();
      if (copy->isProperAncestor(v.getParentBlock()->getParentOp()) ||
          v.getParentRegion() == &copy->getRegion(0))
        continue;
      if (Value mapped = get(v)) {
        if (mapped.getType() != v.getType()) {
          status = op.emitError() << "summa-derive-generation: this op reads "
                                     "a tensor along the sequence inside its "
                                     "body";
          return;
        }
        use.set(mapped);
      }
    }
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      unsigned l = index.getDim();
      if (sizes[l] != oldRanges[l] && atPosition.test(l)) {
        if (oldRanges[l] != seqLength) {
          status = op.emitError() << "summa-derive-generation: this op reads "
                                     "the index of a loop along the sequence "
                                     "merged with another dimension";
          return;
        }
        // The token's loop index i is position pos + i (a slot: a row's
        // own position where rows are left-padded is not found here).
        if (kind.leftPadding && !readsCache) {
          status = op.emitError()
                   << "summa-derive-generation: left-padded rows need their "
                      "own positions, and this op computes them from the "
                      "index of its loop along the sequence";
          return;
        }
        OpBuilder ib(index->getBlock(), std::next(index->getIterator()));
        auto at = arith::AddIOp::create(ib, index.getLoc(), index, position);
        index.getResult().replaceAllUsesExcept(at, at);
      }
    }
  });
  if (failed(status))
    return failure();
  // linalg.index ops that now have no use are left for canonicalisation;
  // they read no shape.
  bool fromCache = readsCache;
  bool isMasked =
      fromCache && (slicedPositions || llvm::any_of(operands, [&](Value o) {
                      return o && masked.contains(o);
                    }));
  track(copy);
  bool fromMaskedKeys = llvm::any_of(operands, [&](Value o) {
    return o && keys.ownDim(o) && keysMasked.contains(o);
  });
  for (auto [old, v] : llvm::zip(op->getResults(), copy->getResults())) {
    map.map(old, v);
    if (fromMaskedKeys && keys.ownDim(v))
      keysMasked.insert(v);
    if (fromCache)
      keyed.insert(v);
    if (isMasked)
      masked.insert(v);
    // A shrunk result dimension along the sequence keeps what its loop's
    // inputs have below the sequence in it (tokens merged with a top-k
    // choice, [B·S·k], keep k below), else it is the sequence's own (1).
    auto type = cast<RankedTensorType>(v.getType());
    auto oldType = cast<RankedTensorType>(old.getType());
    AffineMap resultMap = op.getIndexingMapMatchingResult(old);
    SmallVector<int64_t> inner(type.getRank(), -1);
    for (int64_t d = 0; d < type.getRank(); ++d) {
      if (type.getDimSize(d) == oldType.getDimSize(d))
        continue;
      inner[d] = 1;
      auto loop = dyn_cast<AffineDimExpr>(resultMap.getResult(d));
      if (!loop)
        continue;
      for (const Reach &r : reaches[loop.getPosition()]) {
        if (r.operand >= op.getNumDpsInputs() || !operands[r.operand])
          continue;
        SmallVector<int64_t> from = seqInner.lookup(operands[r.operand]);
        if (from.size() > r.dim && from[r.dim] > 0) {
          inner[d] = from[r.dim];
          break;
        }
      }
    }
    seqInner[v] = inner;
  }
  return success();
}

LogicalResult StepBuilder::visitCollapse(tensor::CollapseShapeOp op) {
  Value src = get(op.getSrc());
  auto srcType = cast<RankedTensorType>(src.getType());
  auto oldSrc = op.getSrcType();
  SmallVector<int64_t> shape, inner;
  SmallVector<int64_t> srcInner = seqInner.lookup(src);
  for (const ReassociationIndices &group : op.getReassociationIndices()) {
    int64_t size = 1, below = 1, seq = -1;
    for (int64_t d : llvm::reverse(group)) {
      if (srcType.getDimSize(d) != oldSrc.getDimSize(d)) {
        if (seq >= 0)
          return op.emitError() << "summa-derive-generation: this reshape "
                                   "merges two dimensions along the sequence";
        int64_t own =
            srcInner.size() > static_cast<size_t>(d) && srcInner[d] > 0
                ? srcInner[d]
                : 1;
        seq = own * below;
      }
      below *= srcType.getDimSize(d);
      size *= srcType.getDimSize(d);
    }
    shape.push_back(size);
    inner.push_back(seq);
  }
  auto type = op.getResultType().clone(shape);
  Operation *copy = cloneWithTypes(op, {type});
  track(copy);
  map.map(op.getResult(), copy->getResult(0));
  seqInner[copy->getResult(0)] = inner;
  inherit(copy->getResult(0), src);
  return success();
}

LogicalResult StepBuilder::visitExpand(tensor::ExpandShapeOp op) {
  Value src = get(op.getSrc());
  auto srcType = cast<RankedTensorType>(src.getType());
  auto oldSrc = op.getSrcType();
  auto oldResult = op.getResultType();
  SmallVector<int64_t> shape(oldResult.getShape());
  SmallVector<int64_t> inner(oldResult.getRank(), -1);
  SmallVector<int64_t> srcInner = seqInner.lookup(src);
  for (auto [g, group] : llvm::enumerate(op.getReassociationIndices())) {
    if (srcType.getDimSize(g) == oldSrc.getDimSize(g))
      continue;
    int64_t seqBelow = srcInner.size() > g && srcInner[g] > 0 ? srcInner[g] : 1;
    // The expanded dimension that holds the sequence's S elements, with
    // seqBelow elements below them in the group: the sequence itself, or
    // a dimension that keeps it merged with others (a [B·S] of tokens
    // given a unit dimension, [B·S] -> [B·S, 1]).
    int64_t below = 1, innerBelow = 1;
    std::optional<int64_t> found;
    for (int64_t d : llvm::reverse(group)) {
      int64_t size = oldResult.getDimSize(d);
      if (!found && seqBelow % below == 0 &&
          (below * size) % (seqBelow * seqLength) == 0) {
        found = d;
        innerBelow = seqBelow / below;
      }
      below *= size;
    }
    if (!found)
      return op.emitError() << "summa-derive-generation: this reshape splits "
                               "the sequence's dimension in a way the decode "
                               "step cannot follow";
    shape[*found] = oldResult.getDimSize(*found) * srcType.getDimSize(g) /
                    oldSrc.getDimSize(g);
    inner[*found] = innerBelow;
  }
  auto type = oldResult.clone(shape);
  auto copy = cast<tensor::ExpandShapeOp>(cloneWithTypes(op, {type}));
  copy.setStaticOutputShape(shape);
  track(copy);
  map.map(op.getResult(), copy.getResult());
  seqInner[copy.getResult()] = inner;
  inherit(copy.getResult(), src);
  return success();
}

LogicalResult StepBuilder::visitExtractSlice(tensor::ExtractSliceOp op) {
  Value src = get(op.getSource());
  auto srcType = cast<RankedTensorType>(src.getType());
  auto oldSrc = op.getSourceType();
  if (srcType == oldSrc) {
    Operation *copy = b.clone(*op, map);
    track(copy);
    map.map(op.getResult(), copy->getResult(0));
    return success();
  }
  if (!op.hasUnitStride() || !op.getOffsets().empty() || !op.getSizes().empty())
    return op.emitError() << "summa-derive-generation: a dynamic or strided "
                             "slice of a value along the sequence";
  SmallVector<int64_t> sizes(op.getStaticSizes());
  llvm::SmallBitVector dropped = op.getDroppedDims();
  SmallVector<int64_t> resultShape;
  SmallVector<int64_t> inner;
  SmallVector<int64_t> srcInner = seqInner.lookup(src);
  for (int64_t d = 0; d < srcType.getRank(); ++d) {
    if (srcType.getDimSize(d) != oldSrc.getDimSize(d)) {
      if (op.getStaticOffsets()[d] != 0 || sizes[d] != oldSrc.getDimSize(d))
        return op.emitError() << "summa-derive-generation: this slice cuts "
                                 "the sequence";
      sizes[d] = srcType.getDimSize(d);
    }
    if (!dropped.test(d)) {
      resultShape.push_back(sizes[d]);
      inner.push_back(srcInner.size() > static_cast<size_t>(d) ? srcInner[d]
                                                               : -1);
    }
  }
  auto copy = cast<tensor::ExtractSliceOp>(
      cloneWithTypes(op, {op.getResultType().clone(resultShape)}));
  copy.setStaticSizes(sizes);
  track(copy);
  map.map(op.getResult(), copy.getResult());
  seqInner[copy.getResult()] = inner;
  inherit(copy.getResult(), src);
  return success();
}

LogicalResult StepBuilder::visitConcat(tensor::ConcatOp op) {
  SmallVector<Value> inputs;
  for (Value input : op.getInputs()) {
    inputs.push_back(get(input));
    if (!inputs.back())
      return op.emitError() << "summa-derive-generation: an operand of this "
                               "op has no value in the decode step";
  }
  auto first = cast<RankedTensorType>(inputs.front().getType());
  int64_t dim = op.getDim();
  SmallVector<int64_t> shape(first.getShape());
  shape[dim] = 0;
  for (auto [input, old] : llvm::zip(inputs, op.getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    if (shrunk(input, old, dim))
      return op.emitError() << "summa-derive-generation: this concatenation "
                               "is along the sequence";
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != dim && type.getDimSize(d) != first.getDimSize(d))
        return op.emitError() << "summa-derive-generation: the operands of "
                                 "this concatenation disagree along the "
                                 "sequence";
    shape[dim] += type.getDimSize(dim);
  }
  Operation *copy = cloneWithTypes(op, {op.getResultType().clone(shape)});
  track(copy);
  map.map(op.getResult(), copy->getResult(0));
  seqInner[copy->getResult(0)] = seqInner.lookup(inputs.front());
  for (Value input : inputs)
    inherit(copy->getResult(0), input);
  return success();
}

LogicalResult StepBuilder::visit(Operation *op) {
  if (isa<tensor::EmptyOp, arith::ConstantOp>(op))
    return success(); // cloned where they are used
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return visitLinalg(linalgOp);
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return visitCollapse(collapse);
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return visitExpand(expand);
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return visitExtractSlice(slice);
  if (auto concat = dyn_cast<tensor::ConcatOp>(op))
    return visitConcat(concat);
  if (isa<func::ReturnOp>(op))
    return success();
  // Any other op: as it is, where no operand is along the sequence.
  for (Value operand : op->getOperands()) {
    Value v = get(operand);
    if (!v)
      return op->emitError() << "summa-derive-generation: an operand of this "
                                "op has no value in the decode step";
    if (v.getType() != operand.getType())
      return op->emitError()
             << "summa-derive-generation: no decode step for '" << op->getName()
             << "' on a value along the sequence";
  }
  Operation *copy = b.clone(*op, map);
  map.map(op->getResults(), copy->getResults());
  return success();
}

/// The greedy next token of `logits` [B, 1, V]: the index of each row's
/// largest logit (the first of equal ones, as torch.argmax), [B, 1] of
/// `idType`.
static Value greedyToken(OpBuilder &b, Location loc, Value logits,
                         IntegerType idType) {
  auto type = cast<RankedTensorType>(logits.getType());
  auto floatType = cast<FloatType>(type.getElementType());
  SmallVector<int64_t> shape = {type.getDimSize(0), type.getDimSize(1)};
  Value lowest = arith::ConstantOp::create(
      b, loc,
      b.getFloatAttr(floatType, APFloat::getInf(floatType.getFloatSemantics(),
                                                /*Negative=*/true)));
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(idType, 0));
  Value best = emptyOrFilled(b, loc, shape, floatType, lowest);
  Value where = emptyOrFilled(b, loc, shape, idType, zero);
  MLIRContext *ctx = b.getContext();
  AffineMap all = AffineMap::getMultiDimIdentityMap(3, ctx);
  AffineMap rows = AffineMap::get(
      3, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx);
  auto argmax = linalg::GenericOp::create(
      b, loc, TypeRange{best.getType(), where.getType()}, ValueRange{logits},
      ValueRange{best, where}, ArrayRef<AffineMap>{all, rows, rows},
      ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                    utils::IteratorType::parallel,
                                    utils::IteratorType::reduction},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value index = arith::IndexCastOp::create(
            nb, nl, idType, linalg::IndexOp::create(nb, nl, 2));
        Value larger = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OGT,
                                             args[0], args[1]);
        Value max = arith::SelectOp::create(nb, nl, larger, args[0], args[1]);
        Value at = arith::SelectOp::create(nb, nl, larger, index, args[2]);
        linalg::YieldOp::create(nb, nl, ValueRange{max, at});
      });
  return argmax.getResult(1);
}

/// The product `op` (one result, parallel along `loop`) computed for the
/// last of the `tokens` positions only: each input that reads `loop` reads
/// it as one of its dimensions, whose last-token block `sliceOf` gives (or
/// null: not done); the init is an empty tensor or a fill, rebuilt at the
/// smaller size. Returns the new product's result, or null.
static Value
productOfLastToken(OpBuilder &b, linalg::LinalgOp op, unsigned loop,
                   function_ref<Value(Value input, int64_t dim)> sliceOf) {
  if (op->getNumResults() != 1 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() ||
      op.getIteratorTypesArray()[loop] != utils::IteratorType::parallel)
    return {};
  // The payload must not read the loop's index.
  if (op.getBlock()
          ->walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return {};
  // Where `map` reads the loop: as exactly one of its dimensions.
  auto dimOf = [&](AffineMap map) -> std::optional<int64_t> {
    std::optional<int64_t> found;
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      if (!expr.isFunctionOfDim(loop))
        continue;
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (found || !dim)
        return std::nullopt;
      found = d;
    }
    return found;
  };
  IRMapping map;
  // The loop's size after slicing, from the first input that reads it.
  std::optional<int64_t> slicedSize;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap m = op.getMatchingIndexingMap(input);
    if (!m.isFunctionOfDim(loop))
      continue;
    std::optional<int64_t> d = dimOf(m);
    Value sliced = d ? sliceOf(input->get(), *d) : Value();
    if (!sliced)
      return {};
    map.map(input->get(), sliced);
    if (!slicedSize)
      slicedSize = cast<RankedTensorType>(sliced.getType()).getDimSize(*d);
  }
  OpOperand *init = op.getDpsInitOperand(0);
  std::optional<int64_t> resultDim = dimOf(op.getMatchingIndexingMap(init));
  Value oldInit = init->get();
  if (!resultDim || !slicedSize || !isCheapInit(oldInit))
    return {};
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[*resultDim] = *slicedSize;
  auto fill = oldInit.getDefiningOp<linalg::FillOp>();
  map.map(oldInit, emptyOrFilled(b, op.getLoc(), shape, type.getElementType(),
                                 fill ? fill.getInputs()[0] : Value()));
  Operation *copy = b.clone(*op, map);
  copy->getResult(0).setType(type.clone(shape));
  return copy->getResult(0);
}

/// The logits [B, 1, V] of the last of the prefill's `tokens` positions,
/// computed for that position alone where the logits [B, T, V] are a
/// product along the positions (the LM head, as Hugging Face's generate()
/// computes only the last position's logits): a product whose loop over
/// the positions reads each input's own dimension, or one over B*T rows
/// (`expand_shape` of a `linalg.matmul` of a `collapse_shape`d [B, T, E]).
/// Null where the logits are neither.
static Value lastTokenLogits(OpBuilder &b, Value logits, int64_t tokens) {
  auto sliceAtLast = [&](Value v, int64_t dim) -> Value {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getDimSize(dim) != tokens)
      return {};
    SmallVector<int64_t> shape(type.getShape());
    shape[dim] = 1;
    return extractBlock(b, v.getLoc(), v, shape, dim,
                        b.getIndexAttr(tokens - 1));
  };
  auto type = cast<RankedTensorType>(logits.getType());
  if (auto op = logits.getDefiningOp<linalg::LinalgOp>()) {
    auto row = dyn_cast<AffineDimExpr>(
        op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResult(1));
    b.setInsertionPointAfter(op);
    return row ? productOfLastToken(b, op, row.getPosition(), sliceAtLast)
               : Value();
  }
  auto expand = logits.getDefiningOp<tensor::ExpandShapeOp>();
  if (!expand)
    return {};
  SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
  if (groups.size() != 2 || groups[0] != ReassociationIndices{0, 1} ||
      groups[1] != ReassociationIndices{2})
    return {};
  auto op = expand.getSrc().getDefiningOp<linalg::LinalgOp>();
  if (!op)
    return {};
  auto row = dyn_cast<AffineDimExpr>(
      op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResult(0));
  // Each input's rows: a collapse of [B, T] (and what follows) whose
  // positions are sliced at the last before the collapse.
  auto rowsOfLast = [&](Value v, int64_t dim) -> Value {
    auto collapse = v.getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse)
      return {};
    ReassociationIndices group = collapse.getReassociationIndices()[dim];
    RankedTensorType src = collapse.getSrcType();
    if (group.size() != 2 || src.getDimSize(group[0]) != type.getDimSize(0))
      return {};
    Value sliced = sliceAtLast(collapse.getSrc(), group[1]);
    if (!sliced)
      return {};
    return tensor::CollapseShapeOp::create(b, collapse.getLoc(), sliced,
                                           collapse.getReassociationIndices());
  };
  b.setInsertionPoint(expand);
  Value product =
      row ? productOfLastToken(b, op, row.getPosition(), rowsOfLast) : Value();
  if (!product)
    return {};
  return tensor::ExpandShapeOp::create(
      b, expand.getLoc(),
      type.clone({type.getDimSize(0), 1, type.getDimSize(2)}), product, groups);
}

/// min(max(`v`, 0), `last`) as an index: a position inside the caches.
static Value clampPosition(OpBuilder &b, Location loc, Value v, int64_t last) {
  Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value top = arith::ConstantIndexOp::create(b, loc, last);
  return arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, index, zero), top);
}

static void setName(func::FuncOp f, unsigned arg, StringRef name) {
  f.setArgAttr(arg, kNameAttrName, StringAttr::get(f.getContext(), name));
}

static std::string cacheName(unsigned k) {
  return "cache." + std::to_string(k);
}

FailureOr<func::FuncOp> StepBuilder::build() {
  Block &body = forward.getBody().front();
  if (forward.getNumArguments() == 0)
    return forward.emitError() << "summa-derive-generation: the forward takes "
                                  "no token ids";
  auto ids = dyn_cast<RankedTensorType>(forward.getArgumentTypes()[0]);
  if (!ids || ids.getRank() != 2 || !ids.hasStaticShape() ||
      !isa<IntegerType>(ids.getElementType()))
    return forward.emitError() << "summa-derive-generation: argument 0 must be "
                                  "the token ids, a static [batch, sequence] "
                                  "integer tensor; got "
                               << forward.getArgumentTypes()[0];
  seqLength = ids.getDimSize(1);
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  auto logits = ret.getNumOperands()
                    ? dyn_cast<RankedTensorType>(ret.getOperand(0).getType())
                    : RankedTensorType();
  if (!logits || logits.getRank() != 3 || logits.getDimSize(1) != seqLength ||
      !isa<FloatType>(logits.getElementType()))
    return forward.emitError() << "summa-derive-generation: result 0 must be "
                                  "the logits [batch, sequence, vocabulary]";
  int64_t tokens = kind.tokens;
  if (tokens < 1 || tokens >= seqLength)
    return forward.emitError()
           << "summa-derive-generation: the prompt's length must be in [1, "
           << seqLength - 1 << "] (the export's sequence of " << seqLength
           << " holds the prompt and at least one new token); got " << tokens;

  // The step's arguments: the tokens, their position (decode), the
  // forward's others; the caches are added as they are found, the
  // generated ids last (decode).
  MLIRContext *ctx = forward.getContext();
  Location loc = forward.getLoc();
  b.setInsertionPointAfter(forward);
  auto i64 = IntegerType::get(ctx, 64);
  auto scalar = RankedTensorType::get({}, i64);
  // Arguments: the tokens, the position (decode), each row's start (left
  // padding), then the forward's others.
  unsigned startArg = kind.fromState ? 2 : 1;
  unsigned first = startArg + (kind.leftPadding ? 1 : 0);
  SmallVector<Type> args = {ids.clone({ids.getDimSize(0), tokens})};
  if (kind.fromState)
    args.push_back(scalar);
  if (kind.leftPadding)
    args.push_back(RankedTensorType::get({ids.getDimSize(0)}, i64));
  llvm::append_range(args, forward.getArgumentTypes().drop_front());
  step =
      func::FuncOp::create(b, loc, (forward.getSymName() + kind.suffix).str(),
                           FunctionType::get(ctx, args, {}));
  Block *entry = step.addEntryBlock();
  b.setInsertionPointToStart(entry);
  map.map(forward.getArgument(0), entry->getArgument(0));
  seqInner[entry->getArgument(0)] = {-1, 1};
  rows = DimTracker(ids.getDimSize(0));
  keys = DimTracker(seqLength);
  rows.set(entry->getArgument(0), {0, 1});
  if (kind.leftPadding) {
    rowStart = entry->getArgument(startArg);
    rows.set(rowStart, {0, 1});
  }
  for (unsigned i = 1; i < forward.getNumArguments(); ++i)
    map.map(forward.getArgument(i), entry->getArgument(i - 1 + first));
  Value pos;
  if (kind.fromState) {
    pos =
        tensor::ExtractOp::create(b, loc, entry->getArgument(1), ValueRange{});
    position = clampPosition(b, loc, pos, seqLength - tokens);
  } else {
    pos = arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(0));
    position = arith::ConstantIndexOp::create(b, loc, 0);
  }

  for (Operation &op : body.without_terminator())
    if (failed(visit(&op))) {
      step.erase();
      return failure();
    }
  Value newLogits = get(ret.getOperand(0));
  auto newType = cast<RankedTensorType>(newLogits.getType());
  if (newType.getDimSize(1) != tokens) {
    step.erase();
    return forward.emitError() << "summa-derive-generation: the logits do not "
                                  "follow the tokens (the forward does not "
                                  "compute them per position)";
  }
  // The logits of the last token, the next token, its position, and the
  // generated ids with it.
  if (tokens > 1) {
    OpBuilder::InsertPoint end = b.saveInsertionPoint();
    Value last = lastTokenLogits(b, newLogits, tokens);
    b.restoreInsertionPoint(end);
    if (last) {
      // The product of every position is dead now: erase it and what only
      // it read, so that no later pass computes it.
      // (Not a cache's update: the return reads those, once it is built.)
      llvm::SmallPtrSet<Operation *, 16> kept, erased;
      for (const Cache &c : caches)
        kept.insert(c.updated.getDefiningOp());
      SmallVector<Operation *> worklist = {newLogits.getDefiningOp()};
      while (!worklist.empty()) {
        Operation *op = worklist.pop_back_val();
        if (!op || kept.contains(op) || erased.contains(op) ||
            !isOpTriviallyDead(op))
          continue;
        for (Value operand : op->getOperands())
          worklist.push_back(operand.getDefiningOp());
        erased.insert(op);
        op->erase();
      }
      newLogits = last;
    } else {
      newLogits = extractBlock(
          b, loc, newLogits, {newType.getDimSize(0), 1, newType.getDimSize(2)},
          1, b.getIndexAttr(tokens - 1));
    }
  }
  auto idType = cast<IntegerType>(ids.getElementType());
  Value advance =
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(tokens));
  Value nextPosTensor;
  if (kind.fromState) {
    // pos + T as a tensor, an elementwise op every rank computes.
    AffineMap none = AffineMap::get(0, 0, ctx);
    nextPosTensor =
        linalg::GenericOp::create(
            b, loc, TypeRange{scalar}, ValueRange{entry->getArgument(1)},
            ValueRange{emptyOrFilled(b, loc, {}, i64)},
            ArrayRef<AffineMap>{none, none}, ArrayRef<utils::IteratorType>{},
            [&](OpBuilder &nb, Location nl, ValueRange values) {
              linalg::YieldOp::create(
                  nb, nl,
                  ValueRange{arith::AddIOp::create(nb, nl, values[0], advance)
                                 .getResult()});
            })
            .getResult(0);
  } else {
    nextPosTensor = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(scalar, b.getI64IntegerAttr(tokens)));
  }
  // The logits of the last token, the next token (greedy), its position,
  // the caches, and the generated ids with the token; without nextToken the
  // logits, the position and the caches.
  SmallVector<Value> results = {newLogits};
  Value generated;
  if (kind.nextToken) {
    Value next = greedyToken(b, loc, newLogits, idType);
    if (kind.fromState) {
      generated = entry->addArgument(ids, loc);
    } else {
      // The generated ids: the prompt, then zeros.
      Value zero =
          arith::ConstantOp::create(b, loc, b.getIntegerAttr(idType, 0));
      Value zeros = emptyOrFilled(b, loc, ids.getShape(), idType, zero);
      generated = insertBlock(b, loc, entry->getArgument(0), zeros, 1,
                              b.getIndexAttr(0));
    }
    results.push_back(next);
    Value nextPos = arith::AddIOp::create(b, loc, pos, advance);
    generated = insertBlock(b, loc, next, generated, 1,
                            clampPosition(b, loc, nextPos, seqLength - 1));
  }
  results.push_back(nextPosTensor);
  for (const Cache &c : caches)
    results.push_back(c.updated);
  if (generated)
    results.push_back(generated);
  func::ReturnOp::create(b, ret.getLoc(), results);
  step.setFunctionType(FunctionType::get(ctx, entry->getArgumentTypes(),
                                         ValueRange(results).getTypes()));

  // Names: the forward's argument attributes; the state under the names
  // the decode step's arguments have (the prefill's results are its
  // inputs). The decode step's results after the logits update their
  // arguments, so that --steps N generates N tokens.
  setName(step, 0, "input_ids");
  if (DictionaryAttr attrs = forward.getArgAttrDict(0))
    if (Attribute name = attrs.get(kNameAttrName))
      step.setArgAttr(0, kNameAttrName, name);
  if (kind.leftPadding)
    setName(step, startArg, "start");
  for (unsigned i = 1; i < forward.getNumArguments(); ++i)
    if (DictionaryAttr attrs = forward.getArgAttrDict(i))
      for (NamedAttribute attr : attrs)
        step.setArgAttr(i - 1 + first, attr.getName(), attr.getValue());
  SmallVector<std::string> names = {"logits"};
  if (kind.nextToken)
    names.push_back("token");
  names.push_back("pos");
  for (unsigned k = 0; k < caches.size(); ++k)
    names.push_back(cacheName(k));
  if (kind.nextToken)
    names.push_back("generated");
  if (!kind.fromState) {
    for (auto [r, name] : llvm::enumerate(names))
      step.setResultAttr(r, kNameAttrName, StringAttr::get(ctx, name));
    return step;
  }
  // One token per sequence: its products keep the weights where they are.
  step->setAttr(kWeightStationaryAttrName, UnitAttr::get(ctx));
  setName(step, 0, "token");
  setName(step, 1, "pos");
  SmallVector<unsigned> updated;
  if (kind.nextToken)
    updated.push_back(0);
  updated.push_back(1);
  for (auto [k, c] : llvm::enumerate(caches)) {
    setName(step, c.arg.getArgNumber(), cacheName(k));
    // Laid out as the step writes it (heads as attention splits them), not
    // as an activation by default.
    step.setArgAttr(
        c.arg.getArgNumber(), kRoleAttrName,
        StringAttr::get(ctx, stringifyArgumentRole(ArgumentRole::State)));
    updated.push_back(c.arg.getArgNumber());
  }
  if (kind.nextToken) {
    // The generated ids: the last argument, added after the caches.
    setName(step, step.getNumArguments() - 1, "generated");
    updated.push_back(step.getNumArguments() - 1);
  }
  for (auto [r, arg] : llvm::enumerate(updated))
    step.setResultAttr(1 + r, kUpdatesAttrName, IntegerAttr::get(i64, arg));
  return step;
}

namespace {
struct SummaDeriveGenerationPass
    : summa::impl::SummaDeriveGenerationBase<SummaDeriveGenerationPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(requireOpRules(module)))
      return signalPassFailure();
    SmallVector<func::FuncOp> selected = selectFunctions(module, function);
    if (selected.size() != 1) {
      module.emitError() << "summa-derive-generation: "
                         << (selected.empty()
                                 ? "no function to derive from"
                                 : "more than one public function; name one "
                                   "with function=NAME");
      return signalPassFailure();
    }
    func::FuncOp forward = selected.front();
    if (!forward.getBody().hasOneBlock()) {
      forward.emitError() << "summa-derive-generation: functions with control "
                             "flow are not supported";
      return signalPassFailure();
    }
    for (StringRef suffix : {"_decode", "_prefill"})
      if (module.lookupSymbol((forward.getSymName() + suffix).str())) {
        forward.emitError()
            << "summa-derive-generation: @" << forward.getSymName() << suffix
            << " already exists";
        return signalPassFailure();
      }
    if (prompt <= 0) {
      forward.emitError() << "summa-derive-generation: give the prompt's "
                             "length (prompt=P): the prefill takes P ids per "
                             "sequence";
      return signalPassFailure();
    }
    // Keys and values computed before their heads are repeated (grouped
    // query attention): the caches hold each once.
    if (failed(sinkRepeats(forward)))
      return signalPassFailure();
    StepBuilder decode(
        forward, {"_decode", 1, /*fromState=*/true, nextToken, leftPadding});
    if (failed(decode.build()))
      return signalPassFailure();
    if (decode.getCaches().empty()) {
      forward.emitError() << "summa-derive-generation: no attention relates "
                             "two positions (the keys of a product of two "
                             "values along the sequence); nothing to cache";
      return signalPassFailure();
    }
    StepBuilder prefill(forward, {"_prefill", prompt, /*fromState=*/false,
                                  nextToken, leftPadding});
    if (failed(prefill.build()))
      return signalPassFailure();
    // Both find the same caches, in the same order: the prefill's results
    // are the decode step's inputs.
    bool same = decode.getCaches().size() == prefill.getCaches().size();
    for (unsigned k = 0; same && k < decode.getCaches().size(); ++k)
      same = decode.getCaches()[k].old == prefill.getCaches()[k].old &&
             decode.getCaches()[k].updated.getType() ==
                 prefill.getCaches()[k].updated.getType();
    if (!same) {
      forward.emitError() << "summa-derive-generation: the prefill of "
                          << prompt
                          << " tokens finds other caches than the decode "
                             "step of one";
      return signalPassFailure();
    }
  }
};
} // namespace
